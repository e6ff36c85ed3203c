"""Schönbrunn's strong automatic player (engine/schonbrunn/strong.py): it decides
from its own seat's view only, its candidates are legal choices, its sketch of the rest of a
round scores the Congress and the end of the game as the rules do, and it beats the basic
player."""

from __future__ import annotations

import random

import pytest

from engine.core.fast import clone
from engine.core.players import players as named_players
from engine.core.playout import play_out
from engine.core.search import Search, Strength
from engine.schonbrunn import GAME, bots
from engine.schonbrunn import actions as A
from engine.schonbrunn.content import card
from engine.schonbrunn.phases.end import end_points
from engine.schonbrunn.sketch import Sketch
from engine.schonbrunn.worth import final_points

KNOWLEDGE = GAME.knowledge()


def _states(players: int, seed: int, every: int = 1):
    """The states of a game the basic players play, every `every`-th decision."""
    state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(), seed)
    rng = random.Random(seed)
    k = 0
    while GAME.outcome(state) is None:
        seat = GAME.prompts(state)[0].seat
        if k % every == 0:
            yield state, seat
        action = bots.bot_action(state, seat, rng)
        GAME.play(state, seat, action, rng)
        state.step += 1
        k += 1


def _at(players: int, seed: int, stage: str, seat: str | None = None, after: int = 0):
    """A copy of the first state of this stage (with `seat` to decide, and at least
    `after` Delegates on the board), in round 1 or later."""
    for state, owing in _states(players, seed):
        on_board = sum(1 for d in state.delegates if d.place in state.objectives)
        if state.stage == stage and (seat is None or owing == seat) and on_board >= after:
            if len(GAME.legal_actions(state, owing)) > 1:
                return clone(state), owing
    raise AssertionError(f"no {stage} state")


@pytest.mark.parametrize(
    ("players", "seed", "stage", "after"),
    [(4, 1, "commit", 0), (4, 2, "assign", 8), (6, 3, "assign", 20), (5, 4, "plot", 0), (6, 5, "minister", 0)],
)
def test_two_states_that_differ_only_in_what_the_seat_cannot_see_give_the_same_decision(players, seed, stage, after):
    state, seat = _at(players, seed, stage, after=after)
    if stage == "commit":  # the others' commits are made and hidden
        for other in state.seats[:-1]:
            if other != seat:
                state, _ = GAME.apply(state, other, bots.bot_action(state, other, random.Random(1)))
    other = GAME.vary_hidden(state, seat, random.Random(seed))
    other.seed = state.seed + 1  # the seed behind future shuffles is hidden too
    hidden = [(d.id, d.value) for d in state.delegates]
    assert hidden != [(d.id, d.value) for d in other.delegates] or stage == "minister"
    assert GAME.view(other, seat) == GAME.view(state, seat)
    search = Search(KNOWLEDGE, Strength(iterations=40))
    decisions = [search.decide(s, seat, random.Random(7)) for s in (state, other)]
    assert decisions[0] == decisions[1]


def test_a_determinization_reads_only_the_seats_view_and_deals_the_rest_afresh():
    state, seat = _at(6, 6, "assign", after=24)
    other = GAME.vary_hidden(state, seat, random.Random(2))
    other.seed = state.seed + 7
    one, two = (KNOWLEDGE.determinize(s, seat, random.Random(3)) for s in (state, other))
    assert one == two
    # the hidden values were dealt again: some opposing face-down Delegate changed its value
    before = {d.id: d.value for d in state.delegates}
    changed = [d for d in one.delegates if d.value != before[d.id]]
    assert changed and all(not d.face_up and not d.known for d in changed)
    # what the seat sees stays: its supply, every face-up piece, the Reparations on top
    assert GAME.view(one, seat) == GAME.view(state, seat)
    # each pile keeps its cards' types (printed on the backs)
    for o, pile in state.piles.items():
        assert [card(c).type for c in one.piles[o]] == [card(c).type for c in pile]


def test_the_candidates_are_legal_choices():
    for players, seed in ((3, 7), (6, 8)):
        for state, seat in _states(players, seed, every=3):
            legal = GAME.legal_actions(state, seat)
            listed = {repr(a) for a in legal}
            options = KNOWLEDGE.candidates(KNOWLEDGE.determinize(state, seat, random.Random(1)), seat)
            assert options, (state.stage, seat)
            for option in options:
                if isinstance(option, A.Activate):  # the '-1' targets' order does not matter
                    assert any(
                        isinstance(a, A.Activate)
                        and (a.treaty, a.pay, a.objective) == (option.treaty, option.pay, option.objective)
                        and sorted(map(repr, a.targets)) == sorted(map(repr, option.targets))
                        for a in legal
                    ), option
                else:
                    assert repr(option) in listed, (state.stage, option)


def test_the_sketch_scores_the_end_of_the_game_as_the_rules_do():
    for players, seed in ((3, 9), (5, 10), (6, 11)):
        for state, _ in _states(players, seed):
            last = state
        for seat in last.seats:
            p = last.players[seat]
            allies_under = sum(1 for c in p.under if card(c).type == "ally")
            assert final_points([*p.screen, *p.signed], allies_under, p.receptions) == end_points(last, seat)[0]


def test_the_sketch_resolves_the_congress_as_the_rules_do():
    """From the last Foreign Minister's choice of a round without Congress Treaties, the
    sketch's Congress gives every seat the Prestige, Receptions and cards the engine does."""
    checked = 0
    for players, seed in ((4, 12), (6, 13), (5, 14), (3, 16), (4, 17), (6, 18)):
        for state, seat in _states(players, seed):
            if state.stage != "minister" or state.queue != [seat]:
                continue
            if any(card(t).timing == "congress" for p in state.players.values() for t in p.signed):
                continue
            action = bots.bot_action(state, seat, random.Random(1))
            after, _ = GAME.apply(state, seat, action)
            sk = Sketch(state, random.Random(1))
            i = sk.idx[seat]
            if action.objective is not None:
                sk.minister[i] = sk.objs.index(action.objective)
                sk.extra(i, sk.minister[i], 2)
            sk.congress()
            if after.stage == "over":
                assert [round(x) for x in sk.scores()] == [after.players[s].prestige for s in state.seats]
            else:
                assert sk.P == [after.players[s].prestige for s in state.seats]
                assert sk.R == [after.players[s].receptions for s in state.seats]
                for s, held in zip(state.seats, sk.held, strict=True):
                    # every card the seat has anywhere (Recovery may have moved some under)
                    p = after.players[s]
                    assert sorted([*held, *state.players[s].under]) == sorted([*p.screen, *p.signed, *p.under])
            checked += 1
    assert checked >= 6


def test_every_exploit_of_the_review_is_a_named_player():
    named = named_players(GAME)
    assert {"quick", "strong", "deep", "defaults", "basic"} <= set(named)
    assert {f"all_in_{o}" for o in ("I", "II", "III", "IIII", "V")} <= set(named)
    # the all-in puts every Delegate into its Objective
    state, seat = _at(4, 15, "assign")
    for _ in range(6):
        if state.stage != "assign" or state.queue[0] != seat:
            break
        action = named["all_in_II"](state, seat, random.Random(1))
        assert getattr(action, "objective", None) == "II" or getattr(action, "target", "II") in ("II", None)
        state, _ = GAME.apply(state, seat, action)


@pytest.mark.bench
def test_one_strong_player_among_basic_ones_outscores_them():
    """Quick strength, a few games, the searching seat turned each game: its Prestige is
    well above the basic players' (a broken search or sketch plays no better than they do;
    docs/balance/schonbrunn.md has the ladder over many games)."""
    quick, basic = named_players(GAME)["quick"], named_players(GAME)["basic"]
    margins = []
    for index in range(8):
        seats = [f"s{i + 1}" for i in range(3)]
        strong = seats[index % 3]
        policies = {s: (quick if s == strong else basic) for s in seats}
        final = play_out(GAME, 3, 100 + index, seat_policies=policies).state.players
        others = [final[s].prestige for s in seats if s != strong]
        margins.append(final[strong].prestige - sum(others) / len(others))
    assert sum(margins) / len(margins) >= 3, margins
