"""Phase 1, Hierarchy, and the auction for the Nations (a variant played before it)."""

from __future__ import annotations

from engine.core import Event, IllegalAction
from engine.core.words import counted

from .. import actions as A
from ..content import card, nations
from ..pieces import (
    gain_prestige,
    name,
    seat_of,
    spend_limit,
    worth,
)
from ..state import SchonbrunnState


def resolve_bids(state: SchonbrunnState, events: list[Event]) -> None:
    n = len(state.seats)
    m = state.seats.index(state.master)

    def distance(seat: str) -> int:  # anticlockwise (towards the right) from the Master
        return (m - state.seats.index(seat)) % n

    order = sorted(state.seats, key=lambda s: (-(state.players[s].bid or 0), distance(s)))
    shown = ", ".join(f"{name(state, s)} {state.players[s].bid}" for s in order)
    events.append(Event(kind="bids", text=f"Auction bids revealed: {shown}.", reveals=True))
    state.choose_order = order
    state.stage, state.queue = "choose", list(order)


def reveal_commits(state: SchonbrunnState, events: list[Event]) -> None:
    groups: dict[int, list[str]] = {}
    committed = {d.owner: d for d in state.delegates if d.place == "committed"}
    for seat in state.seats:
        d = state.change(committed[seat], face_up=True, known=True)
        state.change(state.players[seat], committed=worth(state, d))
        groups.setdefault(worth(state, d), []).append(seat)
    shown = ", ".join(f"{name(state, s)} {state.players[s].committed}" for s in state.seats)
    events.append(Event(kind="commits", text=f"Hierarchy Delegates revealed: {shown}.", reveals=True))
    state.tie_groups = [groups[v] for v in sorted(groups)]
    ask_tiebreak(state, events)


def tie_resolver(state: SchonbrunnState, group: list[str]) -> str:
    """The Master of Ceremonies, unless Austria (its Nation ability) is in the tie."""
    for seat in group:
        if nations()[state.players[seat].nation].ability == "hierarchy_ties":
            return seat
    return state.master


def ask_tiebreak(state: SchonbrunnState, events: list[Event]) -> None:
    for group in state.tie_groups:
        if len(group) > 1:
            state.stage = "tiebreak"
            state.queue = [tie_resolver(state, group)]
            return
    state.hierarchy = [g[0] for g in state.tie_groups]
    state.tie_groups = []
    state.master = state.hierarchy[0]  # the token goes to position 1
    order = ", ".join(f"{i + 1}. {name(state, s)}" for i, s in enumerate(state.hierarchy))
    events.append(
        Event(
            kind="hierarchy",
            text=f"Hierarchy: {order}. Master of Ceremonies: {name(state, state.master)}.",
            reveals=True,
        )
    )
    state.stage, state.queue = "tiebreak", []


def open_signing(state: SchonbrunnState, events: list[Event]) -> None:
    state.stage, state.queue = "sign", list(state.hierarchy)


def tiebreak(state: SchonbrunnState, seat: str, action: A.TieBreak, events: list[Event]) -> None:
    i, group = next((i, g) for i, g in enumerate(state.tie_groups) if len(g) > 1)
    chosen = [seat_of(state, n) for n in action.order]
    if sorted(s for s in chosen if s) != sorted(group) or len(chosen) != len(group):
        names = ", ".join(name(state, s) for s in group)
        raise IllegalAction(f"Order exactly the tied nations: {names}.")
    state.tie_groups = [*state.tie_groups[:i], *([s] for s in chosen if s), *state.tie_groups[i + 1 :]]
    text = " ahead of ".join(name(state, s) for s in chosen if s)
    events.append(Event(kind="tiebreak", text=f"{name(state, seat)} breaks the tie: {text}."))
    ask_tiebreak(state, events)


def sign(state: SchonbrunnState, seat: str, action: A.Sign, events: list[Event]) -> None:
    p = state.players[seat]
    for t in action.treaties:
        if t not in p.screen or card(t).type != "treaty":
            raise IllegalAction(f"You hold no unsigned Treaty {t!r} behind your screen.")
    if len(set(action.treaties)) != len(action.treaties):
        raise IllegalAction("Name each Treaty once.")
    state.change(
        p,
        screen=tuple(c for c in p.screen if c not in action.treaties),
        signed=(*p.signed, *action.treaties),
    )
    for t in action.treaties:
        c = card(t)
        events.append(Event(kind="sign", text=f"{name(state, seat)} signs {c.name}: {c.text}", reveals=True))
    if not action.treaties:
        events.append(Event(kind="sign", text=f"{name(state, seat)} signs no Treaty."))


def spend(state: SchonbrunnState, seat: str, action: A.Spend, events: list[Event]) -> None:
    p = state.players[seat]
    most = spend_limit(state, seat)
    if not 0 <= action.receptions <= most:
        raise IllegalAction(f"Spend between 0 and {most} Receptions (your Hierarchy Delegate's Influence).")
    state.change(p, receptions=p.receptions - action.receptions)
    gain_prestige(state, seat, "Receptions spent", action.receptions)
    events.append(
        Event(
            kind="spend",
            text=f"{name(state, seat)} spends {counted(action.receptions, 'Reception')} "
            f"for {action.receptions} Prestige.",
        )
    )
