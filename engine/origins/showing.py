"""What an Origins of World War I player may show of their own: during Phase 4, each of
their countries' secret placement sheets as it stands (written "secretly", then "revealed
simultaneously", rulebook Phase 4); and the game's calendar of turns (months), for a
pact's `until` (engine/core/showing.py)."""

from __future__ import annotations

from engine.core import Period, Showable

from . import content, placement
from .state import OriginsState, Sheet

__all__ = ["showable", "period"]


def showable(state: OriginsState, seat: str) -> list[Showable]:
    """Each of the seat's countries' placement sheets while sheets are secret (Phase 4);
    nothing else an Origins player holds is hidden (the board, bids and income are public)."""
    if state.phase != "placement" or seat not in state.seats:
        return []
    names = content.names()
    out = []
    for country in state.countries_of(seat):
        sheet = state.drafts.get(country, Sheet())
        line = placement.sheet_line(sheet)
        written = placement.sheet_words(line) if not sheet.is_empty() else "nothing written yet"
        handed = "handed in" if seat in state.submitted else "not yet handed in"
        out.append(
            Showable(
                name=f"{names[country]} sheet",
                text=f"{names[country]}'s placement sheet ({handed}): {written}.",
                kind="placement sheet",
            )
        )
    return out


def period(state: OriginsState) -> Period | None:
    if state.phase == "over":
        return None
    turns = content.board().turns
    return Period(
        word="Turn",
        number=state.turn + 1,
        last=len(turns),
        words=("turn", "round"),
        names=tuple(t.label for t in turns),
    )
