"""The "endgame" player of Origins: the basic player (bots.py), bidding only where a bid is
worth its price.

Only the board at the end of the last turn scores (§9), and on the last turn each country
may make 3 attacks (Phase 5): the country that attacks last answers every attack made
before it and is answered by none. So this player passes in every bidding but the last
turn's (a PF bid earlier is a PF lost to the board, Phase 3), and there bids the lowest
amount, up to MAX_BID PFs, to move one of its cards to the bottom of the attack order when
none of its cards is there. Everything else (sheets, attacks) is the basic player's.

Measured against the basic player in docs/balance/origins.md (Issue 16): about 1.1-1.2x
its fair share at 3 and 5 players, within the noise of the samples; tried and dropped in
the same session: writing the sheets against the others' predicted sheets (0.95-1.03x),
threats only from the countries still to attack (0.95-1.03x), bidding for the top
(0.94x), and the search on the last turn only (0.65x)."""

from __future__ import annotations

import random
from typing import Any

from . import bots, placement
from .actions import Bid, Pass
from .state import OriginsState

MAX_BID = 3  # PFs the last word of the last turn is worth (6 led to bidding wars among endgame players)


def choose(state: OriginsState, seat: str, rng: random.Random) -> Any:
    if state.phase == "bidding":
        return bid(state, seat)
    return bots.choose(state, seat, rng)


def bid(state: OriginsState, seat: str) -> Any:
    """Pass, or on the last turn the lowest bid moving the seat's topmost card to the
    bottom of the attack order (when none of its cards is there already)."""
    if not state.last_turn:
        return Pass()
    amount = state.high_bid + 1
    mine = state.countries_of(seat)
    if amount > MAX_BID or state.order[-1] in mine:
        return Pass()
    payer = max(mine, key=lambda c: (placement.funds(state, c), -mine.index(c)))
    if placement.funds(state, payer) < amount:
        return Pass()
    card = min(mine, key=state.order.index)
    return Bid(payer=payer, card=card, position=len(state.order), amount=amount)
