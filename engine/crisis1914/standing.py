"""Standing orders: answers a statesman gives before the decision reaches them
(docs/pacing.md). None is a new rule: each is what the player would answer when asked.

- `keep`: at this Week's Refresh Step keep my Hand (if it holds 6 cards or fewer).
- `pass_next`: Pass at my next turn in this Week's Play Step (the card just played was my
  last one this Week).
"""

from __future__ import annotations

from typing import Any

from engine.core import StandingOrder
from engine.core.chance import certain

from . import actions as a
from . import bots, weeks
from .state import CrisisState

ORDERS = (
    StandingOrder("keep", "at this Week's Refresh keep my Hand (if it holds 6 cards or fewer)"),
    StandingOrder("pass_next", "Pass at my next turn in this Week's Play Step"),
)


def scope(state: CrisisState, seat: str, order: str) -> str | None:
    p = state.player_of(seat)
    if p is None or state.phase == "over":
        return None
    if order == "keep":
        return f"week {state.week}"
    if order == "pass_next" and state.phase in ("first_draw", "play") and not p.passed:
        return f"week {state.week}"
    return None


def action(state: CrisisState, seat: str, order: str) -> Any | None:
    p = state.player_of(seat)
    if p is None:
        return None
    if order == "keep":
        if (
            state.phase == "refresh"
            and p.nation in weeks.refresh_waiting(state)
            and len(p.hand) <= weeks.HAND_MAX
        ):
            return a.Refresh()
        return None
    if order == "pass_next" and state.phase == "play" and state.actor == p.nation and not state.pending:
        return a.Pass()
    return None


# -- what the pacing model's players leave (docs/pacing.md) ----------------------------------


def after(state: CrisisState, seat: str, chosen: Any) -> list[str]:
    """Ending one's Play Step, one knows whether one will discard at the Refresh."""
    return ["keep"] if isinstance(chosen, a.Pass) else []


def ahead(state: CrisisState, seat: str) -> list[str]:
    """A statesman whose next turn the automatic player would surely Pass, whatever its dice
    of chance say (a full Tableau; no card that fits the Tension it can bear, and no Draw it
    would risk), leaves `pass_next`, and `keep` with it."""
    p = state.player_of(seat)
    if p is None or state.phase != "play" or p.passed or state.pending or state.actor == p.nation:
        return []
    if isinstance(certain(lambda rng: bots.bot_action(state, seat, rng)), a.Pass):
        return ["pass_next", "keep"]
    return []
