"""Every decision of Schönbrunn, as pydantic models discriminated on `kind`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from engine.core import Model


class Action(Model):
    """Frozen: `legal_actions` hands out the same action each time it lists it (legal.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Bid(Action):
    """Auction variant: Receptions hidden in hand (at least 1)."""

    kind: Literal["bid"] = "bid"
    receptions: int


class Choose(Action):
    """Auction variant: take a Nation."""

    kind: Literal["choose"] = "choose"
    nation: str


class Commit(Action):
    """Hierarchy: commit one Delegate of this Influence face down."""

    kind: Literal["commit"] = "commit"
    delegate: int


class TieBreak(Action):
    """Hierarchy: the order (first = better position) of the tied nations."""

    kind: Literal["tiebreak"] = "tiebreak"
    order: list[str]


class Sign(Action):
    kind: Literal["sign"] = "sign"
    treaties: list[str] = Field(default_factory=list)


class Spend(Action):
    """Hierarchy: Receptions spent for as many Prestige points."""

    kind: Literal["spend"] = "spend"
    receptions: int


class Favour(Action):
    """Assignments: the Master of Ceremonies reveals the Political Favour of an Objective."""

    kind: Literal["favour"] = "favour"
    objective: str


class Assign(Action):
    """Assignments: one Delegate of this Influence to an Objective (face as the step says)."""

    kind: Literal["assign"] = "assign"
    delegate: int
    objective: str


class Head(Action):
    """Assignments: the Delegation Head to an Objective or before a nation's screen, or not."""

    kind: Literal["head"] = "head"
    target: str | None = None


class Plot(Action):
    """Plot: Receptions against the index-th face-down Delegate of `nation` in `objective`."""

    kind: Literal["plot"] = "plot"
    nation: str
    objective: str
    receptions: int
    index: int = 1


class Move(Action):
    """Chancellery: move a face-up Delegate of the nation whose screen your head faces."""

    kind: Literal["move"] = "move"
    objective: str
    delegate: int
    to: str | None = None  # None: removed, when no other Objective holds their Delegates


class Minister(Action):
    kind: Literal["minister"] = "minister"
    objective: str | None = None  # None: not assigned


class Target(Action):
    nation: str
    objective: str


class Activate(Action):
    """Activate a signed Treaty by revealing an Aid or assigning the Foreign Minister."""

    kind: Literal["activate"] = "activate"
    treaty: str
    pay: str  # an Aid's id, or "minister"
    objective: str | None = None  # for a marker Treaty
    targets: list[Target] = Field(default_factory=list)  # for the '-1' markers


class Pass(Action):
    """Decline the current optional decision (a Plot, a Treaty, the Foreign Minister)."""

    kind: Literal["pass"] = "pass"


class Keep(Action):
    """Recovery: keep these Treaties, discarding these Aids (one each)."""

    kind: Literal["keep"] = "keep"
    treaties: list[str] = Field(default_factory=list)
    aids: list[str] = Field(default_factory=list)


SchonbrunnAction = Annotated[
    Bid
    | Choose
    | Commit
    | TieBreak
    | Sign
    | Spend
    | Favour
    | Assign
    | Head
    | Plot
    | Move
    | Minister
    | Activate
    | Pass
    | Keep,
    Field(discriminator="kind"),
]
ACTION = TypeAdapter(SchonbrunnAction)
