"""What things are worth to Schönbrunn's strong player (strong.py), in Prestige: the end of
the game's points of the cards a seat holds (`final_points`, as phases/end.py counts them),
the Aids' sets, a Treaty's effect, a Nation's powers, and the chance that a delegation ahead
by an estimated margin wins its Objective (`win_chance`). The sketch of a round (sketch.py)
and the strong player's quick choices (fast_policy.py) value everything with these.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

from .content import SYMBOLS, card, nations, tables

__all__ = [
    "RECEPTION",
    "SPREAD",
    "SYMBOL",
    "aid_points",
    "aid_worth",
    "final_points",
    "nation_powers",
    "treaty_worth",
    "win_chance",
]

RECEPTION = 0.75  # what a Reception is worth while rounds remain: Prestige at the next Hierarchy, a Head
SPREAD = 1.6  # Influence over which an uncertain contest turns (the logistic's scale)
SYMBOL = {s: i for i, s in enumerate(SYMBOLS)}


@cache
def aid_points(c: int, m: int, n: int, wild: int) -> int:
    """End of the Game: 7 for three different symbols, 4 for each matching Aid beyond the
    first; wild Aids (Free Navigation of the Seas) take the best symbols (phases/end.py)."""
    pts = tables().aid_sets
    best = 0
    for extra in itertools.combinations_with_replacement(range(3), wild):
        counts = [c, m, n]
        for e in extra:
            counts[e] += 1
        score = (pts.different if all(counts) else 0) + pts.matching * sum(max(0, x - 1) for x in counts)
        best = max(best, score)
    return best


def aid_worth(counts: list[int], wild: int, later: int) -> float:
    """The Aids' end points, and while rounds remain half the points one more Aid of the
    best symbol would make: a first Aid already counts towards a pair or a set."""
    return aid_worth_of(counts[0], counts[1], counts[2], wild, later > 0)


@cache
def aid_worth_of(c: int, m: int, n: int, wild: int, later: bool) -> float:
    """`aid_worth` of the counts of each symbol (remembered: a handful of counts recur)."""
    now = aid_points(c, m, n, wild)
    if not later:
        return float(now)
    more = max(aid_points(c + 1, m, n, wild), aid_points(c, m + 1, n, wild), aid_points(c, m, n + 1, wild))
    return 0.5 * now + 0.5 * more


@cache
def nation_powers(nation: str) -> tuple[str, int, str, int]:
    """A Nation's Head power, the Influence its Head adds, its ability, its first face-down count."""
    nat = nations()[nation]
    return nat.head_power, (nat.head_value if nat.head_power == "influence" else 0), nat.ability, nat.face_down_first


def treaty_worth(cid: str) -> float:
    """A Treaty's effect once activated: its Prestige, Receptions and markers."""
    c = card(cid)
    return c.prestige + RECEPTION * c.receptions + 1.2 * c.marker + 0.8 * c.minus


LOGISTIC_STEPS = 20  # the logistic's table: twenty entries per unit of margin / scale
LOGISTIC = [1.0 / (1.0 + math.exp(-(k / LOGISTIC_STEPS - 30.0))) for k in range(60 * LOGISTIC_STEPS + 1)]


def win_chance(margin: float, scale: float = SPREAD) -> float:
    """The chance that a delegation ahead by `margin` (its estimate) wins the Objective."""
    k = int((margin / scale + 30.0) * LOGISTIC_STEPS + 0.5)
    return LOGISTIC[0 if k < 0 else (k if k <= 60 * LOGISTIC_STEPS else 60 * LOGISTIC_STEPS)]


def final_points(held: list[str], allies_under: int, receptions: int) -> int:
    """End of the Game points of the cards behind a screen and signed (phases/end.py)."""
    total = 0
    counts, wild = [0, 0, 0], 0
    indemnities = sum(1 for x in held if card(x).type == "indemnity")
    naval = sum(1 for x in held if card(x).symbol == "naval")
    collected = allies_under + sum(1 for x in held if card(x).type == "ally")
    for x in held:
        c = card(x)
        if c.end == "per_indemnity":
            total += c.end_value * indemnities
        elif c.end == "per_two_receptions":
            total += c.end_value * (receptions // 2)
        elif c.end == "per_ally_under":
            total += c.end_value * allies_under
        elif c.end == "per_ally_collected":
            total += c.end_value * collected
        elif c.end == "portugal":
            total += c.end_value + 2 * naval
        if c.type == "aid":
            counts[SYMBOL[c.symbol]] += 1
        if c.wild_aid:
            wild += 1
    return total + aid_points(counts[0], counts[1], counts[2], wild)
