"""Phase 3: the attack order, shuffled country cards rearranged by bidding PFs."""

from __future__ import annotations

from engine.core import Event, IllegalAction
from engine.core.words import counted

from . import content
from .placement import funds
from .state import Offer, OriginsState


def can_bid(state: OriginsState, seat: str) -> bool:
    """Can any of the seat's countries pay more than the last bid?"""
    return any(funds(state, c) > state.high_bid for c in state.countries_of(seat))


def start(state: OriginsState) -> list[Event]:
    """Bidding opens with the holder of the bottom card (Phase 3)."""
    state.phase = "bidding"
    state.offer = None
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
            f"{names[payer]} can bid at most {counted(have, 'PF')} (this turn's unplaced income and its own embassy)."
        )
    if state.one_auction:
        # one auction (house reading): every bid is paid at once and lost whatever the final
        # order (Phase 3), but it only stands as the offer to beat; when every other player
        # has passed in a row, the highest offer alone moves its card
        _pay(state, payer, amount)
        state.offer = Offer(seat=seat, payer=payer, card=card, position=position, amount=amount)
        text = (
            f"{names[payer]} bids {amount} PF (paid, and lost whatever the outcome) to move "
            f"{names[card]} to position {position}; the highest bid moves its card when the bidding ends."
        )
        return [
            Event(
                kind="bid",
                text=text,
                data={"payer": payer, "card": card, "position": position, "amount": amount},
            )
        ] + _next(state)
    _pay(state, payer, amount)
    return [_move(state, payer, card, position, amount)] + _next(state)


def _pay(state: OriginsState, payer: str, amount: int) -> None:
    """A bid is paid from unplaced income first, then from the own embassy, and is lost
    whatever the final order (Phase 3); it is the highest bid so far."""
    from_income = min(amount, state.unplaced[payer])
    state.unplaced[payer] -= from_income
    if amount > from_income:
        state.add(payer, payer, -(amount - from_income))
    state.book(payer, bids=amount)
    state.high_bid = amount
    state.passes = 0


def _move(state: OriginsState, payer: str, card: str, position: int, amount: int, won: bool = False) -> Event:
    """Move the card a bid paid for; `won`: the one auction's highest bid, paid when it was made."""
    names = content.names()
    state.order.remove(card)
    state.order.insert(position - 1, card)
    order = ", ".join(names[c] for c in state.order)
    if won:
        what = f"The auction is won: {names[payer]}'s bid of {amount} PF moves {names[card]}"
    else:
        what = f"{names[payer]} bids {amount} PF to move {names[card]}"
    return Event(
        kind="bid",
        text=f"{what} to position {position}. Order: {order}.",
        data={"payer": payer, "card": card, "position": position, "amount": amount},
    )


def pass_(state: OriginsState, seat: str) -> list[Event]:
    names = content.names()
    held = state.countries_of(seat)
    who = " & ".join(names[c] for c in held)
    state.passes += 1
    verb = "pass" if len(held) > 1 else "passes"  # one player's two countries: "France & Russia pass"
    return [Event(kind="pass", text=f"{who} {verb} in the bidding.")] + _next(state)


def _next(state: OriginsState) -> list[Event]:
    """The next player round the table; one who cannot outbid passes by necessity.
    Bidding ends when every player has passed in a row."""
    seats = state.seats
    i = seats.index(state.bidder) if state.bidder else 0
    high = state.offer.seat if state.offer is not None else None
    # one auction: the highest bidder does not outbid itself; the others pass in a row
    needed = len(seats) - (1 if high is not None else 0)
    while state.passes < needed:
        i = (i + 1) % len(seats)
        if seats[i] == high:
            continue
        if can_bid(state, seats[i]):
            state.bidder = seats[i]
            return []
        state.passes += 1
    state.bidder = None
    events: list[Event] = []
    if state.offer is not None:  # one auction: the highest bid, already paid, moves its card
        won, state.offer = state.offer, None
        events = [_move(state, won.payer, won.card, won.position, won.amount, won=True)]
    state.phase = "placement"
    state.drafts = {}
    state.submitted = []
    names = content.names()
    order = ", ".join(names[c] for c in state.order)
    return events + [Event(kind="order", text=f"Attack order: {order}.", data={"order": list(state.order)})]
