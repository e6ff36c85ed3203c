"""A seeded game's state after K actions, for `python -m bot render`, the README's
pictures, the golden images and the benchmark (docs/architecture.md §6).

The automatic players play as in `engine.core.playout.play_out` (the same generator), so
`--seed S --step K` names one state for good.
"""

from __future__ import annotations

import random

from engine.core import Game, GameState


def sample_state(game: Game, players: int, seed: int, step: int | None = None) -> GameState:
    """The state after `step` actions of the automatic players' game (None: the end)."""
    seats = [f"s{i + 1}" for i in range(players)]
    state = game.setup(seats, game.Options(), seed)
    bots = random.Random(seed ^ 0x5EED)
    while game.outcome(state) is None and (step is None or state.step < step):
        seat = game.prompts(state)[0].seat
        state, _ = game.apply(state, seat, game.bot_action(state, seat, bots))
    return state


def every_state(game: Game, players: int, seed: int) -> list[GameState]:
    """Every state of one whole game, from setup to the end."""
    seats = [f"s{i + 1}" for i in range(players)]
    state = game.setup(seats, game.Options(), seed)
    bots = random.Random(seed ^ 0x5EED)
    states = [state]
    while game.outcome(state) is None:
        seat = game.prompts(state)[0].seat
        state, _ = game.apply(state, seat, game.bot_action(state, seat, bots))
        states.append(state)
    return states


def public_view(game: Game, state: GameState) -> object:
    return game.view(state, None)
