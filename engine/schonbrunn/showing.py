"""What a Schönbrunn player may show of what is behind their screen (rulebook, "Secrets and
memory": "the values of undisclosed Delegates, the number of Receptions you possess and
the nature of the cards you have collected"): each Reparation behind the screen, the
Receptions, the Delegates in supply, a Delegate committed face down, a secret bid; the
face-down Delegates on the Objectives only where the table lets their owner look at them
(`see_own_face_down`); and the game's rounds, for a pact's `until` (engine/core/showing.py)."""

from __future__ import annotations

from engine.core import Period, Showable
from engine.core.words import counted

from .commands import OBJECTIVE_NAMES
from .content import card
from .pieces import supply_values
from .state import SchonbrunnState
from .texts import card_text

__all__ = ["showable", "period", "FACE_DOWN_HIDDEN"]

FACE_DOWN_HIDDEN = (
    "once assigned, face-down Delegates may not be looked at, not even by the player who "
    "played them (rulebook, Practical tip: Secrets and memory), and this table keeps that rule"
)


def _values(values: list[int]) -> str:
    return ", ".join(str(v) for v in values) or "none"


def showable(state: SchonbrunnState, seat: str) -> list[Showable]:
    p = state.players.get(seat)
    if p is None or state.stage == "over":
        return []
    out = [
        Showable(name=card(c).name, text=card_text(card(c)), kind="Reparation behind the screen")
        for c in p.screen
    ]
    out.append(Showable(name="Receptions", text=f"{counted(p.receptions, 'Reception')}.", kind="Receptions"))
    out.append(
        Showable(
            name="Delegates in supply",
            text=f"Delegates behind the screen, by Influence: {_values(supply_values(state, seat))}.",
            kind="Delegates",
        )
    )
    committed = [d.value for d in state.delegates if d.owner == seat and d.place == "committed"]
    if committed and p.committed is None:  # once revealed, everyone knows it
        out.append(
            Showable(
                name="Committed Delegate",
                text=f"The Delegate committed face down to the Hierarchy has Influence {committed[0]}.",
                kind="Delegate",
            )
        )
    if p.bid is not None:
        out.append(Showable(name="Bid", text=f"The secret bid for the Roles is {p.bid}.", kind="bid"))
    for o in state.objectives:
        down = sorted(
            d.value for d in state.delegates if d.owner == seat and d.place == o and not d.face_up
        )
        if not down:
            continue
        named = OBJECTIVE_NAMES.get(o, ("",))[-1]  # its name: "Allies"
        where = f"Objective {o}" + (f" ({named})" if named else "")
        out.append(
            Showable(
                name=f"Delegates in Objective {o}",
                text=f"Face-down Delegates in {where}, by Influence: {_values(down)}.",
                kind="face-down Delegates",
                refused="" if state.see_own_face_down else FACE_DOWN_HIDDEN,
            )
        )
    return out


def period(state: SchonbrunnState) -> Period | None:
    if state.stage == "over" or state.round < 1:
        return None
    return Period(word="Round", number=state.round, last=state.rounds, words=("round",))
