"""Phase 2, Assignments: Political Favours, Delegates and the Delegation Head."""

from __future__ import annotations

import random

from engine.core import Event, IllegalAction

from .. import actions as A
from ..content import favour_values, nations
from ..pieces import (
    head_at,
    head_targets,
    name,
    seat_of,
)
from ..state import SchonbrunnState


def open_assignments(state: SchonbrunnState, events: list[Event], rng: random.Random) -> None:
    if state.simplified:
        open_assign(state)
        return
    values = list(favour_values())
    rng.shuffle(values)
    state.favours = dict(zip(state.objectives, values, strict=False))
    state.favour_spare = values[len(state.objectives) :]
    state.favours_up = []
    count = state.rounds - state.round + 1  # cards in each pile, this round's included
    if count <= len(state.objectives):
        reveal_favour(state, state.objectives[count - 1], events, "matches the pile size")
    state.stage, state.queue = "favour", [state.master]


def reveal_favour(state: SchonbrunnState, objective: str, events: list[Event], why: str) -> None:
    state.favours_up = [*state.favours_up, objective]
    events.append(
        Event(
            kind="favour",
            text=f"Political Favour of Objective {objective} ({why}): {state.favours[objective]}.",
            reveals=True,
        )
    )


def favour(state: SchonbrunnState, seat: str, action: A.Favour, events: list[Event]) -> None:
    if action.objective not in state.objectives or action.objective in state.favours_up:
        hidden = ", ".join(o for o in state.objectives if o not in state.favours_up)
        raise IllegalAction(f"Reveal a face-down Political Favour: {hidden}.")
    reveal_favour(state, action.objective, events, f"chosen by {name(state, seat)}")


def open_assign(state: SchonbrunnState) -> None:
    state.stage, state.queue = "assign", list(state.hierarchy)
    begin_turn(state)


def begin_turn(state: SchonbrunnState) -> None:
    if state.queue:
        state.assign_step = "down"
        state.assign_left = nations()[state.players[state.queue[0]].nation].face_down_first


def assign(state: SchonbrunnState, seat: str, action: A.Assign, events: list[Event]) -> None:
    # each field read once: a model's attribute costs more than a local's, and this is half
    # of all decisions
    step, objective, value = state.assign_step, action.objective, action.delegate
    if step == "head":
        raise IllegalAction("Decide on your Delegation Head first (`head`, or `head` with no target).")
    if objective not in state.objectives:
        raise IllegalAction(f"Objectives in this game: {', '.join(state.objectives)}.")
    d = state.in_supply(seat, value)  # the first of that Influence
    if d is None:
        raise IllegalAction(f"You have no Delegate of Influence {value} in your supply.")
    up = step == "up"
    placed = state.placed
    state.change(d, place=objective, face_up=up, known=up, order=placed)
    state.placed = placed + 1
    who = name(state, seat)
    if up:
        events.append(Event(kind="assign", text=f"{who} assigns a {value} face up to {objective}.", reveals=True))
    else:
        events.append(Event(kind="assign", text=f"{who} assigns a Delegate face down to {objective}."))
        if state.see_own_face_down:
            events.append(Event(kind="assign", text=f"Your {value} is face down in {objective}.", audience=seat))
    left = state.assign_left - 1
    state.assign_left = left
    if left == 0:
        next_assign_step(state)


def next_assign_step(state: SchonbrunnState) -> None:
    step = state.assign_step
    if step == "down":
        state.assign_step, state.assign_left = ("up", 3) if state.simplified else ("head", 0)
    elif step == "head":
        state.assign_step, state.assign_left = "up", 3
    elif step == "up":
        state.assign_step, state.assign_left = "last", 1
    else:
        state.queue.pop(0)
        begin_turn(state)


def head(state: SchonbrunnState, seat: str, action: A.Head, events: list[Event]) -> None:
    if state.assign_step != "head":
        raise IllegalAction("The Delegation Head is assigned after your face-down Delegates.")
    p = state.players[seat]
    target = action.target
    if target is not None:
        other = seat_of(state, target)
        place = other if other else target
        # head_targets names a screen by its Nation (one a seat), an Objective by itself
        if (state.players[other].nation if other else target) not in head_targets(state, seat):
            raise IllegalAction(head_refusal(state, seat, place))
        nation = nations()[p.nation]
        p = state.change(p, head=place)
        if other:
            if nation.head_power == "free_screen":
                text = (
                    f"{name(state, seat)}'s {nation.head} stands before {name(state, other)}'s screen, free."
                )
            else:
                state.change(p, receptions=p.receptions - 1)
                them = state.players[other]
                state.change(them, receptions=them.receptions + 1)
                text = (
                    f"{name(state, seat)}'s {nation.head} stands before {name(state, other)}'s screen "
                    f"and gives them 1 Reception."
                )
        else:
            state.change(p, receptions=p.receptions - 1)
            text = f"{name(state, seat)} assigns {nation.head} to Objective {place} for 1 Reception."
        events.append(Event(kind="head", text=text))
    else:
        events.append(Event(kind="head", text=f"{name(state, seat)} keeps its Delegation Head."))
    next_assign_step(state)


def head_refusal(state: SchonbrunnState, seat: str, place: str) -> str:
    legal = ", ".join(head_targets(state, seat)) or "none"
    if place == seat:
        return "Your Delegation Head cannot stand before your own screen."
    if head_at(state, place):
        return f"Another Delegation Head already stands there. Legal: {legal}."
    return f"Your Delegation Head cannot go to {place!r} (it costs 1 Reception). Legal: {legal}."
