"""Building Schönbrunn positions directly, for the worked-example scenarios."""

from __future__ import annotations

from typing import Any

from engine.schonbrunn import GAME, rules
from engine.schonbrunn.state import SchonbrunnState


def table(nations: list[str], seed: int = 1, **options: Any) -> SchonbrunnState:
    """A new game whose seats are named after their nations, in this table order."""
    state = GAME.setup(list(nations), GAME.Options(**options), seed)
    for seat in nations:
        state.players[seat].nation = seat
    state.delegates = []
    rules._make_delegates(state)
    state.favours = dict.fromkeys(state.objectives, 0)  # placed at Assignments; tests may set them
    return state


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
    state.players[seat].committed = value


def _swap(state: SchonbrunnState, card_id: str, into: list[str], index: int) -> None:
    """Exchange a card with the one at into[index], wherever it is, so every card stays
    accounted for exactly once."""
    holders = [*state.piles.values(), state.box, state.box_hidden]
    holders += [c for p in state.players.values() for c in (p.screen, p.signed, p.under)]
    for cards in holders:
        if card_id in cards:
            i = cards.index(card_id)
            cards[i], into[index] = into[index], cards[i]
            return
    raise AssertionError(card_id)


def top(state: SchonbrunnState, pile: str, card_id: str) -> None:
    """Put a card on top of a pile."""
    _swap(state, card_id, state.piles[pile], 0)


def give(state: SchonbrunnState, seat: str, card_id: str, where: str = "screen") -> None:
    """Hand a player a card; the card it replaces in the box takes its old place."""
    held = getattr(state.players[seat], where)
    spare = next(c for c in state.box + state.box_hidden if c != card_id)
    (state.box if spare in state.box else state.box_hidden).remove(spare)
    held.append(spare)
    _swap(state, card_id, held, len(held) - 1)
