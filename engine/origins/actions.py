"""The orders a player gives, one model per kind (a discriminated union on `kind`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from engine.core import Model

from .state import Sheet


class Order(Model):
    """Frozen: `legal_actions` hands out the same order each time it lists it."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Bid(Order):
    """Phase 3: pay `amount` PFs of `payer` to move the card of `card` to `position` (1 = top)."""

    kind: Literal["bid"] = "bid"
    payer: str
    card: str
    position: int
    amount: int


class Pass(Order):
    kind: Literal["pass"] = "pass"


class Place(Order):
    """Phase 4: write `amount` new PFs of `country` for `embassy` on the draft (0 clears it)."""

    kind: Literal["place"] = "place"
    country: str
    embassy: str
    amount: int


class Remove(Order):
    """Phase 4: write `amount` of `country`'s PFs in `embassy` to eliminate (0 clears it)."""

    kind: Literal["remove"] = "remove"
    country: str
    embassy: str
    amount: int


class WriteSheet(Order):
    """Phase 4: replace a draft with the one-line form, e.g. "SER 5, ROM 3, FE 2, -GER 2"."""

    kind: Literal["sheet"] = "sheet"
    country: str
    text: str


class Submit(Order):
    """Phase 4: hand in every sheet of the seat. `sheets` (if given) replaces the drafts
    first; a country missing from it hands in an empty sheet."""

    kind: Literal["submit"] = "submit"
    sheets: dict[str, Sheet] | None = None


class Attack(Order):
    """Phase 5: attack in `embassy` with all of the country's PFs there, `split` between
    defenders (defender -> attacking PFs), resolved in the order given."""

    kind: Literal["attack"] = "attack"
    embassy: str
    split: dict[str, int]


class Done(Order):
    """Phase 5: the country makes no more attacks this turn."""

    kind: Literal["done"] = "done"


class Ready(Order):
    """Phase 6: this player is finished with diplomacy."""

    kind: Literal["ready"] = "ready"


OriginsAction = Annotated[
    Bid | Pass | Place | Remove | WriteSheet | Submit | Attack | Done | Ready,
    Field(discriminator="kind"),
]
ACTION = TypeAdapter(OriginsAction)
