"""The value of a position of Crisis: 1914 to the strong statesman (strong.py): the Prestige
each statesman can expect at the end (banked, this Week's placing, what the Weeks left
can still bring with the Tension room left, the risk of war), turned into win chances;
alone, the chance of reaching the Victory tiers."""

from __future__ import annotations

import math

from .cards import assertions
from .state import CrisisState, Player
from .weeks import PRESTIGE_THRESHOLD, WAR_TENSION
from .worth import is_mobilization, target_box, tension_added, weeks_left

# What the Weeks left bring, fitted to the playout statesman's own games (1,000 games at 1
# and 3 players: the Prestige gained from the end of each Week to the end of the game, by
# the Weeks left and the Target box's Tension, a loss counting as a fall to 0).
# a solitaire Week, and each point of Tension room (more per Week than the playout makes:
# a careful player does better, and a lower figure makes the search put off its Weeks)
SOLO_PER_WEEK, SOLO_PER_ROOM = 2.5, 1.5
PER_WEEK, PER_TENSION = 2.6, 0.6  # 2-5 players: a Week, less for Tension already spent
TEMPERATURE = 2.5  # Prestige of lead that makes a win about e times likelier


def _week_running(state: CrisisState) -> bool:
    return state.phase in ("first_draw", "play")


def tension_after_week(state: CrisisState, p: Player) -> int:
    """The Target box once this Week's Score Track Tension is in (as the marker stands)."""
    t = state.tension[p.nation][target_box(p)]
    return t + tension_added(p.score) if _week_running(state) else t


def future_prestige(state: CrisisState, p: Player) -> float:
    """What the Weeks after this one can still bring, with the Tension room left."""
    left = weeks_left(state)
    t = tension_after_week(state, p)
    if state.solo:
        room = max(0, WAR_TENSION - 1 - t)
        return SOLO_PER_WEEK * left + SOLO_PER_ROOM * min(room, left + 1)
    return max(0.0, PER_WEEK * left - PER_TENSION * t) if left else 0.0


def blind_mobilization(p: Player) -> float:
    """The chance a General Mobilization card in the Draw Pile costs the game before the end."""
    unknown = p.draw[p.known :] if p.draw else p.recycled
    if any(is_mobilization(c) for c in p.draw[: p.known][:1]):
        return 0.3
    return 0.15 if any(is_mobilization(c) for c in unknown) else 0.0


def week_award(state: CrisisState, p: Player) -> float:
    """This Week's Prestige as the Score Track stands (mid-Week: the placing so far)."""
    if not _week_running(state) or p.lost:
        return 0.0
    if state.solo:
        return float(_solo_award(p))
    active = state.active()
    order = [n for n in state.initiative() if state.players[n].lost is None]
    ranked = sorted(active, key=lambda q: (-q.highest, order.index(q.nation) if q.nation in order else 9))
    place = ranked.index(p)
    pts = 0.0
    if p.highest >= PRESTIGE_THRESHOLD:
        pts = 3 if place == 0 else (2 if place == 1 and len(state.players) >= 3 else 1)
        if order and order[0] == p.nation:
            pts += 1
    if p.belligerent_this_week:
        pts += 1 if place == 0 else -1
    if assertions(p) >= 4:
        pts *= 2
    return pts


def projected_prestige(state: CrisisState, p: Player) -> float:
    """Prestige the statesman can expect at the end; a lost game counts far below 0."""
    if p.lost or tension_after_week(state, p) >= WAR_TENSION:
        return -20.0
    if state.solo:
        base = p.prestige + week_award(state, p) + future_prestige(state, p)
    else:
        base = p.prestige + 0.8 * week_award(state, p) + future_prestige(state, p)
    risk = blind_mobilization(p) if weeks_left(state) or _week_running(state) else 0.0
    return (1 - risk) * base - risk * 20.0


def win_chances(projected: dict[str, float]) -> dict[str, float]:
    top = max(projected.values())
    weights = {s: math.exp((v - top) / TEMPERATURE) for s, v in projected.items()}
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()}


def _solo_award(p: Player) -> int:
    if p.highest < PRESTIGE_THRESHOLD:
        return 0
    pts = 1 + max(0, p.highest - 18)
    return pts * 2 if assertions(p) >= 4 else pts


def solo_value(prestige: float) -> float:
    """The solitaire game's value: mostly whether the Victory tiers (30, 35, 40) are
    reached, a little for every Prestige point on the way."""
    tiers = sum(1.0 / (1.0 + math.exp(-(prestige - (t - 0.5)) / 2.0)) for t in (30, 35, 40)) / 3
    return 0.6 * tiers + 0.4 * max(0.0, min(prestige, 45.0)) / 45.0
