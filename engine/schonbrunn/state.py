"""The state of a Schönbrunn game: plain data that round-trips through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar, final

from pydantic import ConfigDict, TypeAdapter

from engine.core import WHOLE, clone, replaced

Stage = Literal[
    "bid",  # auction variant: secret bids for the Roles
    "choose",  # auction variant: choosing nations in bid order
    "commit",  # Hierarchy: the secret Delegate commit
    "tiebreak",  # Hierarchy: the Master of Ceremonies (or Austria) orders a tie
    "sign",  # Hierarchy: signing Treaties
    "receptions",  # Hierarchy: spending Receptions for Prestige
    "favour",  # Assignments: the Master of Ceremonies reveals a Political Favour
    "assign",  # Assignments: Delegates, Delegation Head
    "plot",
    "move",  # Chancellery: Delegation Heads in front of a screen
    "minister",  # Chancellery: Foreign Ministers
    "activate",  # Congress: Treaties by priority, after all is revealed
    "keep",  # Recovery: keeping Treaties by discarding Aids
    "over",
]


# Delegates, Markers and Players are frozen stdlib dataclasses, not pydantic models: the
# rules read them most of all and replace a few every step, and a pydantic model's every
# attribute read takes CPython's slow path (its `BaseModel.__getattr__`), its every new
# object twice the instructions. As fields of the state pydantic validates and dumps them
# as it would models, so the JSON is the same. No `__slots__`: `replaced` and `change`
# copy the fields as one `__dict__` (engine/core/fast.py).
_RECORD = ConfigDict(extra="forbid")  # pydantic's config for them, as `Model`'s


@final  # `SchonbrunnState.change` tells a Player from a Delegate by its exact class
@dataclass(frozen=True)
class Delegate:
    """Frozen, so a step's copy of the state shares them with the state it was given:
    `SchonbrunnState.change` puts a changed copy in its place (engine/core/fast.py)."""

    __pydantic_config__ = _RECORD

    id: str
    owner: str  # seat
    value: int  # the printed Influence
    place: str = "supply"  # "supply", "committed" or an Objective numeral
    face_up: bool = False
    known: bool = False  # value public where it is now (revealed by a Plot or committed)
    order: int = 0  # placement order on the board, so a face-down piece can be named


@dataclass(frozen=True)
class Marker:
    """A Treaty marker (+N for its owner's delegation, or a '-1') in an Objective. Frozen,
    like the Delegates, so a step's copy of the state shares them."""

    __pydantic_config__ = _RECORD

    owner: str
    objective: str
    value: int
    source: str  # the Treaty's id


@final
@dataclass(frozen=True)
class Player:
    """Frozen, like the Delegates, and holding tuples, not lists, so a step's copy of the
    state shares every Player: `SchonbrunnState.change` puts a changed copy in its place
    (a step changes one or two of them). The JSON is the same as a list's."""

    __pydantic_config__ = _RECORD

    seat: str
    nation: str
    receptions: int = 0
    prestige: int = 0
    screen: tuple[str, ...] = ()  # cards behind the screen
    signed: tuple[str, ...] = ()  # Treaties in front of the screen
    under: tuple[str, ...] = ()  # stacked under the Nation card
    ally_markers: tuple[int, ...] = ()
    allies_this_round: tuple[str, ...] = ()
    head: str | None = None  # an Objective, or the seat whose screen it stands before
    minister: str | None = None  # an Objective, or "treaty" when it activated one
    activated: tuple[str, ...] = ()  # Treaties activated this round
    shown_aids: tuple[str, ...] = ()  # Aids revealed this round
    committed: int | None = None  # Influence of the Hierarchy Delegate, once revealed
    bid: int | None = None  # auction variant, secret until all are in
    end_detail: str = ""
    # every Prestige gain and where it came from; they add up to `prestige`
    prestige_items: tuple[tuple[str, int], ...] = ()


Piece = TypeVar("Piece", Delegate, Player)  # what SchonbrunnState.change replaces
_POSITIONS = "delegate positions"  # SchonbrunnState._positions, kept beside the fields


@dataclass(kw_only=True)
class SchonbrunnState:
    """The state is a stdlib dataclass, not a pydantic model, like its pieces: the rules
    read and set its fields dozens of times a step, and a model's every attribute read took
    CPython's slow path (`BaseModel.__getattr__` turns off the interpreter's specialised
    reads), its every set a call of its own `__setattr__`. It keeps a model's methods that
    the engine, the service and the store use (`model_dump_json`, `model_validate_json`,
    `model_dump`, `model_validate`, `model_copy`), through a pydantic `TypeAdapter` that
    validates and dumps it as it did the model: the same JSON, byte for byte. Its first
    four fields are `GameState`'s, in its order.

    Fields marked WHOLE are only ever replaced by a new list or dict, never changed in
    place, and the piles are tuples, so a step's copy shares them (engine/core/fast.py)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # `Model`'s

    # GameState's fields: the game, the table seed, applied actions (the rng index), seats
    game: str
    seed: int
    step: int = 0
    seats: list[str]

    simplified: bool = False
    auction: bool = False
    see_own_face_down: bool = False
    lasting_allies: bool = False  # the table option: Ally markers are not discarded after use
    round: int = 0
    rounds: int = 4
    stage: Stage = "commit"
    queue: list[str] = field(default_factory=list)  # seats still to act in this stage
    players: dict[str, Player] = field(default_factory=dict)
    delegates: list[Delegate] = field(default_factory=list)
    objectives: Annotated[list[str], WHOLE] = field(default_factory=list)
    piles: dict[str, tuple[str, ...]] = field(default_factory=dict)  # index 0 is the top; "PoB" too
    tops_revealed: bool = False
    box: Annotated[list[str], WHOLE] = field(default_factory=list)  # removed by player-count symbol (public)
    box_hidden: Annotated[list[str], WHOLE] = field(default_factory=list)  # Treaties removed at random
    favours: dict[str, int] = field(default_factory=dict)  # Objective -> Political Favour
    favours_up: Annotated[list[str], WHOLE] = field(default_factory=list)
    favour_spare: Annotated[list[int], WHOLE] = field(default_factory=list)  # the token not placed (3-4 players)
    markers: Annotated[list[Marker], WHOLE] = field(default_factory=list)
    hierarchy: Annotated[list[str], WHOLE] = field(default_factory=list)  # seats, position 1 first
    master: str = ""  # seat holding the Master of Ceremonies token
    tie_groups: Annotated[list[list[str]], WHOLE] = field(default_factory=list)  # unresolved Hierarchy ties
    # Assignments: the current player's step and how many Delegates it still owes there
    assign_step: Literal["down", "head", "up", "last"] = "down"
    assign_left: int = 0
    treaty_queue: Annotated[list[str], WHOLE] = field(default_factory=list)  # Congress Treaties by priority
    placed: int = 0  # placement counter for Delegate.order
    nations_left: Annotated[list[str], WHOLE] = field(default_factory=list)  # auction: Roles still to choose
    choose_order: Annotated[list[str], WHOLE] = field(default_factory=list)
    last_awards: Annotated[list[str], WHOLE] = field(default_factory=list)  # texts of the last Congress
    final: Annotated[dict[str, int], WHOLE] = field(default_factory=dict)  # final Prestige once over

    # -- the pydantic model's methods that the engine, the service and the store use --------

    def model_dump_json(self, **options: Any) -> str:
        return _ADAPTER.dump_json(self, **options).decode()

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return _ADAPTER.dump_python(self, **options)  # type: ignore[no-any-return]

    @classmethod
    def model_validate_json(cls, data: str | bytes, **options: Any) -> SchonbrunnState:
        return _ADAPTER.validate_json(data, **options)

    @classmethod
    def model_validate(cls, data: Any, **options: Any) -> SchonbrunnState:
        return _ADAPTER.validate_python(data, **options)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> SchonbrunnState:
        """A deep copy (`clone`) or one sharing the fields' values, as a model's."""
        if not deep:
            return replaced(self, **(update or {}))
        new = clone(self)
        new.__dict__.update(update or {})
        return new

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> SchonbrunnState:
        new = clone(self)
        where = self.__dict__.get(_POSITIONS)
        if where is not None and where[0] is self.delegates:
            # true of the copy's list too (a copy of this one; the rules never reorder
            # Delegates), and checked against its length as this list's is
            n = new.__dict__
            n[_POSITIONS] = (n["delegates"], *where[1:])
        return new

    def delegates_of(self, seat: str) -> list[Delegate]:
        """The seat's Delegates, in their order in `delegates`, without reading everyone's
        (the rules ask for them several times a step)."""
        delegates = self.delegates
        return [delegates[i] for i in self._positions()[2].get(seat, ())]

    def delegates_at(self, seat: str, place: str) -> list[Delegate]:
        """The seat's Delegates at `place` ("supply", "committed", an Objective)."""
        delegates = self.delegates
        return [d for i in self._positions()[2].get(seat, ()) if (d := delegates[i]).place == place]

    def in_supply(self, seat: str, value: int) -> Delegate | None:
        """The seat's first Delegate of this Influence in its supply, without listing the
        seat's Delegates: an Assignment asks (half of all decisions)."""
        delegates = self.delegates
        for i in self._positions()[2].get(seat, ()):
            d = delegates[i]
            if d.place == "supply" and d.value == value:
                return d
        return None

    def supply_values(self, seat: str) -> tuple[int, ...]:
        """The distinct Influences in the seat's supply, lowest first, without listing the
        seat's Delegates: the Assignments' legal actions ask."""
        delegates = self.delegates
        indices = self._positions()[2].get(seat, ())
        return tuple(sorted({d.value for i in indices if (d := delegates[i]).place == "supply"}))

    def _positions(self) -> tuple[list[Delegate], int, dict[str, tuple[int, ...]], dict[str, int]]:
        """Where each seat's Delegates are in `delegates`, and where each Delegate is by id,
        worked out once for this list and kept beside the fields (not one: never dumped or
        compared). `change` replaces a Delegate in its place, and the list it was worked out
        for is held, so a list put in its place or grown or cut is worked out again."""
        delegates = self.delegates
        where = self.__dict__.get(_POSITIONS)
        if where is None or where[0] is not delegates or where[1] != len(delegates):
            places: dict[str, list[int]] = {}
            for i, d in enumerate(delegates):
                places.setdefault(d.owner, []).append(i)
            where = (
                delegates,
                len(delegates),
                {s: tuple(ix) for s, ix in places.items()},
                {d.id: i for i, d in enumerate(delegates)},
            )
            self.__dict__[_POSITIONS] = where
        return where

    def change(self, piece: Piece, **fields: Any) -> Piece:
        """Replace a Delegate or a Player of this state by a copy with `fields` changed;
        returns the copy. A piece this state no longer holds (replaced since it was read)
        is refused: the changes made to it since would be lost."""
        new = replaced(piece, **fields)
        if type(piece) is Player:
            seat, players = piece.seat, self.players
            if players.get(seat) is not piece:
                raise ValueError(f"not this state's Player of {seat} (read before a change?)")
            players[seat] = new
        else:
            delegates = self.delegates
            i = self._positions()[3].get(piece.id)
            if i is None or delegates[i] is not piece:
                raise ValueError(f"not this state's Delegate {piece.id} (read before a change?)")
            delegates[i] = new
        return new


_ADAPTER: TypeAdapter[SchonbrunnState] = TypeAdapter(SchonbrunnState)
