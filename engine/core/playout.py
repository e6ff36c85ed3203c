"""Whole games played by `bot_action`: for simulations, fuzzing and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .game import AnyGame
from .model import Event, GameState, Model, Outcome

__all__ = ["Playout", "play_out"]


@dataclass
class Playout:
    state: GameState
    outcome: Outcome | None
    actions: list[tuple[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def play_out(
    game: AnyGame,
    n_players: int,
    seed: int,
    options: Model | None = None,
    max_steps: int = 20_000,
    on_step: Callable[[GameState, str, Any, GameState, list[Event]], None] | None = None,
    policy: Callable[[GameState, str, random.Random], Any] | None = None,
    seat_policies: dict[str, Callable[[GameState, str, random.Random], Any]] | None = None,
) -> Playout:
    """Play one game to its end with automatic players at every seat.

    Seats are "s1".."sN". Prompts are answered in the order the game lists them; the
    bots' generator is seeded from `seed` so a playout is reproducible. `policy` replaces
    `game.bot_action` (a cheaper player for long fuzzing sweeps); `seat_policies` gives
    some seats a player of their own (a strength ladder: one strong player among basic ones).
    """
    choose = policy or game.bot_action
    seats = [f"s{i + 1}" for i in range(n_players)]
    state = game.setup(seats, options or game.Options(), seed)
    bots = random.Random(seed ^ 0x5EED)
    result = Playout(state, None)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            break
        prompts = game.prompts(state)
        if not prompts:
            raise AssertionError(f"{game.id}: no prompts but no outcome at step {state.step}")
        seat = prompts[0].seat
        chooser = seat_policies.get(seat, choose) if seat_policies else choose
        action = chooser(state, seat, bots)
        new, events = game.apply(state, seat, action)
        if on_step is not None:
            on_step(state, seat, action, new, events)
        result.actions.append((seat, action))
        result.events.extend(events)
        state = new
    else:
        raise AssertionError(f"{game.id}: no outcome after {max_steps} steps")
    result.state = state
    result.outcome = game.outcome(state)
    return result
