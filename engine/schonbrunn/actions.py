"""Every decision of Schönbrunn, as pydantic models discriminated on `kind`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core import Model


class Bid(Model):
    """Auction variant: Receptions hidden in hand (at least 1)."""

    kind: Literal["bid"] = "bid"
    receptions: int


class Choose(Model):
    """Auction variant: take a Nation."""

    kind: Literal["choose"] = "choose"
    nation: str


class Commit(Model):
    """Hierarchy: commit one Delegate of this Influence face down."""

    kind: Literal["commit"] = "commit"
    delegate: int


class TieBreak(Model):
    """Hierarchy: the order (first = better position) of the tied nations."""

    kind: Literal["tiebreak"] = "tiebreak"
    order: list[str]


class Sign(Model):
    kind: Literal["sign"] = "sign"
    treaties: list[str] = Field(default_factory=list)


class Spend(Model):
    """Hierarchy: Receptions spent for as many Prestige points."""

    kind: Literal["spend"] = "spend"
    receptions: int


class Favour(Model):
    """Assignments: the Master of Ceremonies reveals the Political Favour of an Objective."""

    kind: Literal["favour"] = "favour"
    objective: str


class Assign(Model):
    """Assignments: one Delegate of this Influence to an Objective (face as the step says)."""

    kind: Literal["assign"] = "assign"
    delegate: int
    objective: str


class Head(Model):
    """Assignments: the Delegation Head to an Objective or before a nation's screen, or not."""

    kind: Literal["head"] = "head"
    target: str | None = None


class Plot(Model):
    """Plot: Receptions against the index-th face-down Delegate of `nation` in `objective`."""

    kind: Literal["plot"] = "plot"
    nation: str
    objective: str
    receptions: int
    index: int = 1


class Move(Model):
    """Chancellery: move a face-up Delegate of the nation whose screen your head faces."""

    kind: Literal["move"] = "move"
    objective: str
    delegate: int
    to: str | None = None  # None: removed, when no other Objective holds their Delegates


class Minister(Model):
    kind: Literal["minister"] = "minister"
    objective: str | None = None  # None: not assigned


class Target(Model):
    nation: str
    objective: str


class Activate(Model):
    """Activate a signed Treaty by revealing an Aid or assigning the Foreign Minister."""

    kind: Literal["activate"] = "activate"
    treaty: str
    pay: str  # an Aid's id, or "minister"
    objective: str | None = None  # for a marker Treaty
    targets: list[Target] = Field(default_factory=list)  # for the '-1' markers


class Pass(Model):
    """Decline the current optional decision (a Plot, a Treaty, the Foreign Minister)."""

    kind: Literal["pass"] = "pass"


class Keep(Model):
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
