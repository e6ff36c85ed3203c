"""The state of a game of Origins of World War I: plain data that round-trips through JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.core import GameState, Model, clone

Phase = Literal["bidding", "placement", "attacks", "diplomacy", "over"]


class Sheet(Model):
    """A Political Factors Simultaneous Placement Sheet for one country and one turn (§4).

    `place`: new PFs written for each embassy; `remove`: own PFs eliminated there (the
    numbers "crossed with a trait", Phase 4).
    """

    place: dict[str, int] = Field(default_factory=dict)
    remove: dict[str, int] = Field(default_factory=dict)

    def is_empty(self) -> bool:
        return not any(self.place.values()) and not any(self.remove.values())


class Ledger(Model):
    """Where a country's PFs went, so that income = board + bids + eliminated + unplaced."""

    income: int = 0
    bids: int = 0
    eliminated: int = 0


class Offer(Model):
    """The standing offer of the one-auction reading of Phase 3 (nothing is paid until it wins)."""

    seat: str
    payer: str
    card: str
    position: int
    amount: int


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
    one_auction: bool = False  # the table option: one auction, its winner moves one card
    offer: Offer | None = None  # one_auction: the highest offer so far, paid only if it wins
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
    # where each country's VPs came from (issue 12), and when the provisional ones were posted
    provisional_parts: dict[str, list[tuple[str, int]]] = Field(default_factory=dict)
    provisional_when: str = ""
    final_parts: dict[str, list[tuple[str, int]]] = Field(default_factory=dict)

    def __deepcopy__(self, memo: dict | None = None) -> OriginsState:
        # The core copies the state once per action (engine/core/fast.py).
        return clone(self)

    def countries_of(self, seat: str) -> list[str]:
        return [c for c, s in self.holders.items() if s == seat]

    def at(self, embassy: str, country: str) -> int:
        return self.pfs.get(embassy, {}).get(country, 0)

    def add(self, embassy: str, country: str, amount: int) -> None:
        here = self.pfs.setdefault(embassy, {})
        left = here.get(country, 0) + amount
        if left:
            here[country] = left
        else:
            here.pop(country, None)
