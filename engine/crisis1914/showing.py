"""What a Crisis: 1914 player may show of their own: the cards in their Hand, whose faces
"should only be visible to the player who owns them" (rulebook, Hand); and the game's
calendar of Weeks, for a pact's `until` (engine/core/showing.py)."""

from __future__ import annotations

from engine.core import Period, Showable

from .cards import card
from .state import CrisisState
from .views import card_view
from .weeks import LAST_WEEK

__all__ = ["showable", "period"]


def showable(state: CrisisState, seat: str) -> list[Showable]:
    """Each card in the seat's Hand, with its DP for that player now and its full text."""
    me = state.player_of(seat)
    if me is None or state.phase == "over":
        return []
    return [
        Showable(name=card(c).name, text=card_view(state, me, c)["text"], kind="card in Hand")
        for c in me.hand
    ]


def period(state: CrisisState) -> Period | None:
    if state.phase == "over":
        return None
    return Period(word="Week", number=state.week, last=LAST_WEEK, words=("week",))
