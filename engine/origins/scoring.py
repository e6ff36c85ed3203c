"""Treaty rights (§8) and victory points (§9): national objectives, specials, doubling."""

from __future__ import annotations

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
    treaties = treaty_rights(state)
    held = set(state.holders)
    vps = dict.fromkeys(state.holders, 0)
    table = content.objectives()
    for obj in table.objectives:
        if obj.power not in held or obj.power not in treaties.get(obj.location, []):
            continue
        # exclusive: "only if no other nation has treaty rights from that nation" (§9)
        alone = treaties[obj.location] == [obj.power]
        vps[obj.power] += obj.exclusive if alone and obj.exclusive is not None else obj.points
    last = []
    for special in table.specials:
        if special.power not in held:
            continue
        if special.kind == "nobody_above":
            last.append(special)  # the United Kingdom is scored last (§6 Phase 6)
        elif special.enemy in held:
            majors = held - {special.enemy}
            if not any(special.enemy in treaties.get(m, []) for m in majors):
                vps[special.power] += special.points
    for special in last:
        if all(v <= special.threshold for c, v in vps.items() if c != special.power):
            vps[special.power] += special.points
    return vps


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
