"""Activating signed Treaties (in Assignments or in Congress, as the card says)."""

from __future__ import annotations

from engine.core import Event, IllegalAction

from .. import actions as A
from ..content import card
from ..pieces import (
    delegates_at,
    gain_prestige,
    name,
    objectives_with_delegates,
    seat_of,
    unshown_aids,
)
from ..state import Marker, SchonbrunnState


def activate(state: SchonbrunnState, seat: str, action: A.Activate, events: list[Event]) -> None:
    p = state.players[seat]
    if action.treaty not in p.signed:
        raise IllegalAction("Activate a Treaty you have signed.")
    c = card(action.treaty)
    if action.treaty in p.activated:
        raise IllegalAction(f"{c.name} is already active this round.")
    timing = "congress" if state.stage == "activate" else "assignments"
    if c.timing != timing:
        raise IllegalAction(f"{c.name} is activated in {c.timing or 'no phase'}.")
    if state.stage == "activate" and state.treaty_queue[:1] != [action.treaty]:
        raise IllegalAction("Treaties are activated in order of priority.")
    if action.pay == "minister":
        if p.minister is not None:
            raise IllegalAction("Your Foreign Minister is already assigned.")
    elif action.pay not in unshown_aids(state, seat):
        raise IllegalAction(
            "Pay with an Aid behind your screen not yet revealed this round, or the minister."
        )
    opponents: list[tuple[str, str]] = []
    if c.marker:
        allowed = state.objectives if timing == "assignments" else objectives_with_delegates(state, seat)
        if action.objective not in allowed:
            raise IllegalAction(f"Place the marker in one of: {', '.join(allowed) or 'none'}.")
    if c.minus:
        legal = {
            (s, o) for s in state.seats if s != seat for o in state.objectives if delegates_at(state, s, o)
        }
        opponents = [(seat_of(state, t.nation) or "", t.objective) for t in action.targets]
        if any(t not in legal for t in opponents):
            raise IllegalAction("The '-1' markers go to opposing delegations on the board.")
        if len(opponents) != (c.minus if legal else 0):
            raise IllegalAction(f"Distribute exactly {c.minus} '-1' markers.")
    if action.pay == "minister":
        p = state.change(p, minister="treaty")
        paid = "assigning the Foreign Minister"
    else:
        p = state.change(p, shown_aids=(*p.shown_aids, action.pay))
        paid = f"revealing the Aid {card(action.pay).name}"
    gained = 0 if state.simplified else c.receptions
    state.change(p, activated=(*p.activated, action.treaty), receptions=p.receptions + gained)
    gain_prestige(state, seat, f"{c.name} activated", c.prestige)
    placed = [Marker(owner=other, objective=objective, value=-1, source=c.id) for other, objective in opponents]
    if c.marker:
        placed.insert(0, Marker(owner=seat, objective=action.objective or "", value=c.marker, source=c.id))
    state.markers = [*state.markers, *placed]
    events.append(
        Event(
            kind="activate", reveals=True, text=f"{name(state, seat)} activates {c.name} by {paid}: {c.text}"
        )
    )
    if state.stage == "activate":
        state.treaty_queue = state.treaty_queue[1:]
        queue_next_treaty(state)


def queue_next_treaty(state: SchonbrunnState) -> None:
    state.queue = [treaty_owner(state, state.treaty_queue[0])] if state.treaty_queue else []


def treaty_owner(state: SchonbrunnState, treaty: str) -> str:
    return next(s for s, p in state.players.items() if treaty in p.signed)
