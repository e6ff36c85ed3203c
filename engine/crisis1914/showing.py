"""What a Crisis: 1914 player may show of their own: the cards in their Hand, whose faces
"should only be visible to the player who owns them" (rulebook, Hand), and the top cards of
their Draw Pile they looked at with Reorganize (rulebook, Reorganize); and the game's
calendar of Weeks, for a pact's `until` (engine/core/showing.py)."""

from __future__ import annotations

from engine.core import Period, Showable

from .cards import card
from .state import CrisisState
from .views import card_view
from .weeks import LAST_WEEK

__all__ = ["showable", "period"]


def showable(state: CrisisState, seat: str) -> list[Showable]:
    """Each card in the seat's Hand, then each top card of its Draw Pile it has seen, with
    its DP for that player now and its full text."""
    me = state.player_of(seat)
    if me is None or state.phase == "over":
        return []
    hand = [
        Showable(name=card(c).name, text=card_view(state, me, c).text, kind="card in Hand")
        for c in me.hand
    ]
    # the top cards of the Draw Pile its owner looked at (Reorganize), in their order
    seen = [
        Showable(
            name=card(c).name,
            text=card_view(state, me, c).text,
            kind=f"card {i} from the top of the Draw Pile, seen with Reorganize",
        )
        for i, c in enumerate(me.draw[: me.known], 1)
    ]
    return hand + seen


def period(state: CrisisState) -> Period | None:
    if state.phase == "over":
        return None
    return Period(word="Week", number=state.week, last=LAST_WEEK, words=("week",))
