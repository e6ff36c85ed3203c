"""Phase 5, Congress: Objectives in order, the Principle of Balance, the Political Favours."""

from __future__ import annotations

from engine.core import Event, replaced

from ..content import card
from ..pieces import (
    best,
    board,
    delegates_at,
    gain_prestige,
    hierarchy_order,
    name,
)
from ..state import SchonbrunnState
from .treaties import queue_next_treaty

Board = dict[str, tuple[dict[str, int], set[str]]]  # `board`: each Objective's totals and delegations


def open_congress(state: SchonbrunnState, events: list[Event]) -> None:
    objectives = state.objectives
    state.delegates = [
        replaced(d, face_up=True, known=True)
        if d.place in objectives and not (d.face_up and d.known)  # else it is so already
        else d
        for d in state.delegates
    ]
    if not state.simplified:
        state.favours_up = list(state.objectives)
    shown = []
    for o, (totals, here) in board(state).items():
        parts = [f"{name(state, s)} {totals[s]}" for s in state.hierarchy if s in here]
        fav = f" (favour {state.favours[o]})" if state.favours else ""
        shown.append(f"{o}{fav}: " + (", ".join(parts) or "nobody"))
    events.append(
        Event(kind="congress", reveals=True, text="Congress: all revealed. " + "; ".join(shown) + ".")
    )
    signed = [t for p in state.players.values() for t in p.signed if card(t).timing == "congress"]
    state.treaty_queue = sorted(signed, key=lambda t: card(t).priority)
    state.stage = "activate"
    queue_next_treaty(state)


def collect(state: SchonbrunnState, seat: str, card_id: str) -> str:
    c = card(card_id)
    p = state.players[seat]
    p = state.change(p, screen=(*p.screen, card_id))
    gained = ""
    if c.type == "indemnity":
        if not state.simplified:
            state.change(p, receptions=p.receptions + c.receptions)
        gain_prestige(state, seat, f"{c.name} collected", c.prestige)
        gained = f" (+{c.prestige} Prestige)"
    elif c.type == "ally":
        state.change(p, allies_this_round=(*p.allies_this_round, card_id))
    return f"{name(state, seat)} collects {c.name}{gained}"


def resolve_congress(state: SchonbrunnState, events: list[Event]) -> None:
    lines = []
    # read once: resolving an Objective moves pieces of that Objective only
    before = board(state)
    for o in state.objectives:
        totals = before[o][0]
        winner = best(state, totals)
        line = collect(state, winner, _draw(state, o)) + f" in {o} with {totals[winner]}"
        for d in delegates_at(state, winner, o):
            state.change(d, place="supply", face_up=False, known=True)
        state.markers = [m for m in state.markers if not (m.owner == winner and m.objective == o)]
        p = state.players[winner]
        if p.minister == o:
            p = state.change(p, minister="removed")
        if p.head == o and not state.simplified:
            state.change(p, receptions=p.receptions + 1)
            gain_prestige(state, winner, f"Delegation Head in Objective {o}", 1)
            line += " (+1 Prestige and 1 Reception for the Delegation Head)"
        lines.append(line)
    # The Principle of Balance: highest total left in a single Objective.
    after = board(state)
    lines.append(principle_of_balance(state, after))
    if not state.simplified:
        lines += favour_rewards(state, after)  # the Balance's card moved no piece
    state.tops_revealed = False
    state.last_awards = lines
    events.append(Event(kind="awards", reveals=True, text="\n".join(lines)))


def _draw(state: SchonbrunnState, pile: str) -> str:
    """The top card of a pile, taken off it (a pile is a tuple, which a state's copy shares)."""
    cards = state.piles[pile]
    state.piles[pile] = cards[1:]
    return cards[0]


def balance_standing(state: SchonbrunnState, after: Board) -> dict[str, int]:
    """Each seat's highest total in a single Objective where it still has a Delegate, once
    the Objectives are resolved; a seat with no Delegate left stands at 0, as a player with
    no pieces in an Objective counts 0 (docs/rulings.md, Schönbrunn 17)."""
    standing = {}
    for s in state.seats:
        here = [totals[s] for totals, present in after.values() if s in present]
        standing[s] = max(here) if here else 0
    return standing


def balance_winner(state: SchonbrunnState, standing: dict[str, int]) -> str | None:
    """Who collects the Principle of Balance (docs/rulings.md, Schönbrunn 18): the highest
    total above zero, ties in reverse Hierarchy. With nobody above zero, the first in reverse
    Hierarchy among the seats at zero, as when every total in an Objective is zero; a seat
    below zero is never rewarded, so with every seat below zero nobody collects it."""
    positive = {s: t for s, t in standing.items() if t > 0}
    if positive:
        return best(state, positive)
    return next((s for s in reversed(state.hierarchy) if standing.get(s, 0) == 0), None)


def principle_of_balance(state: SchonbrunnState, after: Board) -> str:
    """Award the top card of the Principle of Balance; its line for the Congress's awards."""
    winner = balance_winner(state, balance_standing(state, after))
    card_id = _draw(state, "PoB")
    if winner is not None:
        return collect(state, winner, card_id) + " by the Principle of Balance"
    # the card leaves the game face up, as the cards removed at the Preparation: the piles
    # still count the rounds (docs/rulings.md, Schönbrunn 2)
    state.box = [*state.box, card_id]
    return (
        f"Nobody collects {card(card_id).name} by the Principle of Balance: every delegation is "
        "below zero. It is removed from the game."
    )


def favour_rewards(state: SchonbrunnState, left: dict[str, tuple[dict[str, int], set[str]]]) -> list[str]:
    """Each delegation left above an Objective's Favour takes 1 Reception; the highest also
    gains Prestige equal to the Favour (Phase 5, example). `left`: the `board` now."""
    lines = []
    for o in state.objectives:
        value = state.favours[o]
        totals, here = left[o]
        above = {s: totals[s] for s in state.seats if s in here and totals[s] > value}
        if not above:
            continue
        for s in above:
            p = state.players[s]
            state.change(p, receptions=p.receptions + 1)
        top = best(state, above)
        gain_prestige(state, top, f"Political Favour of Objective {o}", value)
        names = ", ".join(name(state, s) for s in hierarchy_order(state, list(above)))
        gain = f"{name(state, top)} +{value} Prestige" if value else "no Prestige at a Favour of 0"
        lines.append(f"Favour {o} ({value}): 1 Reception to {names}; {gain}")
    return lines
