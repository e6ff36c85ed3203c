"""Phase 4, Chancellery: Delegation Heads before a screen, then Foreign Ministers."""

from __future__ import annotations

from engine.core import Event, IllegalAction

from .. import actions as A
from ..pieces import (
    face_up_of,
    head_target_seat,
    minister_objectives,
    move_destinations,
    name,
)
from ..state import SchonbrunnState


def move(state: SchonbrunnState, seat: str, action: A.Move, events: list[Event]) -> None:
    other = head_target_seat(state, seat)
    assert other is not None
    d = next(
        (d for d in face_up_of(state, other) if d.place == action.objective and d.value == action.delegate),
        None,
    )
    if d is None:
        raise IllegalAction(f"{name(state, other)} has no face-up {action.delegate} in {action.objective}.")
    dests = move_destinations(state, other, action.objective)
    if dests and action.to not in dests:
        raise IllegalAction(
            f"Move it to an Objective where {name(state, other)} has Delegates: {', '.join(dests)}."
        )
    if not dests and action.to is not None:
        raise IllegalAction(f"{name(state, other)} has no Delegates elsewhere: the Delegate must be removed.")
    if action.to:
        d = state.change(d, place=action.to, order=state.placed)
        state.placed += 1
        text = f"moves the {name(state, other)} {d.value} from {action.objective} to {action.to}"
    else:
        d = state.change(d, place="supply", face_up=False)
        text = f"removes the {name(state, other)} {d.value} from {action.objective}"
    events.append(Event(kind="move", text=f"{name(state, seat)}'s Delegation Head {text}."))


def minister(state: SchonbrunnState, seat: str, action: A.Minister, events: list[Event]) -> None:
    if action.objective is None:
        events.append(Event(kind="minister", text=f"{name(state, seat)} keeps its Foreign Minister."))
        return
    if action.objective not in minister_objectives(state, seat):
        legal = ", ".join(minister_objectives(state, seat))
        raise IllegalAction(f"Your Foreign Minister goes where you still have a Delegate: {legal}.")
    state.change(state.players[seat], minister=action.objective)
    events.append(
        Event(
            kind="minister", text=f"{name(state, seat)} assigns its Foreign Minister to {action.objective}."
        )
    )
