"""Phase 5 and §7: diplomatic attacks, the odds, AE / DE / EX, and §8 treaty rights."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.origins import GAME, attacks, content, rules

from .helpers import Dice, new_game, position, to_attacks

ORDER = ["GER", "UK", "FRA", "RUS", "AH"]


@pytest.mark.parametrize(
    ("attacker", "defender", "column"),
    [
        (1, 3, "<1:2"), (4, 9, "<1:2"),
        (1, 2, "1:2"), (5, 10, "1:2"), (3, 5, "1:2"),  # 0.6 is short of 2:3
        (2, 3, "2:3"), (6, 9, "2:3"), (9, 10, "2:3"),  # 0.9 is short of 1:1
        (1, 1, "1:1"), (7, 7, "1:1"), (14, 10, "1:1"),  # 1.4 is short of 3:2
        (3, 2, "3:2"), (15, 10, "3:2"), (19, 10, "3:2"),
        (2, 1, "2:1"), (20, 10, "2:1"), (29, 10, "2:1"),
        (3, 1, "3:1"), (30, 10, "3:1"), (39, 10, "3:1"),
        (4, 1, "4:1"), (40, 10, "4:1"), (49, 10, "4:1"),
        (5, 1, "5:1 or more"), (50, 10, "5:1 or more"), (40, 1, "5:1 or more"),
    ],
)  # fmt: skip
def test_odds_round_in_the_defenders_favour_at_every_column_edge(attacker, defender, column):
    """§7: 'If ... the result is a fraction, it is rounded out in favor of the defender.'"""
    labels = [c.label for c in content.attack_table().columns]
    assert labels[attacks.column(attacker, defender)] == column


@pytest.mark.parametrize(
    ("result", "attacker", "defender", "lost"),
    [
        ("AE", 4, 9, (4, 0)),
        ("DE", 4, 9, (0, 9)),
        ("EX", 3, 12, (3, 3)),  # the side with fewer PFs removes them all, the other as many
        ("EX", 12, 3, (3, 3)),
        ("EX", 5, 5, (5, 5)),
    ],
)
def test_results_ae_de_ex(result, attacker, defender, lost):
    assert attacks.losses(result, attacker, defender) == lost


def _game(pfs, attacker="GER", last=False):
    state = new_game(5, 1)
    state.last_turn = last
    position(state, pfs)
    return to_attacks(state, attacker, list(ORDER))


def _attack(state, embassy, split, *faces):
    seat = state.holders[state.order[state.attacker]]
    state = state.model_copy(deep=True)
    events = rules.play(
        state, seat, GAME.parse_action({"kind": "attack", "embassy": embassy, "split": split}), Dice(*faces)
    )
    return state, events


def test_exchange_costs_the_defender_its_treaty_rights():
    """§7 EX and §8: 3 PFs attack 12 at <1:2; an exchange removes 3 from each side, and
    the defender, down to 9, no longer has treaty rights."""
    state = _game({"SER": {"GER": 3, "RUS": 12}})
    assert state.treaties == {"SER": ["RUS"]}
    state, events = _attack(state, "SER", {"RUS": 3}, 4, 4)
    assert events[0].data["column"] == "<1:2" and events[0].data["result"] == "EX"
    assert "rolls 4+4=8" in events[0].text
    assert state.at("SER", "GER") == 0 and state.at("SER", "RUS") == 9
    assert state.treaties == {}
    assert GAME.invariants(state) == []


def test_attacker_eliminated_and_defender_eliminated():
    state = _game({"SER": {"GER": 10, "RUS": 10}})
    after, _ = _attack(state, "SER", {"RUS": 10}, 1, 1)  # 2 at 1:1: AE
    assert after.at("SER", "GER") == 0 and after.at("SER", "RUS") == 10
    after, _ = _attack(state, "SER", {"RUS": 10}, 6, 6)  # 12 at 1:1: DE
    assert after.at("SER", "GER") == 10 and after.at("SER", "RUS") == 0


def test_both_must_have_pfs_in_the_embassy():
    state = _game({"SER": {"GER": 5}, "ROM": {"RUS": 5}})
    with pytest.raises(IllegalAction, match="Russia has no PFs in Serbia"):
        _attack(state, "SER", {"RUS": 5})
    with pytest.raises(IllegalAction, match="Germany has no PFs in Romania"):
        _attack(state, "ROM", {"RUS": 5})


def test_the_attacker_commits_all_its_pfs_in_the_embassy_split_between_different_countries():
    state = _game({"SER": {"GER": 9, "RUS": 6, "AH": 2}})
    with pytest.raises(IllegalAction, match="commits all 9"):
        _attack(state, "SER", {"RUS": 6})
    with pytest.raises(IllegalAction, match="at least 1 PF"):
        _attack(state, "SER", {"RUS": 9, "AH": 0})
    state, events = _attack(state, "SER", {"RUS": 6, "AH": 3}, 6, 6, 6, 6)
    # each attack is fought with its share against all the defender's PFs there
    fought = [(e.data["committed"], e.data["defending"]) for e in events if e.kind == "attack"]
    assert fought == [(6, 6), (3, 2)]
    assert state.at("SER", "RUS") == 0 and state.at("SER", "AH") == 0
    assert state.turn == 1  # both attacks used and nobody else can attack: the turn is over


def test_several_attacks_in_one_embassy_are_declared_together_once_a_turn():
    state = _game({"SER": {"GER": 9, "RUS": 6}, "ROM": {"GER": 6, "AH": 2}, "BUL": {"GER": 1, "UK": 1}})
    state, _ = _attack(state, "SER", {"RUS": 9}, 3, 3)  # 6 at 3:2: EX, 6 each
    assert state.at("SER", "GER") == 3
    with pytest.raises(IllegalAction, match="already attacked in Serbia"):
        _attack(state, "SER", {"UK": 3})


def test_two_attacks_a_turn_three_in_the_last():
    pfs = {"SER": {"GER": 9, "RUS": 6}, "ROM": {"GER": 6, "AH": 2}, "BUL": {"GER": 1, "UK": 1}}
    state = _game(pfs)
    state, _ = _attack(state, "SER", {"RUS": 9}, 3, 3)
    state, events = _attack(state, "ROM", {"AH": 6}, 3, 3)
    # two attacks made: Germany's turn is over, the next card with an attack moves
    assert state.order[state.attacker] != "GER"
    last = _game(pfs, last=True)
    last, _ = _attack(last, "SER", {"RUS": 9}, 3, 3)
    last, _ = _attack(last, "ROM", {"AH": 6}, 3, 3)
    assert last.order[last.attacker] == "GER"
    with pytest.raises(IllegalAction, match="1 attack"):
        _attack(last, "BUL", {"UK": 1, "RUS": 0})
    last, _ = _attack(last, "BUL", {"UK": 1}, 6, 6)
    assert last.phase == "over"  # nobody else can attack: the last turn ends


def test_attacks_go_in_card_order_and_skip_countries_that_cannot_attack():
    state = _game({"SER": {"GER": 5, "AH": 5}, "FE": {"UK": 3}})
    assert [p.seat for p in GAME.prompts(state)] == [state.holders["GER"]]
    state, _ = GAME.apply(state, state.holders["GER"], {"kind": "done"})
    # UK (second card) has no common embassy with anyone; FRA and RUS have no PFs: AH is next
    assert state.order[state.attacker] == "AH"
    assert GAME.prompts(state)[0].text.startswith("Austria-Hungary")


def test_an_attack_in_the_defenders_own_embassy_is_allowed():
    """§7: the common embassy 'may be the same as either of the nations in conflict'."""
    state = _game({"RUS": {"GER": 10, "RUS": 3}})
    state, events = _attack(state, "RUS", {"RUS": 10}, 6, 6)
    assert events[0].data["result"] == "DE" and state.at("RUS", "RUS") == 0


def test_treaty_rights_need_ten_pfs_in_another_nations_embassy():
    """§8: ten or more PFs in another nation's embassy; never in one's own."""
    state = _game({"SER": {"GER": 10, "RUS": 9}, "GER": {"GER": 15}, "FE": {"UK": 12, "FRA": 10}})
    assert state.treaties == {"SER": ["GER"], "FE": ["FRA", "UK"]}


def test_the_same_defender_twice_in_one_embassy_is_refused():
    state = _game({"SER": {"GER": 9, "RUS": 6}})
    with pytest.raises(IllegalAction, match="named twice"):
        _attack(state, "SER", {"RUS": 4, "Russia": 5})


def test_a_country_attacks_only_another_players_country_and_is_skipped_if_none_is_there():
    """§7: 'the two players involved must have PF's in a common nation Embassy' (rulings 20a).
    With 3 players s3 holds GER and AH: they share Serbia with nobody else."""
    state = new_game(3, 1)
    position(state, {"SER": {"GER": 5, "AH": 5}, "FE": {"AH": 2, "RUS": 3}})
    state = to_attacks(state, "UK", ["UK", "GER", "AH", "RUS", "FRA", "ITA"])
    assert state.holders["GER"] == state.holders["AH"] == "s3"
    assert attacks.targets(state, "GER", "SER") == [] and attacks.attack_embassies(state, "GER") == []
    with pytest.raises(IllegalAction, match="same player's"):
        attacks.check(state, "AH", "SER", {"GER": 5})
    state = to_attacks(state, "UK", ["UK", "GER", "AH", "RUS", "FRA", "ITA"])
    events = rules._next_attacker(state, Dice())  # UK has no PFs: move down the cards
    # GER is skipped and said so in one public line; AH may attack Russia in the Far East
    assert [e.text for e in events if e.kind == "no_attack"] == [
        "Germany shares embassies only with its own player's countries: no attack this turn."
    ]
    assert state.order[state.attacker] == "AH" and attacks.attack_embassies(state, "AH") == ["FE"]
