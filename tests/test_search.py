"""The strong automatic player's search (engine/core/search.py) on the tiny test game:
it finds the better choice, it beats the basic player, and it decides from its own view
only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.tools.simulate import seat_players, simulate
from engine.core.players import player, players
from engine.core.search import STRENGTHS, Knowledge, Search, Strength
from tests.tinygame import Commit, Envoys, EnvoyState, Press, Ready, Yield


class EnvoysKnowledge(Knowledge[EnvoyState]):
    horizon = 100  # the whole game: three rounds

    def determinize(self, state: EnvoyState, seat: str, rng: random.Random) -> EnvoyState:
        d = state.model_copy(deep=True)
        d.seed = rng.getrandbits(63)
        for other in sorted(d.commits):  # a fixed order: what the seat cannot see is drawn afresh
            if other != seat:
                d.commits[other] = rng.randint(1, 3)
        return d

    def evaluate(self, state: EnvoyState) -> dict[str, float]:
        best = max(state.scores.values())
        top = [s for s, p in state.scores.items() if p == best]
        return {s: (1 / len(top) if s in top else 0.0) for s in state.seats}


class SearchingEnvoys(Envoys):
    def legal_actions(self, state: EnvoyState, seat: str) -> list[Any]:
        if state.phase == "commit":
            return [Commit(value=v) for v in (1, 2, 3)]
        if state.phase == "press":
            return [Press(), Yield()]
        return [Ready()]

    def knowledge(self) -> Knowledge[EnvoyState]:
        return EnvoysKnowledge(self)

    def test_players(self) -> dict[str, Any]:
        return {"always_one": lambda state, seat, rng: self.default_action(state, seat)}


GAME = SearchingEnvoys()


def _at_press(seed: int) -> EnvoyState:
    state = GAME.setup(["s1", "s2", "s3"], GAME.Options(), seed)
    for seat in state.seats:
        state, _ = GAME.apply(state, seat, Commit(value=1))
    assert state.phase == "press"
    return state


def test_the_search_presses_for_the_point_it_cannot_lose():
    state = _at_press(5)
    search = Search(GAME.knowledge(), STRENGTHS["quick"])
    for stream in range(5):
        assert isinstance(search.decide(state, "s1", random.Random(stream)), Press)


def test_two_states_that_differ_only_in_what_the_seat_cannot_see_give_the_same_decision():
    state = GAME.setup(["s1", "s2", "s3"], GAME.Options(), 9)
    state, _ = GAME.apply(state, "s2", Commit(value=3))
    state, _ = GAME.apply(state, "s3", Commit(value=2))
    other = GAME.vary_hidden(state, "s1", random.Random(1))
    other.seed = state.seed + 1  # the seed behind future dice is hidden too
    other.commits = {"s2": 1, "s3": 1}
    assert other.commits != state.commits and GAME.view(other, "s1") == GAME.view(state, "s1")
    search = Search(GAME.knowledge(), Strength(iterations=60))
    decisions = [search.decide(s, "s1", random.Random(7)) for s in (state, other)]
    assert decisions[0] == decisions[1]


def test_a_determinization_reads_only_the_seats_view():
    state = GAME.setup(["s1", "s2", "s3"], GAME.Options(), 9)
    state, _ = GAME.apply(state, "s2", Commit(value=3))
    other = state.model_copy(deep=True)
    other.commits["s2"] = 1
    other.seed += 1
    k = GAME.knowledge()
    assert k.determinize(state, "s1", random.Random(3)) == k.determinize(other, "s1", random.Random(3))


@pytest.mark.bench
def test_one_strong_player_among_basic_ones_wins_more_than_its_fair_share():
    result = simulate(GAME, 3, games=90, seed=3, lineup=("quick", "basic"))
    rate, low, _ = result.player_rates()["quick"]
    assert low > 1 / 3, result.text()  # the basic player commits and presses at random
    assert result.player_seats == {"quick": 90, "basic": 180}


def test_the_lineup_turns_one_seat_each_game():
    assert [seat_players(("strong", "basic"), 3, i) for i in range(4)] == [
        ["strong", "basic", "basic"],
        ["basic", "strong", "basic"],
        ["basic", "basic", "strong"],
        ["strong", "basic", "basic"],
    ]


def test_players_are_named_and_an_unknown_name_is_refused_with_the_list():
    assert {"basic", "defaults", "random", "quick", "strong", "deep", "always_one"} <= set(players(GAME))
    with pytest.raises(ValueError, match="has no automatic player 'grandmaster'; it has always_one, basic"):
        player(GAME, "grandmaster")
    with pytest.raises(ValueError, match="grandmaster"):
        simulate(GAME, 2, games=1, seed=1, lineup=("grandmaster",))


@pytest.mark.slow
def test_equal_actions_share_one_key_in_the_tree_and_a_frozen_one_is_its_own():
    from pydantic import ConfigDict

    from engine.core import Model

    class Frozen(Model):
        model_config = ConfigDict(frozen=True, extra="forbid")
        value: int

    k = GAME.knowledge()
    assert k.key(Commit(value=2)) == k.key(Commit(value=2)) != k.key(Commit(value=3))
    assert k.key(Frozen(value=2)) is not None and k.key(Frozen(value=2)) == Frozen(value=2)
