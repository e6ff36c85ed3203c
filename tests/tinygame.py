"""A tiny game for platform tests only (never shipped in engine/).

"Envoys": each round every seat secretly commits a number from 1 to 3 (simultaneous
secret prompt). When all are in, the commits are revealed and a die is rolled; the
highest unique commit scores the die's value. Then the round's first seat must either
`press` (+1 point) or `yield` (sequential prompt), and a diplomacy phase follows in a
thread that every seat ends with `ready`. Three rounds.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from engine.core import (
    Choice,
    Command,
    Event,
    Game,
    GameState,
    IllegalAction,
    Model,
    Option,
    Outcome,
    Prompt,
    Standing,
    parse_int,
    roll,
)

ROUNDS = 3


class EnvoyOptions(Model):
    rounds: int = ROUNDS


class Commit(Model):
    kind: Literal["commit"] = "commit"
    value: int


class Press(Model):
    kind: Literal["press"] = "press"


class Yield(Model):
    kind: Literal["yield"] = "yield"


class Ready(Model):
    kind: Literal["ready"] = "ready"


EnvoyAction = Annotated[Commit | Press | Yield | Ready, Field(discriminator="kind")]


class EnvoyState(GameState):
    rounds: int
    round: int = 1
    phase: Literal["commit", "press", "diplomacy", "over"] = "commit"
    commits: dict[str, int] = Field(default_factory=dict)  # hidden until all are in
    scores: dict[str, int] = Field(default_factory=dict)
    ready: list[str] = Field(default_factory=list)
    last_roll: int | None = None


def _values(state: Any, seat: str, typed: dict[str, Any]) -> list[Choice]:
    return [Choice(str(v), str(v)) for v in (1, 2, 3)]


class Envoys(Game[EnvoyState, EnvoyAction, dict[str, Any]]):
    id = "envoys"
    title = "Envoys (test game)"
    min_players = 2
    max_players = 4
    Options = EnvoyOptions
    State = EnvoyState
    Action = TypeAdapter(EnvoyAction)
    commands = (
        Command(
            "commit",
            "Commit a secret number",
            lambda s, seat, o: Commit(value=parse_int(o["value"], "value")),
            (Option("value", "1, 2 or 3", "int", suggest=_values, min_value=1, max_value=3),),
            private=True,
        ),
        Command("press", "Press for a point", lambda s, seat, o: Press()),
        Command("yield", "Yield", lambda s, seat, o: Yield()),
        Command("ready", "End diplomacy", lambda s, seat, o: Ready()),
        Command("hand", "Show my commit", lambda s, seat, o: None, private=True),
    )

    def setup(self, seats: list[str], options: Model, seed: int) -> EnvoyState:
        assert isinstance(options, EnvoyOptions)
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction(f"Envoys takes {self.min_players}-{self.max_players} players.")
        return EnvoyState(
            game=self.id, seed=seed, seats=list(seats), rounds=options.rounds,
            scores={s: 0 for s in seats},
        )

    def prompts(self, state: EnvoyState) -> list[Prompt]:
        phase = f"r{state.round}/{state.phase}"
        if state.phase == "commit":
            return [
                Prompt(seat=s, kind="commit", text="Commit 1, 2 or 3 in secret.", phase=phase,
                       mode="simultaneous")
                for s in state.seats if s not in state.commits
            ]
        if state.phase == "press":
            first = state.seats[(state.round - 1) % len(state.seats)]
            return [Prompt(seat=first, kind="press", text="Press or yield.", phase=phase)]
        if state.phase == "diplomacy":
            return [
                Prompt(seat=s, kind="ready", text="Negotiate, then say ready.", phase=phase,
                       thread=f"Round {state.round} diplomacy", deadline_setting="diplomacy_minutes")
                for s in state.seats if s not in state.ready
            ]
        return []

    def play(self, state: EnvoyState, seat: str, action: Any, rng: random.Random) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, Commit):
            if state.phase != "commit":
                raise IllegalAction("It is not the commit phase.")
            if action.value not in (1, 2, 3):
                raise IllegalAction(f"Commit 1, 2 or 3, not {action.value}.")
            state.commits[seat] = action.value
            events.append(Event(kind="committed", text=f"You committed {action.value}.", audience=seat))
            events.append(Event(kind="committed", text=f"{seat} has committed."))
            if len(state.commits) == len(state.seats):
                die = roll(rng)[0]
                state.last_roll = die
                counts: dict[int, int] = {}
                for v in state.commits.values():
                    counts[v] = counts.get(v, 0) + 1
                unique = [v for v, n in counts.items() if n == 1]
                shown = ", ".join(f"{s}={v}" for s, v in state.commits.items())
                winner = None
                if unique:
                    best = max(unique)
                    winner = next(s for s, v in state.commits.items() if v == best)
                    state.scores[winner] += die
                events.append(Event(kind="reveal", text=f"Commits: {shown}. Die: {die}. Scorer: {winner}.",
                                    reveals=True))
                state.commits = {}
                state.phase = "press"
        elif isinstance(action, Press | Yield):
            if state.phase != "press":
                raise IllegalAction("It is not the press phase.")
            if isinstance(action, Press):
                state.scores[seat] += 1
            events.append(Event(kind=action.kind, text=f"{seat} chose {action.kind}."))
            state.phase = "diplomacy"
            state.ready = []
        elif isinstance(action, Ready):
            if state.phase != "diplomacy":
                raise IllegalAction("It is not the diplomacy phase.")
            state.ready.append(seat)
            if len(state.ready) == len(state.seats):
                state.ready = []
                if state.round == state.rounds:
                    state.phase = "over"
                    events.append(Event(kind="end", text="The game is over."))
                else:
                    state.round += 1
                    state.phase = "commit"
        else:
            raise IllegalAction(f"Unknown action {action!r}.")
        return events

    def view(self, state: EnvoyState, seat: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": state.round, "phase": state.phase, "scores": dict(state.scores),
            "committed": sorted(state.commits), "last_roll": state.last_roll,
        }
        if seat is not None and seat in state.commits:
            out["my_commit"] = state.commits[seat]
        return out

    def describe(self, view: dict[str, Any]) -> str:
        lines = [f"**Envoys** round {view['round']}, {view['phase']}"]
        lines += [f"{s}: {p}" for s, p in view["scores"].items()]
        if "my_commit" in view:
            lines.append(f"Your commit: {view['my_commit']}")
        return "\n".join(lines)

    def outcome(self, state: EnvoyState) -> Outcome | None:
        if state.phase != "over":
            return None
        best = sorted(set(state.scores.values()), reverse=True)
        return Outcome(reason="three rounds played", standings=[
            Standing(seat=s, rank=best.index(p) + 1, score=p) for s, p in state.scores.items()
        ])

    def default_action(self, state: EnvoyState, seat: str) -> Any:
        return {"commit": Commit(value=1), "press": Yield(), "diplomacy": Ready()}[state.phase]

    def bot_action(self, state: EnvoyState, seat: str, rng: random.Random) -> Any:
        if state.phase == "commit":
            return Commit(value=rng.randint(1, 3))
        if state.phase == "press":
            return Press() if rng.random() < 0.5 else Yield()
        return Ready()

    def invariants(self, state: EnvoyState) -> list[str]:
        return [f"{s} has a negative score" for s, p in state.scores.items() if p < 0]

    def vary_hidden(self, state: EnvoyState, observer: str | None, rng: random.Random) -> EnvoyState:
        varied = state.model_copy(deep=True)
        for s in varied.commits:
            if s != observer:
                varied.commits[s] = rng.randint(1, 3)
        return varied


GAME = Envoys()


def registered(monkeypatch: Any, *extra: Any) -> Any:
    """The game registry with the real games, the test game and `extra`, for this test only
    (`monkeypatch` undoes it): the registry is global and other suites enumerate it."""
    from engine import games

    try:
        games.all()
    except Exception:  # noqa: BLE001 - a game package mid-edit elsewhere must not fail platform tests
        pass
    monkeypatch.setattr(games, "_GAMES", dict(games._GAMES))
    monkeypatch.setattr(games, "_ALIASES", dict(games._ALIASES))
    for game in (GAME, *extra):
        games.register(game)
    return games
