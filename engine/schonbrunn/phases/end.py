"""The End of the Game: final scoring and the ranking."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.core import Event
from engine.core.words import signed

from ..content import SYMBOLS, card, tables
from ..pieces import (
    gain_prestige,
    name,
)
from ..state import SchonbrunnState


def aid_points(symbols: Sequence[str], wild: int) -> int:
    """7 for three different symbols; 4 for each matching Aid beyond the first. Wild Aids
    (Free Navigation of the Seas) take whichever symbols score best."""
    pts = tables().aid_sets
    best_score = 0
    for extra in itertools.combinations_with_replacement(SYMBOLS, wild):
        counts = {s: 0 for s in SYMBOLS}
        for s in [*symbols, *extra]:
            counts[s] += 1
        score = (pts.different if all(counts.values()) else 0) + pts.matching * sum(
            max(0, c - 1) for c in counts.values()
        )
        best_score = max(best_score, score)
    return best_score


def end_points(state: SchonbrunnState, seat: str) -> tuple[int, list[str]]:
    p = state.players[seat]
    held = [*p.screen, *p.signed]
    total, parts = 0, []
    # Annexation of Territories: "each Ally card under your Nation card", the ones exchanged
    # for markers, not Allies still behind the screen (docs/rulings.md, Schönbrunn 30)
    allies_under = sum(1 for c in p.under if card(c).type == "ally")
    # Poland: "each Ally card you collected (Poland included)", wherever it lies: under the
    # Nation card, or behind the screen (won in the last round, Portugal, Poland itself)
    # (docs/rulings.md, Schönbrunn 23 and 34)
    allies_collected = allies_under + sum(1 for c in held if card(c).type == "ally")
    for cid in held:
        c = card(cid)
        pts = 0
        if c.end == "per_indemnity":
            pts = c.end_value * sum(1 for x in held if card(x).type == "indemnity")
        elif c.end == "per_two_receptions":
            pts = c.end_value * (p.receptions // 2)
        elif c.end == "per_ally_under":
            pts = c.end_value * allies_under
        elif c.end == "per_ally_collected":
            pts = c.end_value * allies_collected
        elif c.end == "portugal":
            pts = c.end_value + 2 * sum(1 for x in held if card(x).symbol == "naval")
        if pts:
            total += pts
            parts.append(f"{c.name} {pts:+d}")
    aids = [card(x).symbol for x in held if card(x).type == "aid"]
    wild = sum(1 for x in held if card(x).wild_aid)
    pts = aid_points(aids, wild)
    if pts:
        total += pts
        parts.append(f"Aids {pts:+d}")
    return total, parts


def final_scoring(state: SchonbrunnState, events: list[Event]) -> None:
    lines = []
    for seat in state.hierarchy:
        pts, parts = end_points(state, seat)
        detail = ", ".join(parts)
        state.change(state.players[seat], end_detail=detail)
        gain_prestige(state, seat, f"end of the game ({detail})", pts, dated=False)
        gained = f"{signed(pts)} ({detail})" if detail else "nothing to add"
        lines.append(f"{name(state, seat)}: {gained} = {state.players[seat].prestige}")
    state.final = {s: state.players[s].prestige for s in ranking(state)}  # winner first
    state.stage, state.queue = "over", []
    events.append(Event(kind="end", reveals=True, text="End of the game.\n" + "\n".join(lines)))


def ranking(state: SchonbrunnState) -> list[str]:
    """Highest Prestige first; ties to the later position in the last Hierarchy."""
    pos = {s: i for i, s in enumerate(state.hierarchy)}
    return sorted(state.seats, key=lambda s: (-state.players[s].prestige, -pos[s]))
