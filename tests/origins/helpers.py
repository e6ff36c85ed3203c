"""Setting positions up directly for the scenario tests."""

from __future__ import annotations

import random

from engine.origins import GAME, scoring
from engine.origins.state import OriginsState


class Dice(random.Random):
    """A generator whose die rolls are scripted (everything else is seeded)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def new_game(players: int = 5, seed: int = 1, **options) -> OriginsState:
    return GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(**options), seed)


def seat_of(state: OriginsState, country: str) -> str:
    return state.holders[country]


def position(state: OriginsState, pfs: dict[str, dict[str, int]]) -> OriginsState:
    """Put the given PFs on the board (embassy -> country -> PFs), keeping the ledger true:
    the PFs count as income already received."""
    state.pfs = {e: {c: n for c, n in here.items() if n} for e, here in pfs.items()}
    for country, ledger in list(state.ledger.items()):
        on_board = sum(here.get(country, 0) for here in state.pfs.values())
        income = ledger.bids + ledger.eliminated + state.unplaced.get(country, 0) + on_board
        state.ledger[country] = ledger.model_copy(update={"income": income})
    state.treaties = scoring.treaty_rights(state)
    return state


def finish_bidding(state: OriginsState) -> OriginsState:
    """Everyone passes until the placement phase."""
    while state.phase == "bidding":
        state, _ = GAME.apply(state, state.bidder, {"kind": "pass"})
    return state


def submit_all(state: OriginsState, sheets: dict[str, dict] | None = None) -> tuple[OriginsState, list]:
    """Hand in every seat's sheets: `sheets` maps country -> Sheet data (others empty)."""
    sheets = sheets or {}
    events: list = []
    for seat in state.seats:
        mine = {c: sheets[c] for c in state.countries_of(seat) if c in sheets}
        state, ev = GAME.apply(state, seat, {"kind": "submit", "sheets": mine})
        events += ev
    return state, events


def to_attacks(state: OriginsState, attacker: str, order: list[str] | None = None) -> OriginsState:
    """Jump straight to Phase 5 with `attacker` to move (no income left to place)."""
    state.phase = "attacks"
    if order:
        state.order = order
    state.attacker = state.order.index(attacker)
    state.attacks_made = 0
    state.embassies_used = []
    for country in state.unplaced:
        state.book(country, income=-state.unplaced[country])
        state.unplaced[country] = 0
    return state
