"""Standing orders: answers a player gives before the decision reaches them (docs/pacing.md explains why;
None is a new rule: each is what the player would answer when asked in
Hierarchy order, given ahead.

- `spend 2`: in this round's Hierarchy spend up to 2 Receptions for Prestige (never more
  than the committed Delegate's Influence or the Receptions held then).
- `sign Free City of Kraków, Holy Alliance` (or `sign none`): sign these Treaties in this
  round's Hierarchy.
- `no_plot`: no Plot in this round's Plot phase.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import IllegalAction, StandingOrder, find_name, fold
from engine.core.chance import certain

from . import actions as A
from . import bots
from .content import card
from .pieces import plot_targets, spend_limit
from .state import SchonbrunnState

ORDERS = (
    StandingOrder(
        "spend",
        "in this round's Hierarchy spend up to this many Receptions for Prestige",
        takes_text=True,
        example="spend 2",
    ),
    StandingOrder(
        "sign",
        "in this round's Hierarchy sign these Treaties (none: sign no Treaty)",
        takes_text=True,
        example="sign Free City of Kraków",
    ),
    StandingOrder("no_plot", "no Plot in this round's Plot phase"),
)

# the stages of a round up to each decision an order answers, in the round's order
_BEFORE = {
    "spend": ("commit", "tiebreak", "sign", "receptions"),
    "sign": ("commit", "tiebreak", "sign"),
    "no_plot": ("commit", "tiebreak", "sign", "receptions", "favour", "assign", "plot"),
}
_ASKS = {"spend": "receptions", "sign": "sign", "no_plot": "plot"}


def scope(state: SchonbrunnState, seat: str, order: str) -> str | None:
    word, _, text = order.partition(" ")
    if seat not in state.players or state.round < 1 or state.stage not in _BEFORE.get(word, ()):
        return None
    if word == "spend" and not text.strip().isdigit():
        return None
    if word == "sign" and _treaties(state, seat, text) is None:
        return None
    if word == "no_plot" and text:
        return None
    return f"round {state.round}"


def action(state: SchonbrunnState, seat: str, order: str) -> Any | None:
    word, _, text = order.partition(" ")
    if state.stage != _ASKS.get(word) or not state.queue or state.queue[0] != seat:
        return None
    if word == "spend":
        return A.Spend(receptions=min(int(text), spend_limit(state, seat)))
    if word == "sign":
        treaties = _treaties(state, seat, text)
        return A.Sign(treaties=treaties) if treaties is not None else None
    return A.Pass()


def _treaties(state: SchonbrunnState, seat: str, text: str) -> list[str] | None:
    """The Treaties behind the seat's screen named in `text` ("none": []), as players type
    names (engine/core/names.py: `Krakow` for Free City of Kraków); None if a name is not
    one of them, or could be several."""
    if fold(text) == "none":
        return []
    held = [(c, card(c).name) for c in state.players[seat].screen if card(c).type == "treaty"]
    out = []
    for part in text.split(","):
        try:
            found = find_name(part, held)
        except IllegalAction:
            return None
        if found is None:
            return None
        out.append(found)
    return list(dict.fromkeys(out))


# -- what the pacing model's players leave (docs/pacing.md) ----------------------------------


def ahead(state: SchonbrunnState, seat: str, rng: random.Random) -> list[str]:
    """A player whose turn in Hierarchy order has not come leaves what the automatic player
    will do there when no draw of its dice can change it and nothing others do before can:
    its spend (once its own Delegate is committed; it rests on that Delegate and its own
    Receptions) and its signing (its own Treaties and Aids); in the Plot phase, no Plot when
    it would surely make none (too few Receptions: Plots spend only the plotter's)."""
    if state.round < 1 or (state.queue and state.queue[0] == seat):
        return []
    p = state.players[seat]
    later = seat in state.queue  # still to answer in this stage
    out = []
    if p.committed is not None and state.stage in _BEFORE["spend"] and (state.stage != "receptions" or later):
        if spend_limit(state, seat) > 0:
            chosen = _choice(state, seat, "receptions")
            if isinstance(chosen, A.Spend):
                out.append(f"spend {chosen.receptions}")
    if state.stage in ("commit", "tiebreak") or (state.stage == "sign" and later):
        if any(card(c).type == "treaty" for c in p.screen):
            chosen = _choice(state, seat, "sign")
            if isinstance(chosen, A.Sign):
                out.append("sign " + (", ".join(card(t).name for t in chosen.treaties) or "none"))
    if state.stage == "plot" and later and p.receptions > 0 and plot_targets(state, seat):
        if isinstance(_choice(state, seat, "plot"), A.Pass):
            out.append("no_plot")
    return out


def _choice(state: SchonbrunnState, seat: str, stage: str) -> Any | None:
    """The automatic player's choice at `stage` on the board as it stands, if no draw of its
    dice can change it."""
    at = state if state.stage == stage else state.model_copy(update={"stage": stage})
    return certain(lambda rng: bots.bot_action(at, seat, rng))
