"""The action path's tables and what they play (bench/action_path.py): one `Script` a
table, the same legal actions in every run, chosen by the game's automatic players from
the table seed and kept in bench/.cache/, with every state the service saves for them;
and the `Pacer` that says when each table sends its next action.
bench/automatic_load.py plays the same scripts.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine import games
from engine.core import Game, IllegalAction

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"


@dataclass
class Script:
    """One table's game: who sends what, and what the service saves for it. Each action
    the service acknowledges is saved with whatever decisions without a real choice it
    then takes itself (`Game.forced_action`), so `saves[i]` lists every
    (action JSON, state JSON) saved for `actions[i]`, in order; `opening` those saved at
    the start."""

    channel_id: int
    seed: int
    players: list[int]  # user ids in seat order (s1, s2, ...)
    actions: list[tuple[int, dict[str, Any]]]
    saves: list[list[tuple[str, str]]]
    opening: list[tuple[str, str]]

    @property
    def final(self) -> str:
        return next(saved[-1][1] for saved in (*reversed(self.saves), self.opening) if saved)


def game_named(name: str) -> Game:
    """The game `--game` names: "envoys" is the tiny test game (tests/tinygame.py)."""
    if name == "envoys":
        from tests.tinygame import GAME

        return games.register(GAME)
    return games.get(name)


def _forced(game: Game, state: Any) -> list[tuple[str, str]]:
    """Play the decisions the service takes at once (`Play.autoplay`: the first
    prompt whose decision carries no real choice, again until none does); what each saves."""
    saved = []
    while game.outcome(state) is None:
        forced = next(
            ((p.seat, f) for p in game.prompts(state) if (f := game.forced_action(state, p.seat))), None
        )
        if forced is None:
            break
        seat, f = forced
        state, _ = game.apply(state, seat, f.action)
        saved.append((game.Action.dump_json(f.action).decode(), state.model_dump_json()))
    return saved


def make_script(
    game: Game, channel_id: int, players: int, options: dict[str, Any], chosen: list[Any] | None = None
) -> Script:
    """The service names seats s1..sN in join order; the engine plays the same seats here.
    The actions are the automatic players' (`bot_action`), or `chosen` (the actions of an
    earlier script, replayed); IllegalAction if one of those is no longer legal."""
    seed = channel_id * 7919
    users = [channel_id * 10 + i for i in range(players)]
    seats = [f"s{i + 1}" for i in range(players)]
    user_of = dict(zip(seats, users, strict=True))
    state = game.setup(seats, game.Options.model_validate(options), seed)
    opening = _forced(game, state)
    if opening:
        state = game.load_state(opening[-1][1])
    bots = random.Random(seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    saves: list[list[tuple[str, str]]] = []
    while game.outcome(state) is None:
        seat = game.prompts(state)[0].seat
        if chosen is None:
            action = game.bot_action(state, seat, bots)
        elif len(actions) < len(chosen):
            action = game.parse_action(chosen[len(actions)])
        else:
            raise IllegalAction("the earlier script ends before the game does")
        state, _ = game.apply(state, seat, action)
        saved = [(game.Action.dump_json(action).decode(), state.model_dump_json()), *_forced(game, state)]
        state = game.load_state(saved[-1][1]) if len(saved) > 1 else state
        actions.append((user_of[seat], action.model_dump(mode="json")))
        saves.append(saved)
    if chosen is not None and len(actions) != len(chosen):
        raise IllegalAction("the game ends before the earlier script does")
    return Script(channel_id, seed, users, actions, saves, opening)


def scripts_for(game: Game, tables: int, players: int, options: dict[str, Any]) -> list[Script]:
    """Every table's script. The automatic players that choose the actions take most of a
    second per Origins game, so their choices are kept in bench/.cache/ and replayed by
    the engine as it is now (which derives the states, and the decisions without a real
    choice); a table whose kept actions the engine no longer plays to the end is chosen
    again."""
    name = hashlib.blake2b(json.dumps([players, options], sort_keys=True).encode(), digest_size=6)
    cached = CACHE / f"action-path-{game.id}-{name.hexdigest()}.json"
    kept: dict[str, list[Any]] = json.loads(cached.read_text()) if cached.exists() else {}
    t0, chosen_again, scripts = time.perf_counter(), 0, []
    for channel_id in range(1000, 1000 + tables):
        script = None
        if str(channel_id) in kept:
            try:
                script = make_script(game, channel_id, players, options, kept[str(channel_id)])
            except (IllegalAction, ValidationError):
                pass
        if script is None:
            script = make_script(game, channel_id, players, options)
            kept[str(channel_id)] = [action for _, action in script.actions]
            chosen_again += 1
        scripts.append(script)
    if chosen_again:
        CACHE.mkdir(exist_ok=True)
        partial = cached.with_suffix(".partial")
        partial.write_text(json.dumps(kept))
        partial.rename(cached)
    print(
        f"scripts made in {time.perf_counter() - t0:.1f} s ({chosen_again} of {tables} chosen by the "
        f"automatic players, the rest replayed from {cached.relative_to(ROOT)})"
    )
    return scripts


class Pacer:
    """When a rate is set, each table sends its actions `tables / rate` seconds apart
    (first one at a random offset), so the total arrival rate is `rate` per second.
    Without a rate every table sends its next action as soon as the last is saved."""

    def __init__(self, rate: float | None, tables: int, seed: int = 1):
        self.interval = tables / rate if rate else 0.0
        self.offsets = random.Random(seed)

    async def ticks(self, count: int):
        if not self.interval:
            for index in range(count):
                yield index
            return
        due = time.perf_counter() + self.offsets.uniform(0, self.interval)
        for index in range(count):
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            yield index
            due += self.interval
