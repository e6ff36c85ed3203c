"""The state of a Schönbrunn game: plain data that round-trips through JSON."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from engine.core import GameState, Model, clone

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


<<<<<<< HEAD
=======
_ATOMS = (str, int, bool, type(None))


def _fast(value: Any) -> Any:
    # Every container in the state is homogeneous, so its first item tells what it holds.
    kind = type(value)
    if kind in _ATOMS or kind is tuple:  # tuples hold atoms here (prestige_items)
        return value
    if kind is list:
        if not value or type(value[0]) in _ATOMS:
            return value[:]
        return [_fast(x) for x in value]
    if kind is dict:
        if not value or type(next(iter(value.values()))) in _ATOMS:
            return value.copy()
        return {k: _fast(x) for k, x in value.items()}
    assert isinstance(value, BaseModel)
    return _clone(value)


def _clone(model: BaseModel) -> Any:
    """A deep copy of plain-data pydantic models, several times faster than copy.deepcopy
    (the core deep-copies the state once per action; this is most of a playout's time)."""
    cls = model.__class__
    new = cls.__new__(cls)
    if cls in _FLAT:  # only immutable fields: a shallow copy is deep
        fields = model.__dict__.copy()
    else:
        fields = {k: x if type(x) in _ATOMS else _fast(x) for k, x in model.__dict__.items()}
    _set(new, "__dict__", fields)
    _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__.copy())
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


_set = object.__setattr__


>>>>>>> e0e3fed (Nothing silent and every score explained (issue 12 items 4, 5). Origins: the sheet echo and /game me warn '13 PFs not placed: 5 go home, 8 eliminated'; /origins submit refuses an empty sheet with unplaced PFs until empty:yes; the reveal names the PFs eliminated over the home cap. Schönbrunn: a Treaty skipped in Congress reads like a pass (whether its owner could pay stays hidden), Treaties not kept are discarded aloud at Recovery. Scores: Crisis keeps every Prestige change with its Prestige-table lines (Initiative, place and DP, ties, Belligerence, doubling, Congress, card effects, solitaire costs, the floor at 0, war); Origins VPs item by item per objective and special, the doubling as its own item, provisional VPs dated and broken down in the status; Schönbrunn Prestige item by item per round and the end scoring, tie-breaks by Hierarchy named; /game status after the end shows the final standings first. tests/render/test_scores_add_up.py re-adds every standing and every score line of whole games of each title and player count)
class Delegate(Model):
    """Frozen, so a step's copy of the state shares them with the state it was given:
    `SchonbrunnState.change` puts a changed copy in its place (engine/core/fast.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    owner: str  # seat
    value: int  # the printed Influence
    place: str = "supply"  # "supply", "committed" or an Objective numeral
    face_up: bool = False
    known: bool = False  # value public where it is now (revealed by a Plot or committed)
    order: int = 0  # placement order on the board, so a face-down piece can be named


class Marker(Model):
    """A Treaty marker (+N for its owner's delegation, or a '-1') in an Objective."""

    owner: str
    objective: str
    value: int
    source: str  # the Treaty's id



class Player(Model):
    seat: str
    nation: str
    receptions: int = 0
    prestige: int = 0
    screen: list[str] = Field(default_factory=list)  # cards behind the screen
    signed: list[str] = Field(default_factory=list)  # Treaties in front of the screen
    under: list[str] = Field(default_factory=list)  # stacked under the Nation card
    ally_markers: list[int] = Field(default_factory=list)
    allies_this_round: list[str] = Field(default_factory=list)
    head: str | None = None  # an Objective, or the seat whose screen it stands before
    minister: str | None = None  # an Objective, or "treaty" when it activated one
    activated: list[str] = Field(default_factory=list)  # Treaties activated this round
    shown_aids: list[str] = Field(default_factory=list)  # Aids revealed this round
    committed: int | None = None  # Influence of the Hierarchy Delegate, once revealed
    bid: int | None = None  # auction variant, secret until all are in
    end_detail: str = ""
    # every Prestige gain and where it came from (issue 12); they add up to `prestige`
    prestige_items: list[tuple[str, int]] = Field(default_factory=list)


class SchonbrunnState(GameState):
    simplified: bool = False
    auction: bool = False
    see_own_face_down: bool = False
    lasting_allies: bool = False  # the table option: Ally markers are not discarded after use
    round: int = 0
    rounds: int = 4
    stage: Stage = "commit"
    queue: list[str] = Field(default_factory=list)  # seats still to act in this stage
    players: dict[str, Player] = Field(default_factory=dict)
    delegates: list[Delegate] = Field(default_factory=list)
    objectives: list[str] = Field(default_factory=list)
    piles: dict[str, list[str]] = Field(default_factory=dict)  # index 0 is the top; "PoB" too
    tops_revealed: bool = False
    box: list[str] = Field(default_factory=list)  # removed by player-count symbol (public)
    box_hidden: list[str] = Field(default_factory=list)  # Treaties removed at random
    favours: dict[str, int] = Field(default_factory=dict)  # Objective -> Political Favour
    favours_up: list[str] = Field(default_factory=list)
    favour_spare: list[int] = Field(default_factory=list)  # the token not placed (3-4 players)
    markers: list[Marker] = Field(default_factory=list)
    hierarchy: list[str] = Field(default_factory=list)  # seats, position 1 first
    master: str = ""  # seat holding the Master of Ceremonies token
    tie_groups: list[list[str]] = Field(default_factory=list)  # unresolved Hierarchy ties
    # Assignments: the current player's step and how many Delegates it still owes there
    assign_step: Literal["down", "head", "up", "last"] = "down"
    assign_left: int = 0
    treaty_queue: list[str] = Field(default_factory=list)  # Congress Treaties by priority
    placed: int = 0  # placement counter for Delegate.order
    nations_left: list[str] = Field(default_factory=list)  # auction: Roles still to choose
    choose_order: list[str] = Field(default_factory=list)
    last_awards: list[str] = Field(default_factory=list)  # texts of the last Congress
    final: dict[str, int] = Field(default_factory=dict)  # final Prestige once over

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> SchonbrunnState:
        return clone(self)

    def change(self, d: Delegate, **fields: Any) -> Delegate:
        """Replace the Delegate `d` (this state's own piece) by a copy with `fields` changed;
        returns the copy."""
        i = next(i for i, x in enumerate(self.delegates) if x is d)
        new = self.delegates[i] = d.model_copy(update=fields)
        return new
