"""Phase 3: the attack order, shuffled country cards rearranged by bidding PFs."""

from __future__ import annotations

from engine.core import Event, IllegalAction

from . import content
from .placement import funds
from .state import OriginsState


def can_bid(state: OriginsState, seat: str) -> bool:
    """Can any of the seat's countries pay more than the last bid?"""
    return any(funds(state, c) > state.high_bid for c in state.countries_of(seat))


def start(state: OriginsState) -> list[Event]:
    """Bidding opens with the holder of the bottom card (Phase 3)."""
    state.phase = "bidding"
    state.high_bid = 0
    state.passes = 0
    state.bidder = state.holders[state.order[-1]]
    if not can_bid(state, state.bidder):
        state.passes = 1
        return _next(state)
    return []


def bid(state: OriginsState, seat: str, payer: str, card: str, position: int, amount: int) -> list[Event]:
    names = content.names()
    if payer not in state.countries_of(seat):
        raise IllegalAction(f"You do not hold {names.get(payer, payer)}; bid with one of your countries.")
    if card not in state.order:
        raise IllegalAction(f"There is no {names.get(card, card)} card in the attack order.")
    if not 1 <= position <= len(state.order):
        raise IllegalAction(f"Position must be from 1 (top) to {len(state.order)}, not {position}.")
    if state.order.index(card) == position - 1:
        raise IllegalAction(f"{names[card]} is already at position {position}; a bid must move the card.")
    if amount <= state.high_bid or amount < 1:
        raise IllegalAction(f"A bid must be at least {state.high_bid + 1} PF (higher than the last bid).")
    have = funds(state, payer)
    if amount > have:
        raise IllegalAction(
            f"{names[payer]} can bid at most {have} PFs (this turn's unplaced income and its own embassy)."
        )
    from_income = min(amount, state.unplaced[payer])
    state.unplaced[payer] -= from_income
    if amount > from_income:
        state.add(payer, payer, -(amount - from_income))
    state.ledger[payer].bids += amount  # lost whatever the final order (Phase 3)
    state.order.remove(card)
    state.order.insert(position - 1, card)
    state.high_bid = amount
    state.passes = 0
    order = ", ".join(names[c] for c in state.order)
    events = [
        Event(
            kind="bid",
            text=f"{names[payer]} bids {amount} PF to move {names[card]} to position {position}. Order: {order}.",
            data={"payer": payer, "card": card, "position": position, "amount": amount},
        )
    ]
    return events + _next(state)


def pass_(state: OriginsState, seat: str) -> list[Event]:
    names = content.names()
    who = " & ".join(names[c] for c in state.countries_of(seat))
    state.passes += 1
    return [Event(kind="pass", text=f"{who} passes in the bidding.")] + _next(state)


def _next(state: OriginsState) -> list[Event]:
    """The next player round the table; one who cannot outbid passes by necessity.
    Bidding ends when every player has passed in a row."""
    seats = state.seats
    i = seats.index(state.bidder) if state.bidder else 0
    while state.passes < len(seats):
        i = (i + 1) % len(seats)
        if can_bid(state, seats[i]):
            state.bidder = seats[i]
            return []
        state.passes += 1
    state.bidder = None
    state.phase = "placement"
    state.drafts = {}
    state.submitted = []
    names = content.names()
    order = ", ".join(names[c] for c in state.order)
    return [Event(kind="order", text=f"Attack order: {order}.", data={"order": list(state.order)})]
