"""Building Schönbrunn positions directly, for the worked-example scenarios."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.schonbrunn import GAME, rules
from engine.schonbrunn.state import SchonbrunnState


def table(nations: list[str], seed: int = 1, **options: Any) -> SchonbrunnState:
    """A new game whose seats are named after their nations, in this table order."""
    state = GAME.setup(list(nations), GAME.Options(**options), seed)
    for seat in nations:
        p = state.players[seat]
        if p.nation:  # dealt another Nation at setup: start as the seat's own Nation would
            dealt = rules.extra_receptions(state, p.nation)
            p = state.change(p, receptions=p.receptions - dealt + rules.extra_receptions(state, seat))
        state.change(p, nation=seat)
    state.delegates = []
    rules._make_delegates(state)
    state.favours = dict.fromkeys(state.objectives, 0)  # placed at Assignments; tests may set them
    return state


def adjust(state: SchonbrunnState, seat: str, **fields: Any) -> None:
    """Set a Player's fields for a scenario (Players are frozen and hold tuples: the state
    replaces them)."""
    state.change(state.players[seat], **{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})


def act(state: SchonbrunnState, seat: str, action: Any) -> tuple[SchonbrunnState, list[str]]:
    new, events = GAME.apply(state, seat, action)
    return new, [e.text for e in events if e.audience is None]


def place(
    state: SchonbrunnState, seat: str, objective: str, values: list[int], face_up: bool = False
) -> None:
    """Move Delegates of these printed values from the supply to an Objective."""
    for v in values:
        d = next(d for d in state.delegates if d.owner == seat and d.place == "supply" and d.value == v)
        state.change(d, place=objective, face_up=face_up, known=face_up, order=state.placed)
        state.placed += 1


def commit(state: SchonbrunnState, seat: str, value: int) -> None:
    d = next(d for d in state.delegates if d.owner == seat and d.place == "supply" and d.value == value)
    state.change(d, place="committed", face_up=True, known=True)
    state.change(state.players[seat], committed=value)


def _exchange(state: SchonbrunnState, a: str, b: str) -> None:
    """Swap two cards wherever each is (a pile, the box, a Player's screen, signed Treaties
    or Nation card), so every card stays accounted for exactly once."""

    def swapped(cards: Sequence[str]) -> list[str]:
        return [b if c == a else a if c == b else c for c in cards]

    for o, pile in state.piles.items():
        state.piles[o] = swapped(pile)
    state.box, state.box_hidden = swapped(state.box), swapped(state.box_hidden)
    for p in list(state.players.values()):
        state.change(
            p, screen=tuple(swapped(p.screen)), signed=tuple(swapped(p.signed)), under=tuple(swapped(p.under))
        )


def top(state: SchonbrunnState, pile: str, card_id: str) -> None:
    """Put a card on top of a pile."""
    _exchange(state, card_id, state.piles[pile][0])


def give(state: SchonbrunnState, seat: str, card_id: str, where: str = "screen") -> None:
    """Hand a player a card; the card it replaces in the box takes its old place."""
    p = state.players[seat]
    spare = next(c for c in state.box + state.box_hidden if c != card_id)
    # new lists, not .remove: a copy of the state shares the box (SchonbrunnState, WHOLE)
    if spare in state.box:
        state.box = [c for c in state.box if c != spare]
    else:
        state.box_hidden = [c for c in state.box_hidden if c != spare]
    state.change(p, **{where: (*getattr(p, where), spare)})
    _exchange(state, card_id, spare)
