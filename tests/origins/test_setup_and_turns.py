"""§1 players and countries, §5 set-up, §6 the turn track, Phase 1, Phase 2 and Phase 6."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.core.playout import play_out
from engine.origins import GAME, content
from engine.origins.rules import begin_turn, end_turn

from .helpers import Dice, finish_bidding, new_game, submit_all, to_attacks


@pytest.mark.parametrize("players", range(2, 8))
def test_every_player_gets_one_group_of_the_table(players):
    state = new_game(players)
    groups = sorted(sorted(state.countries_of(s)) for s in state.seats)
    assert groups == sorted(sorted(g) for g in content.assignment(players).groups)


def test_assignment_is_random():
    """§1: 'Assign randomly the countries for each player.'"""
    dealt = {tuple(new_game(5, seed).holders.items()) for seed in range(12)}
    assert len(dealt) > 3


def test_countries_nobody_holds_are_only_embassies():
    """In a 4-player game Italy is not held: no card, no income, no PFs, but an embassy."""
    state = new_game(4)
    assert "ITA" not in state.holders and "ITA" not in state.order
    assert "ITA" not in state.unplaced
    assert "ITA" in content.embassies()


def test_too_few_or_too_many_players():
    with pytest.raises(IllegalAction):
        GAME.setup(["a"], GAME.Options(), 1)
    with pytest.raises(IllegalAction):
        GAME.setup([f"s{i}" for i in range(8)], GAME.Options(), 1)


def test_the_game_starts_in_october_1913_with_this_turns_income():
    """§5 and Phase 1: the turn marker on October 1913; income Germany 16, UK 14, France 12."""
    state = new_game(5)
    assert content.board().turns[state.turn].label == "October 1913"
    assert state.unplaced == {"UK": 14, "FRA": 12, "GER": 16, "RUS": 10, "AH": 10}
    assert state.pfs == {}
    assert state.phase == "bidding"


def _end_of_attacks(turn: int, last: bool = False):
    state = new_game(5)
    state.turn = turn
    state.last_turn = last
    return to_attacks(state, state.order[0])


@pytest.mark.parametrize(
    ("turn", "die", "last"),
    [(9, 1, True), (9, 2, True), (9, 3, False), (10, 4, True), (10, 5, False), (10, 6, False)],
)
def test_game_end_roll(turn, die, last):
    """Phase 2: July 1914 ends on 1 or 2, August 1914 on 1-4."""
    state = new_game(5)
    state.turn = turn
    begin_turn(state, Dice(die))
    assert state.end_roll == die
    assert state.last_turn is last


def test_september_1914_is_always_the_last_turn_without_a_roll():
    state = new_game(5)
    state.turn = 11
    begin_turn(state, Dice())  # no face scripted: a roll would fail
    assert state.last_turn and state.end_roll is None


def test_no_end_roll_before_july():
    for turn in range(9):
        state = new_game(5)
        state.turn = turn
        begin_turn(state, Dice())
        assert not state.last_turn and state.end_roll is None


@pytest.mark.parametrize("turn", range(12))
def test_phase_6_only_in_january_march_may_and_july(turn):
    state = _end_of_attacks(turn, last=turn == 11)  # September is always the last turn
    state.attacker = len(state.order)
    end_turn(state, Dice(6))
    label = content.board().turns[turn].label
    scoring_month = label in ("January 1914", "March 1914", "May 1914", "July 1914")
    assert (state.phase == "diplomacy") == scoring_month


def test_diplomacy_opens_a_thread_with_its_own_deadline_and_every_ready_ends_it():
    """Phase 6: provisional VPs, then diplomacy; `ready` from everyone ends it early."""
    state = _end_of_attacks(3)
    events = end_turn(state, Dice())
    assert events[-1].kind == "provisional"
    prompts = GAME.prompts(state)
    assert {p.seat for p in prompts} == set(state.seats)
    assert all(p.thread == "Diplomacy January 1914" for p in prompts)
    assert all(p.deadline_setting == "diplomacy_minutes" for p in prompts)
    for seat in state.seats[:-1]:
        state, _ = GAME.apply(state, seat, {"kind": "ready"})
        assert state.phase == "diplomacy"
    state, _ = GAME.apply(state, state.seats[-1], {"kind": "ready"})
    assert state.phase == "bidding"
    assert content.board().turns[state.turn].label == "February 1914"


def test_the_last_turn_ends_with_final_scoring_not_diplomacy():
    state = _end_of_attacks(9, last=True)
    end_turn(state, Dice())
    assert state.phase == "over" and state.final is not None
    assert GAME.prompts(state) == []
    assert GAME.outcome(state) is not None


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", range(30))
def test_games_end_between_july_and_september_1914(seed):
    result = play_out(GAME, 3, seed)
    assert 9 <= result.state.turn <= 11


def test_one_player_with_several_countries_acts_for_each_separately():
    """A 2-player game: three countries each, each with its own sheet and own PFs."""
    state = finish_bidding(new_game(2))
    seat = state.holders["UK"]
    mine = state.countries_of(seat)
    assert len(mine) == 3
    state, _ = submit_all(state, {c: {"place": {"SER": 5}} for c in mine})
    assert all(state.at("SER", c) == 5 for c in mine)
