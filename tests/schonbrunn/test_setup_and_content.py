"""Content with provenance, and the Preparation by number of players."""

from __future__ import annotations

import pytest

from engine import games
from engine.schonbrunn import GAME
from engine.schonbrunn.content import card, cards, nations, tables


def test_registered_under_both_names():
    assert games.get("schonbrunn") is GAME and games.get("Schönbrunn") is GAME


def test_the_box_contents():
    """Contents of the Box: 36 Reparations (8 Indemnities, 8 Allies, 8 Aids, 12 Treaties),
    43 Delegates, 5 Political Favours."""
    kinds = [c.type for c in cards().values()]
    assert {k: kinds.count(k) for k in set(kinds)} == {"indemnity": 8, "ally": 8, "aid": 8, "treaty": 12}
    assert sum(len(n.delegates) for n in nations().values()) == 43
    assert len(nations()["GB"].delegates) == 8
    assert tables().favours.values is not None and len(tables().favours.values) == 5


def test_every_entry_carries_provenance():
    entries = GAME.provenance()
    assert len(entries) == 6 + 36 + 6
    for e in entries:
        assert e["kind"] in ("rulebook", "public", "reconstructed") and e["source"]
        if e["kind"] == "reconstructed":
            assert e["note"], e["entry"]


def test_content_agrees_with_the_examples():
    """Facts the worked examples fix: the Spanish 7; Favours 0, 1 and 3; Treaty priorities 7 and 8;
    Annexation of Territories worth 5; Donation and Corruption share a symbol; Naval Blockade and
    Financial Loan differ."""
    assert 7 in nations()["ESP"].delegates
    assert {0, 1, 3} <= set(tables().favours.values or [])
    assert card("union_of_genoa_with_sardinia").priority == 7
    assert card("restoration_of_the_swiss_confederation").priority == 8
    assert card("annexation_of_territories").prestige == 5
    assert card("donation").symbol == card("corruption").symbol
    assert card("naval_blockade").symbol != card("financial_loan").symbol
    assert nations()["AUT"].head_power == "free_screen" and nations()["RUS"].head_power == "plot_shield"
    priorities = [c.priority for c in cards().values() if c.type == "treaty"]
    assert len(set(priorities)) == len(priorities)


@pytest.mark.parametrize(
    ("players", "nations_", "piles", "size", "rounds"),
    [
        (3, {"GB", "AUT", "RUS"}, ["I", "II", "III", "IIII", "PoB"], 4, 4),
        (4, {"GB", "AUT", "RUS", "PRU"}, ["I", "II", "III", "IIII", "PoB"], 4, 4),
        (5, {"GB", "AUT", "RUS", "PRU", "FRA"}, ["I", "II", "III", "IIII", "V", "PoB"], 4, 4),
        (6, {"GB", "AUT", "RUS", "PRU", "FRA", "ESP"}, ["I", "II", "III", "IIII", "V", "PoB"], 5, 5),
    ],
)
def test_preparation_by_number_of_players(players, nations_, piles, size, rounds):
    """Setup: the nations by player count; "5 piles of 4 cards" (3-4), "6 piles of 4" (5),
    "6 piles of 5" (6); the Principle of Balance stacked Treaty on top, Indemnity at the bottom;
    the Ally Poland at the bottom of Objective V with 5-6 players."""
    for seed in range(5):
        s = GAME.setup([f"s{i}" for i in range(players)], GAME.Options(), seed)
        assert {p.nation for p in s.players.values()} == nations_
        assert list(s.piles) == piles and all(len(p) == size for p in s.piles.values())
        assert s.rounds == rounds
        pob = [card(c).type for c in s.piles["PoB"]]
        expected = ["treaty", "aid", "ally", "indemnity"] + (["indemnity"] if players == 6 else [])
        assert pob == expected
        for o, kind in zip(["I", "II", "III", "IIII"], ["indemnity", "ally", "aid", "treaty"], strict=True):
            assert all(card(c).type == kind for c in s.piles[o])
        if players >= 5:
            assert s.piles["V"][-1] == "poland"
            legit = {card(c).type for c in s.piles["V"][:-1]}
            assert legit == (
                {"indemnity", "aid", "treaty"} if players == 5 else {"indemnity", "ally", "aid", "treaty"}
            )
        used = [c for p in s.piles.values() for c in p]
        assert all(card(c).min_players <= players for c in used)


def test_a_table_option_lets_owners_see_their_own_face_down_delegates():
    """Phase 2: "no player may touch or look at Delegates already assigned to Objectives, not
    even their own" is the default; `see_own_face_down` relaxes it."""
    for see in (False, True):
        s = GAME.setup(["a", "b", "c"], GAME.Options(see_own_face_down=see), 3)
        while s.stage != "plot":
            seat = GAME.prompts(s)[0].seat
            s, _ = GAME.apply(s, seat, GAME.default_action(s, seat))
        me = GAME.view(s, "a").me
        assert me is not None and (me.face_down is not None) is see
        if see:
            assert me.face_down is not None
            assert len(me.face_down) == 3 and "Your face-down" in GAME.describe(GAME.view(s, "a"))
        public = GAME.view(s, None)
        assert public.me is None and all(p.receptions is None for p in public.players.values())
        assert "me" not in GAME.view_dict(public)


def test_round_label_names_the_round_for_round_threads():
    from engine import games
    from engine.core.playout import play_out

    game = games.get("schonbrunn")
    seen: set[str | None] = set()
    play_out(game, 4, seed=3, on_step=lambda b, s, a, n, e: seen.add(game.round_label(n)))
    assert {"Round 1", "Round 2", "Round 3", "Round 4"} <= seen
    assert "Round 5" not in seen  # 4 rounds with 4 players


def test_russia_starts_with_two_receptions_more_except_in_the_simplified_rules():
    """The Tsar's court (a designed ability, nations.toml): 7 Receptions against everyone
    else's 5; the simplified rules have no Receptions at all."""
    seats = ["a", "b", "c"]
    s = GAME.setup(seats, GAME.Options(), seed=3)
    start = {nations()[p.nation].name: p.receptions for p in s.players.values()}
    assert start == {"Great Britain": 5, "Austria": 5, "Russia": 7}
    plain = GAME.setup(seats, GAME.Options(simplified=True), seed=3)
    assert all(p.receptions == 0 for p in plain.players.values())


def test_the_help_names_each_objective_with_the_boards_own_numeral():
    """The board prints IIII for Treaties, so the help's examples do too (IV is still accepted)."""
    import re

    from engine.schonbrunn.content import OBJECTIVES
    from engine.schonbrunn.texts import HOW_TO

    typed = re.findall(r"(?:to|objective|target):([IV]+)\b", HOW_TO)
    assert typed and all(o in OBJECTIVES for o in typed), typed
