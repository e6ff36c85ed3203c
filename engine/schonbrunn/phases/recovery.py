"""Phase 6, Recovery: pieces return, Treaties kept, Allies become markers."""

from __future__ import annotations

from functools import lru_cache

from engine.core import Event, IllegalAction

from ..content import card
from ..pieces import (
    aids_held,
    name,
)
from ..state import Delegate, SchonbrunnState


def recover(state: SchonbrunnState, events: list[Event]) -> None:
    state.delegates = [behind_screen(d.id, d.owner, d.value) for d in state.delegates]
    state.markers, state.favours, state.favours_up, state.favour_spare = [], {}, [], []
    for p in list(state.players.values()):
        if p.head is not None or p.minister is not None:  # a new Player only where one changes
            state.change(p, head=None, minister=None)
    events.append(Event(kind="recovery", text="Recovery: every piece returns behind its screen."))
    if not state.lasting_allies:
        # the FAQ: Ally markers are "played once and then discarded", with the Delegates
        # they served this round (schonbrunn-facts.md §6; docs/rulings.md, Schönbrunn 21)
        for seat, p in list(state.players.items()):
            if p.ally_markers:
                used = "+".join(map(str, p.ally_markers))
                state.change(p, ally_markers=())
                events.append(
                    Event(
                        kind="ally",
                        text=f"{name(state, seat)}'s Ally markers ({used}) are used up and discarded.",
                    )
                )
    state.stage, state.queue = "keep", list(state.hierarchy)


@lru_cache(maxsize=4096)
def behind_screen(delegate: str, owner: str, value: int) -> Delegate:
    """The Delegate back in its owner's supply, face down, unknown and unplaced (as setup
    makes it): made once and shared, since Delegates are frozen, where the Recovery would
    otherwise make all of them anew each round."""
    return Delegate(id=delegate, owner=owner, value=value)


def keep(
    state: SchonbrunnState, seat: str, treaties: list[str], aids: list[str], events: list[Event]
) -> None:
    p = state.players[seat]
    if len(treaties) != len(aids) or len(set(treaties)) != len(treaties) or len(set(aids)) != len(aids):
        raise IllegalAction("Discard exactly one different Aid for each Treaty you keep.")
    if any(t not in p.signed for t in treaties):
        raise IllegalAction("Keep only Treaties you signed.")
    if any(a not in aids_held(state, seat) for a in aids):
        raise IllegalAction("Discard only Aids behind your screen.")
    # the discarded Aids go under the Nation card, then each signed Treaty behind the
    # screen if kept, under the Nation card if not (nothing moves for a seat that signed none)
    dropped = [t for t in p.signed if t not in treaties]
    if p.signed or aids:
        state.change(
            p,
            screen=(*(c for c in p.screen if c not in aids), *(t for t in p.signed if t in treaties)),
            under=(*p.under, *aids, *dropped),
            signed=(),
        )
    if dropped:
        names = ", ".join(card(t).name for t in dropped)
        events.append(Event(kind="discard", text=f"{name(state, seat)} discards {names} at Recovery (not kept)."))
    if treaties:
        kept = ", ".join(
            f"{card(t).name} (discarding {card(a).name})" for t, a in zip(treaties, aids, strict=True)
        )
        events.append(Event(kind="keep", text=f"{name(state, seat)} keeps {kept}.", reveals=True))


def convert_allies(state: SchonbrunnState, events: list[Event]) -> None:
    for seat, p in list(state.players.items()):
        for ally in p.allies_this_round:
            c = card(ally)
            if c.end:  # Portugal and Poland stay behind the screen for the final scoring
                continue
            held = [card(a).symbol for a in aids_held(state, seat)]
            value = c.marker
            if c.bonus and (held if c.bonus_symbol == "any" else c.bonus_symbol in held):
                value += c.bonus
            p = state.change(
                p,
                screen=tuple(x for x in p.screen if x != ally),
                under=(*p.under, ally),
                ally_markers=(*p.ally_markers, value),
            )
            events.append(
                Event(
                    kind="ally",
                    reveals=True,
                    text=f"{name(state, seat)} exchanges {c.name} for an Ally marker of {value}.",
                )
            )
        if p.allies_this_round:
            state.change(p, allies_this_round=())
