"""Harnesses every game plugs into.

`check_random_play` plays whole games through `bot_action` and checks at every step that
the step left the state it was given unchanged, that the state round-trips through JSON,
that replaying the same seed and actions gives the same state, and the game's own
invariants.

`views_of_a_game` gives every seat's and the public view of every step of one whole game
(the typed views' round-trip tests read them).

`check_hidden_information` samples states from such games, asks the game to vary every
fact hidden from an observer (`vary_hidden`), and requires that observer's view, its
description, and the observer-visible events of the next action to stay byte-identical
(events that by the rules reveal something are exempt; see `Event.reveals`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from pydantic import TypeAdapter

from engine.core import Event, Game, GameState, IllegalAction, Model
from engine.core.playout import play_out


def views_of_a_game(game: Game, players: int, seed: int) -> Iterator[Any]:
    """Every seat's and the public view of every step of one whole game."""
    result = play_out(game, players, seed)
    state = game.setup(result.state.seats, game.Options(), seed)
    for seat, action in result.actions:
        state, _ = game.apply(state, seat, action)
        for observer in [None, *state.seats]:
            yield game.view(state, observer)


def _dump(state: GameState) -> str:
    return state.model_dump_json()


def check_random_play(game: Game, n_players: int, seed: int, options: Model | None = None) -> GameState:
    """Play one game, checking every step; return the final state."""
    log: list[tuple[str, Any]] = []
    last: list[str] = []  # the previous step's state as JSON

    def on_step(before: GameState, seat: str, action: Any, after: GameState, events: list[Event]) -> None:
        # the engine is pure: a step leaves the state it was given as it was
        assert not last or _dump(before) == last[0], f"{game.id}: step {before.step} changed its input state"
        text = _dump(after)
        last[:] = [text]
        again = game.load_state(text)
        assert _dump(again) == text, f"{game.id}: state does not round-trip through JSON at step {after.step}"
        # the action itself must round-trip too, since the log stores it as JSON
        dumped = action.model_dump(mode="json")
        assert game.parse_action(json.loads(json.dumps(dumped))) == action
        broken = game.invariants(after)
        assert not broken, f"{game.id} step {after.step} after {seat} {dumped}: {broken}"
        for event in events:
            assert event.audience is None or event.audience in after.seats, event
        log.append((seat, dumped))

    result = play_out(game, n_players, seed, options, on_step=on_step)
    assert result.outcome is not None

    # Replay: the same seed and actions give the same state, byte for byte.
    state = game.setup(list(result.state.seats), options or game.Options(), seed)
    for seat, dumped in log:
        state, _ = game.apply(state, seat, game.parse_action(dumped))
    assert _dump(state) == _dump(result.state), f"{game.id}: replay diverged"
    return result.state


_EVENT = TypeAdapter(Event)


def _visible(events: list[Event], observer: str | None) -> list[bytes]:
    return [
        _EVENT.dump_json(e)
        for e in events
        if (e.audience is None or e.audience == observer) and not e.reveals
    ]


def check_hidden_information(
    game: Game, n_players: int, seed: int, options: Model | None = None, samples: int = 12
) -> int:
    """Return how many (state, observer) pairs were compared; at least one must differ in hidden facts."""
    states: list[GameState] = []
    play_out(game, n_players, seed, options, on_step=lambda b, s, a, n, e: states.append(b))
    rng = random.Random(seed)
    picked = rng.sample(states, min(samples, len(states)))
    compared = 0
    for state in picked:
        for observer in [None, *state.seats]:
            varied = game.vary_hidden(state, observer, random.Random(rng.random()))
            view_a = json.dumps(game.view_dict(game.view(state, observer)), sort_keys=True)
            view_b = json.dumps(game.view_dict(game.view(varied, observer)), sort_keys=True)
            assert view_a == view_b, f"{game.id}: the view of {observer} depends on hidden facts"
            assert game.describe(game.view(state, observer)) == game.describe(game.view(varied, observer))
            for prompt in game.prompts(state):
                if prompt.seat == observer:
                    continue  # the observer's own next order may depend on what it holds
                action = game.default_action(state, prompt.seat)
                try:
                    _, events_a = game.apply(state, prompt.seat, action)
                    _, events_b = game.apply(varied, prompt.seat, action)
                except IllegalAction:
                    continue  # the action is legal only with the original hidden facts
                assert _visible(events_a, observer) == _visible(events_b, observer), (
                    f"{game.id}: events {observer} can read depend on hidden facts"
                )
                break
            compared += 1
    return compared
