"""Phase 3, Plot."""

from __future__ import annotations

from engine.core import Event, IllegalAction
from engine.core.words import counted

from .. import actions as A
from ..content import nations, plot_reach
from ..pieces import (
    face_down_at,
    name,
    plottable,
    seat_of,
    worth,
)
from ..state import SchonbrunnState


def plot(state: SchonbrunnState, seat: str, action: A.Plot, events: list[Event]) -> None:
    p = state.players[seat]
    other = seat_of(state, action.nation)
    if other is None or other == seat:
        raise IllegalAction("Plot against an opposing nation.")
    if not 1 <= action.receptions <= min(4, p.receptions):
        raise IllegalAction(f"Spend between 1 and {min(4, p.receptions)} Receptions on a Plot.")
    reach = plottable(state, other).get(action.objective, 0) if action.objective in state.objectives else 0
    if not 1 <= action.index <= reach:  # not one of plot_targets(state, seat)
        if (
            state.players[other].head == action.objective
            and nations()[state.players[other].nation].head_power == "plot_shield"
        ):
            raise IllegalAction(
                f"{nations()[state.players[other].nation].head} protects the "
                f"{name(state, other)} Delegates in {action.objective}."
            )
        raise IllegalAction(
            f"{name(state, other)} has no face-down Delegate number {action.index} in {action.objective}."
        )
    target = face_down_at(state, other, action.objective)[action.index - 1]
    p = state.change(p, receptions=p.receptions - action.receptions)
    strength = action.receptions + (1 if nations()[p.nation].ability == "cheap_plots" else 0)
    removed = worth(state, target) <= plot_reach(strength)
    target = state.change(target, known=True)
    if removed:
        target = state.change(target, place="supply", face_up=False)
        outcome = "removed behind its screen"
    else:
        target = state.change(target, face_up=True)
        outcome = "it stays, face up"
    events.append(
        Event(
            kind="plot",
            reveals=True,
            text=(
                f"{name(state, seat)} plots against {name(state, other)} in {action.objective} with "
                f"{counted(action.receptions, 'Reception')} and reveals a {target.value}: {outcome}."
            ),
        )
    )
