"""The state of a game of Origins of World War I: plain data that round-trips through JSON."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from engine.core import WHOLE, GameState, Model, clone, replaced

Phase = Literal["bidding", "placement", "attacks", "diplomacy", "over"]


class Sheet(Model):
    """A Political Factors Simultaneous Placement Sheet for one country and one turn (§4).

    `place`: new PFs written for each embassy; `remove`: own PFs eliminated there (the
    numbers "crossed with a trait", Phase 4).

    Frozen, so a step's copy of the state shares the sheets: a sheet is written before it
    enters the state (a draft is copied to be changed, rules.py), never in it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    place: dict[str, int] = Field(default_factory=dict)
    remove: dict[str, int] = Field(default_factory=dict)

    def is_empty(self) -> bool:
        return not any(self.place.values()) and not any(self.remove.values())


class Ledger(Model):
    """Where a country's PFs went, so that income = board + bids + eliminated + unplaced.
    Frozen, so a step's copy of the state shares it: `OriginsState.book` replaces it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    income: int = 0
    bids: int = 0
    eliminated: int = 0


class Offer(Model):
    """The highest bid in the one-auction reading of Phase 3: already paid (every bid is
    lost, Phase 3), it moves its card only if no one outbids it."""

    seat: str
    payer: str
    card: str
    position: int
    amount: int


_BY_SEAT = "countries by seat"  # OriginsState.countries_of, kept beside the fields


class OriginsState(GameState):
    holders: dict[str, str]  # country -> seat, in the order countries were dealt
    margin_rule: bool = False
    turn: int = 0  # index into the turn track (0 = October 1913)
    last_turn: bool = False  # decided in Phase 2
    end_roll: int | None = None  # this turn's Phase 2 die, if rolled
    phase: Phase = "bidding"
    # embassy -> country -> PFs there (only positive counts are kept)
    pfs: dict[str, dict[str, int]] = Field(default_factory=dict)
    unplaced: dict[str, int] = Field(default_factory=dict)  # this turn's income not yet placed
    ledger: dict[str, Ledger] = Field(default_factory=dict)
    treaties: dict[str, list[str]] = Field(default_factory=dict)  # embassy -> holders of treaty rights
    order: list[str] = Field(default_factory=list)  # the country cards, top attacks first
    # Phase 3 bidding
    one_auction: bool = False  # the house option: one auction, every bid paid, the winner's card moves
    offer: Offer | None = None  # one_auction: the highest bid so far (paid), whose card moves if it wins
    high_bid: int = 0
    bidder: str | None = None  # the seat whose turn it is to bid or pass
    passes: int = 0  # passes in a row
    # Phase 4: drafts are secret until every sheet is in
    drafts: dict[str, Sheet] = Field(default_factory=dict)
    submitted: list[str] = Field(default_factory=list)  # seats whose sheets are in
    last_sheets: dict[str, Sheet] = Field(default_factory=dict)  # the last revealed sheets
    # Phase 5
    attacker: int = 0  # index into `order`
    attacks_made: int = 0
    embassies_used: list[str] = Field(default_factory=list)
    # Phase 6
    ready: list[str] = Field(default_factory=list)
    provisional: dict[str, int] = Field(default_factory=dict)  # country -> VPs last posted
    final: dict[str, int] | None = None
    # where each country's VPs came from, and when the provisional ones were
    # posted; each scoring puts a new breakdown in place, so a step's copy shares them
    provisional_parts: Annotated[dict[str, list[tuple[str, int]]], WHOLE] = Field(default_factory=dict)
    provisional_when: str = ""
    final_parts: Annotated[dict[str, list[tuple[str, int]]], WHOLE] = Field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> OriginsState:
        # The core copies the state once per action (engine/core/fast.py).
        return clone(self)

    def book(self, country: str, **amounts: int) -> None:
        """Add to a country's Ledger (`bids=2`): it is put in its place with the amounts added."""
        ledger = self.ledger[country]
        self.ledger[country] = replaced(ledger, **{k: getattr(ledger, k) + n for k, n in amounts.items()})

    def countries_of(self, seat: str) -> list[str]:
        """The seat's countries, in the order they were dealt. The rules ask several times a
        step: they are sorted by seat once for this `holders` (held, so another in its place
        is sorted again) and kept beside the fields (not one: never dumped or compared)."""
        kept = self.__dict__.get(_BY_SEAT)
        if kept is None or kept[0] is not self.holders:
            by_seat: dict[str, list[str]] = {}
            for country, holder in self.holders.items():
                by_seat.setdefault(holder, []).append(country)
            kept = self.__dict__[_BY_SEAT] = (self.holders, by_seat)
        return list(kept[1].get(seat, ()))

    def at(self, embassy: str, country: str) -> int:
        return self.pfs.get(embassy, {}).get(country, 0)

    def add(self, embassy: str, country: str, amount: int) -> None:
        here = self.pfs.setdefault(embassy, {})
        left = here.get(country, 0) + amount
        if left:
            here[country] = left
        else:
            here.pop(country, None)
