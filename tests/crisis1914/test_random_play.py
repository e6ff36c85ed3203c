"""Random legal play of whole games, with the invariants checked at every step, and the
hidden-information check (Hands and Draw Piles)."""

from __future__ import annotations

import random

import pytest

from engine.crisis1914 import GAME
from tests.harness import check_hidden_information, check_random_play

pytestmark = pytest.mark.whole_game

PLAYER_COUNTS = [1, 2, 3, 4, 5]
WHOLE_GAMES = 500  # per player count


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_round_trips_and_replays(players, seed):
    final = check_random_play(GAME, players, seed)
    assert GAME.outcome(final) is not None


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_hidden_information(players, seed):
    assert check_hidden_information(GAME, players, seed) > 0


def _whole_game(players: int, seed: int) -> None:
    """One game played in place by the automatic players (the core's per-action copy and
    seeding are skipped for speed; check_random_play covers them), invariants at every step."""
    state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(), seed)
    bots = random.Random(seed)
    steps = 0
    while GAME.outcome(state) is None:
        prompts = GAME.prompts(state)
        assert prompts, f"no prompt and no outcome (players {players}, seed {seed})"
        seat = prompts[0].seat
        action = GAME.bot_action(state, seat, bots)
        GAME.play(state, seat, action, bots)
        state.step += 1
        steps += 1
        broken = GAME.invariants(state)
        assert not broken, f"players {players}, seed {seed}, step {steps}, {action}: {broken}"
        assert steps < 5000
    outcome = GAME.outcome(state)
    for p in state.players.values():
        if p.lost is not None:
            assert p.prestige == 0
            assert all(s.rank != 1 for s in outcome.standings if s.seat == p.seat)


CHUNK = 100  # games per test case, so that `pytest -n 2` can share them between the cores


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("first", range(0, WHOLE_GAMES, CHUNK))
def test_whole_random_games(players, first):
    for seed in range(first, first + CHUNK):
        _whole_game(players, 1000 + seed)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_legal_actions_are_accepted(players):
    """Any action `legal_actions` lists (what buttons offer) is accepted, in any order of
    prompts, and keeps the invariants; bots fill in where nothing is listed."""
    for seed in range(6):
        pick = random.Random(seed * 7 + players)
        state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(congress=seed % 3 != 0), seed)
        steps = 0
        while GAME.outcome(state) is None:
            prompt = pick.choice(GAME.prompts(state))
            legal = GAME.legal_actions(state, prompt.seat)
            action = (
                pick.choice(legal)
                if legal and pick.random() < 0.7
                else GAME.bot_action(state, prompt.seat, pick)
            )
            state, _ = GAME.apply(state, prompt.seat, action)
            assert not GAME.invariants(state), (players, seed, action)
            steps += 1
            assert steps < 3000
