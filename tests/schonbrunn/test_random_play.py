"""Random legal play: whole games by the bots, for every player count and variant, with the
invariants checked after every action (at least 500 games per count and variant).

The 500-game sweeps drive `play` on one state in place, skipping the core's per-action copy
and seeding (two thirds of the time of a game); the harness tests below go through `apply`,
JSON round-trips and replays on fewer games.
"""

from __future__ import annotations

import random

import pytest

from engine.schonbrunn import GAME
from tests.harness import check_hidden_information, check_random_play

pytestmark = pytest.mark.whole_game

VARIANTS = {
    "standard": {},
    "simplified": {"simplified": True},
    "auction": {"auction": True},
}
GAMES = 500


def _whole_game(players: int, options, seed: int) -> None:
    state = GAME.setup([f"s{i + 1}" for i in range(players)], options, seed)
    bots, rng = random.Random(seed), random.Random(~seed)
    for step in range(2000):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.prompts(state)[0].seat
        action = GAME.bot_action(state, seat, bots)
        GAME.play(state, seat, action, rng)
        broken = GAME.invariants(state)
        assert not broken, f"seed {seed} step {step} after {seat} {action}: {broken}"
    outcome = GAME.outcome(state)
    assert outcome is not None and state.round == state.rounds == {3: 4, 4: 4, 5: 4, 6: 5}[players]
    assert sorted(s.seat for s in outcome.standings) == sorted(state.seats)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_whole_games_keep_the_invariants(variant, players):
    options = GAME.Options(**VARIANTS[variant])
    for seed in range(GAMES):
        _whole_game(players, options, seed)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("variant", [*VARIANTS, "see_own"])
def test_random_play_harness(variant, players):
    """JSON round-trip, replay from the log, invariants: the platform harness."""
    options = GAME.Options(**VARIANTS.get(variant, {"see_own_face_down": True}))
    for seed in range(3):
        check_random_play(GAME, players, seed, options)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("variant", [*VARIANTS, "see_own"])
def test_hidden_information(variant, players):
    """Supplies, face-down Delegates, pile contents, face-down Favours and auction bids never
    reach a view or an event that may not see them."""
    options = GAME.Options(**VARIANTS.get(variant, {"see_own_face_down": True}))
    for seed in range(4):
        assert check_hidden_information(GAME, players, seed, options, samples=10) > 0
