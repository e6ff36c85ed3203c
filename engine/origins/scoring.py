"""Treaty rights (§8) and victory points (§9): national objectives, specials, doubling."""

from __future__ import annotations

from engine.core.words import signed

from . import content
from .state import OriginsState

TREATY = 10  # PFs in another nation's embassy that give treaty rights (§8)


def treaty_rights(state: OriginsState) -> dict[str, list[str]]:
    """embassy -> countries with treaty rights there (never in their own embassy)."""
    out: dict[str, list[str]] = {}
    for embassy, here in state.pfs.items():
        holders = [c for c, n in here.items() if n >= TREATY and c != embassy]
        if holders:
            out[embassy] = sorted(holders)
    return out


def country_vps(state: OriginsState) -> dict[str, int]:
    """Each held country's victory points as the position stands."""
    return {c: sum(n for _, n in parts) for c, parts in country_breakdown(state).items()}


def country_breakdown(state: OriginsState) -> dict[str, list[tuple[str, int]]]:
    """Each held country's victory points as the position stands, item by item: each
    National Objective met ("treaty rights in Serbia, alone +6") and each special (§9)."""
    names = content.names()
    treaties = treaty_rights(state)
    held = set(state.holders)
    parts: dict[str, list[tuple[str, int]]] = {c: [] for c in state.holders}
    table = content.objectives()
    for obj in table.objectives:
        if obj.power not in held or obj.power not in treaties.get(obj.location, []):
            continue
        # exclusive: "only if no other nation has treaty rights from that nation" (§9)
        alone = treaties[obj.location] == [obj.power]
        if alone and obj.exclusive is not None:
            parts[obj.power].append((f"treaty rights in {names[obj.location]}, alone", obj.exclusive))
        else:
            parts[obj.power].append((f"treaty rights in {names[obj.location]}", obj.points))
    last = []
    for special in table.specials:
        if special.power not in held:
            continue
        if special.kind == "nobody_above":
            last.append(special)  # the United Kingdom is scored last (§6 Phase 6)
        elif special.enemy in held:
            majors = held - {special.enemy}
            if not any(special.enemy in treaties.get(m, []) for m in majors):
                what = f"special: no player-held nation has treaty rights from {names[special.enemy]}"
                parts[special.power].append((what, special.points))
    for special in last:
        vps = {c: sum(n for _, n in p) for c, p in parts.items()}
        if all(v <= special.threshold for c, v in vps.items() if c != special.power):
            what = f"special: no other nation above {special.threshold} VPs"
            parts[special.power].append((what, special.points))
    return parts


def country_detail(name: str, parts: list[tuple[str, int]]) -> str:
    """ "Russia +10 (treaty rights in Serbia +5, treaty rights in France +5)"."""
    total = sum(n for _, n in parts)
    inner = ", ".join(f"{what} {signed(n)}" for what, n in parts) or "no objective met"
    return f"{name} {signed(total)} ({inner})"


def seat_detail(state: OriginsState, seat: str, parts: dict[str, list[tuple[str, int]]]) -> str:
    """A player's score item by item: each country held with its objectives, then the
    doubling (§9) as an item of its own. The items add up to `seat_scores`."""
    names = content.names()
    mine = state.countries_of(seat)
    items = [country_detail(names[c], parts[c]) for c in mine]
    if seat in doubled_seats(state):
        total = sum(n for c in mine for _, n in parts[c])
        items.append(f"doubled, one country against a player of several {signed(total)}")
    return "; ".join(items)


def doubled_seats(state: OriginsState) -> set[str]:
    """Players holding one country while another player holds more (§9)."""
    counts = {seat: len(state.countries_of(seat)) for seat in state.seats}
    if max(counts.values()) < 2:
        return set()
    return {seat for seat, n in counts.items() if n == 1}


def seat_scores(state: OriginsState, vps: dict[str, int]) -> dict[str, int]:
    doubled = doubled_seats(state)
    out = {}
    for seat in state.seats:
        total = sum(vps[c] for c in state.countries_of(seat))
        out[seat] = total * 2 if seat in doubled else total
    return out


def ranks(scores: dict[str, int], margin_rule: bool) -> dict[str, int]:
    """1 = best; equal scores share a rank. With the optional rule, anyone within 3 VPs of
    the leader shares the win (§9, "Determining the winner - optional Rule")."""
    best = max(scores.values())
    out = {}
    for seat, score in scores.items():
        if margin_rule and best - score < 3:
            out[seat] = 1
        else:
            out[seat] = 1 + sum(1 for s in scores.values() if s > score)
    return out
