"""Every Origins of World War I content entry that has an effect, checked against its own text.

One row per entry in content_effects.toml, keyed by an id generated here from the content
files (engine/content/origins/*.toml): the entry's text as players read it (`/game card`,
rendered from the entry by engine/origins/texts.py), positions set up through the engine's
setup, and the effect each must have. The suite fails when the content has an entry with no
row, an entry whose text differs from its row, or a row with no entry.

A value the rulebook prints is written out in its row. A reconstructed value (objectives
and specials get rebalanced) is written `{points}` / `{exclusive}` in the row, in the text
and in the expected VPs alike: it is read from the content entry, and the check is that the
scoring applies it as the text says.
"""

from __future__ import annotations

import itertools
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.origins import GAME, content, rules, scoring, texts

from .helpers import Dice, new_game, position, to_attacks

ROWS_FILE = Path(__file__).with_name("content_effects.toml")

# The content entries checked: 7 countries (income), 6 embassies nobody holds, 7 deals of
# the countries, 12 turns, 33 National Objectives, 3 special objectives, 11 attack table rows.
ENTRIES = 79


def content_entries() -> dict[str, tuple[str, Any]]:
    """id -> (the entry's text as players read it, the content entry), for every entry of
    the content files; each of the player-facing entries (texts.entries) is used once."""
    names = content.names()
    board, objs, table = content.board(), content.objectives(), content.attack_table()
    pairs: list[tuple[str, str, Any]] = []  # (id, the entry's name in /game card, entry)
    pairs += [(f"power {p.code}", p.name, p) for p in board.powers]
    pairs += [(f"embassy {m.code}", m.name, m) for m in board.minors]
    for a in board.assignments:
        suffix = " (the 4-player Italy option, §9)" if a.reading == "s9" else ""
        reading = f" {a.reading}" if a.reading else ""
        pairs.append((f"assignment {a.players}{reading}", f"Countries with {a.players} players{suffix}", a))
    pairs += [(f"turn {t.label}", f"Turn {t.label}", t) for t in board.turns]
    pairs += [
        (f"objective {o.power} {o.location}", f"{names[o.power]} objective: {names[o.location]}", o)
        for o in objs.objectives
    ]
    pairs += [(f"special {s.power}", f"{names[s.power]} special objective", s) for s in objs.specials]
    pairs += [(f"attack roll {r.roll}", f"Attack table roll {r.roll}", r) for r in table.rows]
    shown = {e.name: e.text for e in texts.entries()}
    assert sorted(name for _, name, _ in pairs) == sorted(shown), "an entry of /game card has no id here"
    out = {id_: (shown[name], entry) for id_, name, entry in pairs}
    assert len(out) == len(pairs), "two content entries share an id"
    return out


def load_rows() -> dict[str, dict[str, Any]]:
    with ROWS_FILE.open("rb") as fh:
        rows = tomllib.load(fh)["rows"]
    by_id = {row["id"]: row for row in rows}
    assert len(by_id) == len(rows), "two rows share an id"
    return by_id


ENTRY_IDS = list(content_entries())
ROW_IDS = list(load_rows())
ALL_IDS = ENTRY_IDS + [i for i in ROW_IDS if i not in ENTRY_IDS]


def _values(entry: Any) -> dict[str, Any]:
    """The reconstructed values a row may name: `{points}`, `{exclusive}`."""
    return {"points": getattr(entry, "points", None), "exclusive": getattr(entry, "exclusive", None)}


def _fill(value: Any, entry: Any) -> Any:
    """A row's value, with a reconstructed value read from the content entry."""
    if isinstance(value, str) and value.startswith("{"):
        filled = value.format(**_values(entry))
        assert filled.isdigit(), f"{value!r} names no value of this entry"
        return int(filled)
    return value


def _printed(entry: Any) -> bool:
    """The rulebook prints this entry's value (a row writes it out, never reads it)."""
    return entry.provenance.kind == "rulebook" or "value is printed" in entry.provenance.source


def test_the_rows_are_one_per_content_entry():
    entries, rows = set(ENTRY_IDS), set(ROW_IDS)
    assert not entries - rows, f"content entries with no row in {ROWS_FILE.name}: {sorted(entries - rows)}"
    assert not rows - entries, f"rows with no content entry: {sorted(rows - entries)}"
    assert len(entries) == len(rows) == ENTRIES


@pytest.mark.parametrize("entry_id", ALL_IDS)
def test_each_entry_has_the_effect_its_text_states(entry_id):
    entries, rows = content_entries(), load_rows()
    assert entry_id in entries, f"the row {entry_id!r} has no content entry"
    assert entry_id in rows, f"the content entry {entry_id!r} has no row in {ROWS_FILE.name}"
    text, entry = entries[entry_id]
    row = rows[entry_id]
    if "{" in row["text"]:
        assert not _printed(entry), f"{entry_id}: a value the rulebook prints is written out in its row"
    assert row["text"].format(**_values(entry)) == text, f"{entry_id}: the entry's text is not its row's"
    CHECKS[row["check"]](row, entry)


# -- the checks, one per kind of entry ------------------------------------------------------


def _income(row: dict, power: Any) -> None:
    """Phase 1: the country receives its PFs each turn."""
    assert row["power"] == power.code
    state = new_game(7, 1)
    assert state.unplaced[power.code] == row["income"] and state.ledger[power.code].income == row["income"]
    state.turn = 1
    rules.begin_turn(state, random.Random(0))
    assert state.unplaced[power.code] == row["income"]
    assert state.ledger[power.code].income == 2 * row["income"]


def _embassy(row: dict, minor: Any) -> None:
    """§2: an embassy nobody holds (no card, no income); §8: 10 PFs there are treaty rights."""
    code = row["embassy"]
    assert code == minor.code and code in content.embassies()
    for players, options in [*((n, {}) for n in range(2, 8)), (4, {"four_players_italy": True})]:
        state = new_game(players, 1, **options)
        assert code not in state.holders and code not in state.order and code not in state.unplaced
    for case in row["cases"]:
        state = position(new_game(7, 1), case["pfs"])
        assert state.treaties.get(code, []) == case["treaty_rights"], case


def _assignment(row: dict, deal: Any) -> None:
    """§1: the countries are dealt in these groups, one a player, at random; §9: a player of
    one country is doubled when another holds several."""
    assert row["players"] == deal.players
    groups = {frozenset(g) for g in row["groups"]}
    seats_of_first = set()
    for seed in range(12):
        state = new_game(row["players"], seed, **row["options"])
        assert {frozenset(state.countries_of(s)) for s in state.seats} == groups
        assert set(state.holders) == set().union(*groups) == set(state.order)
        doubled = {c for s in scoring.doubled_seats(state) for c in state.countries_of(s)}
        assert doubled == set(row["doubled"])
        seats_of_first.add(state.holders[row["groups"][0][0]])
    assert len(seats_of_first) > 1, "the deal is the same every game"


def _turn(row: dict, turn: Any) -> None:
    """Phase 2: the end roll (from July 1914); Phase 6: provisional VPs and diplomacy, or the
    final scoring when this is the last turn."""
    index = content.board().turns.index(turn)
    assert row["turn"] == index
    for case in row["cases"]:
        state = new_game(5, 1)
        state.turn, state.last_turn = index, False
        dice = Dice(*([case["roll"]] if "roll" in case else []))  # an unscripted roll fails
        rules.begin_turn(state, dice)
        assert state.last_turn == case["last_turn"], case
        assert state.end_roll == case.get("roll") and dice.faces == []
        state.phase = "attacks"
        rules.end_turn(state, Dice(6, 6))
        if case["last_turn"]:
            assert state.phase == "over" and state.final is not None
        elif row["provisional"]:
            assert state.phase == "diplomacy" and state.provisional_when == turn.label
        else:
            assert state.phase == "bidding" and state.turn == index + 1 and not state.provisional_when


def _objective(row: dict, objective: Any) -> None:
    """§8 and §9: the VPs for treaty rights (10 PFs) in the location, the exclusive value
    when no other nation holds treaty rights there."""
    power, where = row["power"], content.names()[objective.location]
    assert power == objective.power
    base = scoring.country_vps(position(new_game(7, 1), {}))[power]
    for case in row["cases"]:
        vp = _fill(case["vp"], objective)
        state = position(new_game(7, 1), case["pfs"])
        assert scoring.country_vps(state)[power] - base == vp, case
        items = [n for what, n in scoring.country_breakdown(state)[power] if f"in {where}" in what]
        assert items == ([vp] if vp else []), case


def _special_items(state: Any, power: str) -> list[int]:
    return [n for what, n in scoring.country_breakdown(state)[power] if what.startswith("special")]


def _nobody_above(row: dict, special: Any) -> None:
    """§6 Phase 6: the VPs if no other nation has more than the threshold, scored last (so
    against the others' totals, their specials included). The positions are searched among
    the other countries' objectives, each met alone, so that they follow a rebalance."""
    power, threshold = row["power"], row["threshold"]
    assert (power, threshold) == (special.power, special.threshold)
    state = new_game(7, 1)
    found: dict[str, tuple[dict, int]] = {}
    for other in (c for c in state.holders if c != power):
        goals = [o for o in content.objectives().objectives if o.power == other]
        for n in range(len(goals) + 1):
            for chosen in itertools.combinations(goals, n):
                position(state, {o.location: {other: 10} for o in chosen})
                vps = scoring.country_vps(state)
                top = max(v for c, v in vps.items() if c != power)
                own = vps[other] - sum(_special_items(state, other))
                if top == threshold:
                    found.setdefault("at the threshold", (dict(state.pfs), top))
                if top > threshold and top < found.get("above the threshold", ({}, 1 << 30))[1]:
                    found["above the threshold"] = (dict(state.pfs), top)
                if vps[other] == top > threshold >= own:
                    found.setdefault("above the threshold with its own special", (dict(state.pfs), top))
    for case in row["cases"]:
        assert case["top"] in found, f"no position has another nation {case['top']}"
        pfs, top = found[case["top"]]
        position(state, pfs)
        vp = _fill(case["vp"], special)
        assert _special_items(state, power) == ([vp] if vp else []), (case, pfs, top)


def _enemy_without_major_treaties(row: dict, special: Any) -> None:
    """Designer's notes: the VPs while the enemy holds no treaty rights with a major
    (player-held) country; minors, Africa, the Far East and unheld countries do not count."""
    power, enemy = row["power"], row["enemy"]
    assert (power, enemy) == (special.power, special.enemy)
    for case in row["cases"]:
        state = position(new_game(case["players"], 1), case["pfs"])
        assert power in state.holders and enemy in state.holders
        vp = _fill(case["vp"], special)
        assert _special_items(state, power) == ([vp] if vp else []), case


def _attack(row: dict, table_row: Any) -> None:
    """§7: at each odds column, a roll of this total gives the result the row states, and
    AE / DE / EX remove the PFs §7 says."""
    roll = row["roll"]
    assert roll == table_row.roll
    cells = dict(cell.rsplit(" ", 1) for cell in row["text"].split(": ", 1)[1].rstrip(".").split(", "))
    first = min(6, roll - 1)
    for case in row["cases"]:
        a, d = case["attacker"], case["defender"]
        assert cells[case["column"]] == case["result"], case  # the case is the text's cell
        by_rules = {"AE": [a, 0], "DE": [0, d], "EX": [min(a, d), min(a, d)]}[case["result"]]
        assert case["lost"] == by_rules, case
        state = new_game(5, 1)
        position(state, {"SER": {"GER": a, "RUS": d}})
        state = to_attacks(state, "GER", ["GER", "UK", "FRA", "RUS", "AH"])
        action = GAME.parse_action({"kind": "attack", "embassy": "SER", "split": {"RUS": a}})
        events = rules.play(state, state.holders["GER"], action, Dice(first, roll - first))
        fought = events[0].data
        assert (fought["column"], fought["result"], sum(fought["dice"])) == (case["column"], case["result"], roll)
        assert [a - state.at("SER", "GER"), d - state.at("SER", "RUS")] == case["lost"], case
        assert GAME.invariants(state) == []


CHECKS = {
    "income": _income,
    "embassy": _embassy,
    "assignment": _assignment,
    "turn": _turn,
    "objective": _objective,
    "nobody_above": _nobody_above,
    "enemy_without_major_treaties": _enemy_without_major_treaties,
    "attack": _attack,
}
