"""Plain-data building blocks shared by every game: state base, events, prompts, outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, Self

from pydantic import BaseModel, ConfigDict

__all__ = [
    "Model",
    "GameState",
    "StateLike",
    "Event",
    "Prompt",
    "Outcome",
    "Standing",
    "PUBLIC",
]

PUBLIC = None  # the audience of an event anyone may read, and the observer of the public view


class Model(BaseModel):
    """Strict pydantic base: unknown fields are errors, values round-trip through JSON."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class GameState(Model):
    """Fields every game's State carries. `step` counts applied actions (the rng index)."""

    game: str
    seed: int
    step: int = 0
    seats: list[str]


class StateLike(Protocol):
    """What the core asks of a game's state: GameState's fields and the pydantic methods it
    calls. A pydantic `GameState` has them; so does a state kept as a plain dataclass with a
    pydantic adapter (Schönbrunn's, engine/schonbrunn/state.py), which is why the core's
    games are generic over this rather than over GameState itself."""

    game: str
    seed: int
    step: int
    seats: list[str]

    def model_dump_json(self) -> str: ...

    def model_dump(self) -> dict[str, Any]: ...

    @classmethod
    def model_validate_json(cls, json_data: str | bytes, /) -> Self: ...

    @classmethod
    def model_validate(cls, obj: Any, /) -> Self: ...

    def model_copy(self, *, deep: bool = False) -> Self: ...

    def __deepcopy__(self, memo: dict[int, Any] | None = None, /) -> Self: ...


@dataclass(slots=True)
class Event:
    """Something that happened, for a reader.

    `audience` is None for a public event, or the one seat that may read it.
    `reveals` marks an event that by the rules makes hidden facts public at that moment
    (a sheet revealed, a card turned face up); the hidden-information check allows only
    such events to differ between states that differ in hidden facts.
    `thread` asks the front end to post it in the current phase thread instead.

    A plain dataclass, not a Model, like `Prompt`: the rules make one or two at every step
    and none is stored or parsed (the service keeps their fields), and a pydantic model
    cost three times as much to make. pydantic still dumps one as it dumped the model
    (`pydantic.TypeAdapter(Event)`), should a model ever hold them.
    """

    kind: str
    text: str
    audience: str | None = None
    reveals: bool = False
    thread: bool = False
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        return self.audience is None


@dataclass(slots=True, kw_only=True)
class Prompt:
    """A decision owed now.

    sequential: one seat acts and then others may; simultaneous: several seats decide in
    secret and the choices are revealed together once all are in (or at the deadline).
    `phase` names the phase instance (for example "1914-03/placement"); a deadline runs
    from when a phase key first appears until it is gone. `thread` asks the front end to
    open a discussion thread named so for the phase (diplomacy). `deadline_setting`
    names the table option that gives this phase's length, if it has its own. `turn` names
    the player's turn the decision belongs to, where one turn asks several decisions of the
    same seat in phases of their own (a Crisis Draw, then placing the card it revealed): a
    missed deadline then plays the defaults to the end of that turn at once, so a missed
    turn costs one deadline, not one per decision. None: the decision is a turn of its own.

    A plain dataclass, not a Model: games build prompts afresh at every step and are never
    stored or parsed, and pydantic's checks made them cost three times as much.
    """

    seat: str
    kind: str
    text: str
    phase: str
    mode: Literal["sequential", "simultaneous"] = "sequential"
    thread: str | None = None
    deadline_setting: str | None = None
    turn: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in ("sequential", "simultaneous"):
            raise ValueError(f"a prompt's mode is sequential or simultaneous, not {self.mode!r}")

    @property
    def simultaneous(self) -> bool:
        return self.mode == "simultaneous"


class Standing(Model):
    seat: str
    rank: int
    score: float
    detail: str = ""


class Outcome(Model):
    """The end of a game: ranks (1 = best, ties share a rank), scores and why it ended."""

    reason: str
    standings: list[Standing]

    @property
    def winners(self) -> list[str]:
        return [s.seat for s in self.standings if s.rank == 1]
