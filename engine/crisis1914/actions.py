"""The actions of Crisis: 1914, a discriminated union on `kind`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core import Model


class CardChoices(Model):
    """Choices made as a card lands on the Tableau."""

    belligerence: bool = False
    alternative: bool = False  # play the card's "or" effects instead of its first ones
    box: str | None = None  # which Tension box a Reduce Tension effect lowers
    reclaim: str | None = None  # which Assertion card to take back


class Draw(Model):
    kind: Literal["draw"] = "draw"


class Play(CardChoices):
    kind: Literal["play"] = "play"
    card: str


class Deliberate(Model):
    kind: Literal["deliberate"] = "deliberate"
    discard: str


class Reorganize(Model):
    kind: Literal["reorganize"] = "reorganize"
    discard: str


class Seize(Model):
    kind: Literal["seize"] = "seize"
    discards: list[str]


class Pass(Model):
    kind: Literal["pass"] = "pass"


class Resolve(CardChoices):
    """Answer a pending `resolve` (a revealed card) or `choose` (Deliberate: name `card`)."""

    kind: Literal["resolve"] = "resolve"
    card: str | None = None


class Reorder(Model):
    kind: Literal["reorder"] = "reorder"
    order: list[str]  # the looked-at cards, new top first


class Discard(Model):
    kind: Literal["discard"] = "discard"
    cards: list[str]


class Reduce(Model):
    """The Score Step's -1 Tension (13 DP or fewer): "you may reduce any one Tension die in
    your City Box by 1"; no box named means the Target Nation's box (the top one)."""

    kind: Literal["reduce"] = "reduce"
    box: str | None = None


class Congress(Model):
    """The last player invites (yes) or not; the others attend (yes) or refuse."""

    kind: Literal["congress"] = "congress"
    yes: bool


class Refresh(Model):
    """The cards discarded from Hand at the Refresh Step (keep at most 6)."""

    kind: Literal["refresh"] = "refresh"
    discards: list[str] = Field(default_factory=list)


CrisisAction = Annotated[
    Draw
    | Play
    | Deliberate
    | Reorganize
    | Seize
    | Pass
    | Resolve
    | Reorder
    | Discard
    | Reduce
    | Congress
    | Refresh,
    Field(discriminator="kind"),
]
ACTION = TypeAdapter(CrisisAction)
