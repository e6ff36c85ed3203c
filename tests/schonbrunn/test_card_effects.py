"""Every Reparation card does what its text says: a table of one row per card
(tests/schonbrunn/card_effects.toml), keyed by the card's id and carrying its text, each row
with small positions built through the engine's setup and the effect the text gives there.

The rows are checked against the content: a card with no row, a card whose text differs from
its row's, or a row with no card fails the suite, so a new or changed card needs its row.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.core import IllegalAction
from engine.schonbrunn import GAME
from engine.schonbrunn.actions import Activate, Minister, Target
from engine.schonbrunn.content import cards
from engine.schonbrunn.phases import end
from engine.schonbrunn.pieces import influence

from .helpers import act, adjust, give, place, table, top

ROWS: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).with_name("card_effects.toml")).read_text(encoding="utf-8")
)["entry"]
BY_ID = {row["id"]: row for row in ROWS}
# The 36 Reparations of the box (Contents of the Box): 8 Indemnities, 8 Allies, 8 Aids, 12 Treaties.
ENTRIES_CHECKED = 36

THREE = ["GB", "AUT", "RUS"]  # Hierarchy order too: Great Britain first, Russia last
NATION = {"GB": "GB", "Great Britain": "GB", "AUT": "AUT", "Austria": "AUT", "RUS": "RUS", "Russia": "RUS"}
# Tops of the piles in the Congress of a Treaty's check: Aids, which do nothing when collected
CONGRESS_TOPS = {
    "I": "donation",
    "II": "financial_loan",
    "III": "naval_blockade",
    "IIII": "border_fortification",
    "PoB": "popular_uprising",
}


def test_the_table_has_one_row_for_each_of_the_36_reparations_with_its_text():
    ids = [row["id"] for row in ROWS]
    assert len(ids) == len(set(ids)), "a card has two rows"
    content = cards()
    missing = sorted(set(content) - set(BY_ID))
    assert not missing, f"cards with no row in card_effects.toml: {missing}"
    orphans = sorted(set(BY_ID) - set(content))
    assert not orphans, f"rows of card_effects.toml with no card: {orphans}"
    changed = sorted(i for i in content if BY_ID[i]["text"] != content[i].text)
    assert not changed, f"cards whose text differs from their row's: {changed}"
    assert all(row["checks"] for row in ROWS), "a row checks nothing"
    assert len(content) == len(ROWS) == ENTRIES_CHECKED


@pytest.mark.parametrize("card_id", sorted(cards()))
def test_card_effect(card_id):
    """The card's row: its text is the content's, and each check of the row holds."""
    row = BY_ID.get(card_id)
    assert row is not None, f"{card_id} has no row in card_effects.toml"
    assert row["text"] == cards()[card_id].text, f"{card_id}: the text changed; check its row's effects"
    for check in row["checks"]:
        RUNNERS[check["kind"]](card_id, check)


# -- the runners: one kind of position each -----------------------------------------------------


def _three():
    s = table(THREE)
    s.hierarchy, s.master = list(THREE), "GB"
    return s


def _congress(s):
    """From Russia's Foreign Minister decision, the last of the Chancellery, to the Congress."""
    s.stage, s.queue = "minister", ["RUS"]
    s, public = act(s, "RUS", Minister(objective=None))
    return s, public


def check_collect(card_id: str, check: dict[str, Any]) -> None:
    """Great Britain collects the card in Objective I with a lone 5 (round 1 of 4)."""
    s = _three()
    top(s, "I", card_id)
    place(s, "GB", "I", [5], face_up=True)
    before = s.players["GB"]
    s, public = _congress(s)
    after = s.players["GB"]
    name = cards()[card_id].name
    assert any(line.startswith(f"Great Britain collects {name}") for line in "\n".join(public).split("\n"))
    assert card_id in after.screen
    assert (after.prestige - before.prestige, after.receptions - before.receptions) == (
        check["prestige"],
        check["receptions"],
    ), f"{card_id}: Prestige and Receptions on collection"


def check_end(card_id: str, check: dict[str, Any]) -> None:
    """Great Britain's end-of-game Prestige holding these cards."""
    held = [*check.get("screen", []), *check.get("under", []), *check.get("signed", [])]
    assert card_id in held, f"{card_id}: an end check must hold the card"
    s = _three()
    for where in ("screen", "under", "signed"):
        for c in check.get(where, []):
            give(s, "GB", c, where)
    adjust(s, "GB", receptions=check.get("receptions", 0))
    s.round = s.rounds
    before = s.players["GB"].prestige
    end.final_scoring(s, [])
    gb = s.players["GB"]
    assert gb.prestige - before == check["points"], f"{card_id}: {check} scored {gb.end_detail!r}"
    if "detail" in check:
        assert gb.end_detail == check["detail"]


def check_recovery(card_id: str, check: dict[str, Any]) -> None:
    """Great Britain collects the Ally in round 1 holding these Aids; the Recovery follows."""
    s = _three()
    for aid in check["aids"]:
        give(s, "GB", aid)
    top(s, "I", card_id)
    place(s, "GB", "I", [5], face_up=True)
    s, _ = _congress(s)
    assert s.round == 2, "the Recovery of round 1 is over"
    gb = s.players["GB"]
    if check["marker"]:
        assert gb.ally_markers == (check["marker"],), f"{card_id} with {check['aids']}"
        assert card_id in gb.under and card_id not in gb.screen
    else:
        assert gb.ally_markers == (), f"{card_id} gives no Ally marker"
        assert card_id in gb.screen and card_id not in gb.under


def _activation(card_id: str, spec: dict[str, Any]) -> Activate:
    return Activate(
        treaty=card_id,
        pay="minister",
        objective=spec.get("objective"),
        targets=[Target(nation=n, objective=o) for n, o in spec.get("targets", [])],
    )


def check_activate(card_id: str, check: dict[str, Any]) -> None:
    """Great Britain, having signed the Treaty, activates it with its Foreign Minister."""
    s = _three()
    give(s, "GB", card_id, "signed")
    for nation, objective, value in check.get("board", []):
        place(s, NATION[nation], objective, [value], face_up=True)
    if check["phase"] == "assignments":
        s.stage, s.queue, s.assign_step, s.assign_left = "assign", list(THREE), "down", 3
    else:
        for pile, c in CONGRESS_TOPS.items():
            top(s, pile, c)
        s.favours = dict.fromkeys(s.objectives, 99)
        s, _ = _congress(s)
        assert s.stage == "activate" and s.queue == ["GB"], f"{card_id} is offered in the Congress"
    for refused in check.get("refuse", []):
        with pytest.raises(IllegalAction, match=refused["match"]):
            act(s, "GB", _activation(card_id, refused))
    before = s.players["GB"]
    s, public = act(s, "GB", _activation(card_id, check))
    after = s.players["GB"]
    assert (after.prestige - before.prestige, after.receptions - before.receptions) == (
        check["prestige"],
        check["receptions"],
    ), f"{card_id}: Prestige and Receptions on activation"
    if "influence" in check:
        objective, total = check["influence"]
        assert influence(s, "GB", objective) == total
    awards = "\n".join(public).split("\n")
    for line in check.get("awards", []):
        assert any(a.startswith(line) for a in awards), f"{line!r} not in {awards}"


def check_setup(card_id: str, check: dict[str, Any]) -> None:
    """Where the Preparation puts the card, by number of players."""
    for players in check["players"]:
        for seed in range(3):
            s = GAME.setup([f"s{i}" for i in range(players)], GAME.Options(), seed)
            assert s.piles[check["pile"]][-1] == card_id, (players, seed)
    for players in check["boxed"]:
        s = GAME.setup([f"s{i}" for i in range(players)], GAME.Options(), 0)
        assert card_id in s.box and not any(card_id in pile for pile in s.piles.values())


RUNNERS = {
    "collect": check_collect,
    "end": check_end,
    "recovery": check_recovery,
    "activate": check_activate,
    "setup": check_setup,
}
