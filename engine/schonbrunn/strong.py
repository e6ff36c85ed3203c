"""The strong automatic player of Schönbrunn: what the search (engine/core/search.py,
docs/architecture.md §2, "Automatic players") needs to know of this game.

- `determinize` deals afresh what a seat cannot see: the values of face-down Delegates,
  of committed Delegates not yet revealed and of the pieces behind other screens (each
  owner's unseen values permuted among its unseen pieces, its own face-down ones too: the
  rulebook forbids looking at them), the Reparations still face down (within their type,
  whose back is printed), the face-down Political Favours and the auction bids. Everything
  else a seat may know, from the board or from the public record (every Reception and every
  card changes hands in a public event, so a player who keeps count knows them).
- `candidates` prunes the combinations `legal.py` lists whole to the few worth a thought
  (three Delegate values for each Objective, a Plot at the delegations that matter) and
  leaves the routine choices (signing, keeping, the order of a tie, the '-1' markers) to
  one rule each.
- Below the tree no engine step is played: `evaluate` finishes the round on a `Sketch`, a
  light copy of the board in plain lists, with a fast policy for every seat (greedy
  Delegates by the worth of each Reparation, Plots and the Foreign Minister where they can
  tip an Objective), resolves the Congress, and turns each seat's Prestige plus what its
  cards will still give into a chance of winning. About a hundred times cheaper than the
  engine's steps to the end of the round, which is what the search's budget allows.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.core import built
from engine.core.fast import clone, replaced
from engine.core.search import Knowledge

from . import actions as A
from .content import SYMBOLS, card, cards, nations, plot_reach, tables
from .phases.hierarchy import tie_resolver
from .pieces import (
    activatable,
    aids_held,
    face_up_of,
    head_targets,
    minister_objectives,
    move_destinations,
    objectives_with_delegates,
    plot_targets,
    spend_limit,
    supply_values,
    unshown_aids,
)
from .state import SchonbrunnState

__all__ = ["SchonbrunnKnowledge", "Sketch", "final_points", "heuristic"]

STAGES = ("commit", "tiebreak", "sign", "receptions", "favour", "assign", "plot", "move", "minister", "activate")
STEP = {s: i for i, s in enumerate(STAGES)}
RECEPTION = 0.75  # what a Reception is worth while rounds remain: Prestige at the next Hierarchy, a Head
SPREAD = 1.6  # Influence over which an uncertain contest turns (the logistic's scale)


# ---------------------------------------------------------------------------- content, once


@cache
def _aid_points(c: int, m: int, n: int, wild: int) -> int:
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


SYMBOL = {s: i for i, s in enumerate(SYMBOLS)}
_WORTH: dict[tuple, float] = {}  # Sketch.card_worth, by card and what the seat holds


def _aid_worth(counts: list[int], wild: int, later: int) -> float:
    """The Aids' end points, and while rounds remain half the points one more Aid of the
    best symbol would make: a first Aid already counts towards a pair or a set."""
    return _aid_worth_of(counts[0], counts[1], counts[2], wild, later > 0)


@cache
def _aid_worth_of(c: int, m: int, n: int, wild: int, later: bool) -> float:
    now = _aid_points(c, m, n, wild)
    if not later:
        return float(now)
    more = max(_aid_points(c + 1, m, n, wild), _aid_points(c, m + 1, n, wild), _aid_points(c, m, n + 1, wild))
    return 0.5 * now + 0.5 * more


@cache
def _nation(nation: str) -> tuple[str, int, str, int]:
    """A Nation's Head power, the Influence its Head adds, its ability, its first face-down count."""
    nat = nations()[nation]
    return nat.head_power, (nat.head_value if nat.head_power == "influence" else 0), nat.ability, nat.face_down_first


def _treaty_worth(cid: str) -> float:
    c = card(cid)
    return c.prestige + RECEPTION * c.receptions + 1.2 * c.marker + 0.8 * c.minus


# ---------------------------------------------------------------------------- the sketch


class Sketch:
    """One round of a (determinized) state in plain lists, played to the end of its Congress
    by a fast policy, then valued for every seat. Seats and Objectives are indices; every
    delegation's total is kept as it changes, both as it is (`tot`) and as the other seats
    may judge it (`pub`: a face-down Delegate at its owner's `guess`)."""

    def __init__(self, state: SchonbrunnState, rng: random.Random):
        self.rng = rng
        self.seats = seats = state.seats
        self.n = n = len(seats)
        self.idx = idx = {s: i for i, s in enumerate(seats)}
        self.objs = objs = state.objectives
        self.k = k = len(objs)
        oj = {o: j for j, o in enumerate(objs)}
        self.simplified = state.simplified
        self.later = state.rounds - state.round  # rounds after this one
        self.last_round = self.later == 0
        self.lasting = state.lasting_allies
        self.R, self.P, self.ally = [0] * n, [0] * n, [0] * n
        self.minister = [-1] * n  # an Objective, -1 unassigned, -2 spent (a Treaty or removed)
        self.head = [-1] * n  # an Objective where the Delegation Head stands
        self.screen_head = [-1] * n  # the seat whose screen it faces
        self.power, self.head_value, self.ability, self.first = [], [], [], []
        self.held: list[list[str]] = []  # behind the screen and signed
        self.signed: list[list[str]] = []  # signed, not yet activated this round
        self.allies_under = [0] * n
        self.aids = [0] * n  # Aids not yet revealed this round (they pay for Treaties)
        self.allies_round: list[list[str]] = []
        every = cards()
        for i, s in enumerate(seats):
            p = state.players[s]
            power, head_value, ability, first = _nation(p.nation)
            self.power.append(power)
            self.head_value.append(head_value)
            self.ability.append(ability)
            self.first.append(first)
            self.R[i], self.P[i], self.ally[i] = p.receptions, p.prestige, sum(p.ally_markers)
            if p.minister in oj:
                self.minister[i] = oj[p.minister]
            elif p.minister is not None:
                self.minister[i] = -2
            if p.head in oj:
                self.head[i] = oj[p.head]
            elif p.head in idx:
                self.screen_head[i] = idx[p.head]
            self.held.append([*p.screen, *p.signed])
            self.signed.append([t for t in p.signed if t not in p.activated])
            self.allies_under[i] = sum(1 for c in p.under if every[c].type == "ally")
            self.aids[i] = sum(1 for c in p.screen if every[c].type == "aid" and c not in p.shown_aids)
            self.allies_round.append(list(p.allies_this_round))
        self.down: list[list[list[int]]] = [[[] for _ in range(k)] for _ in range(n)]
        self.up: list[list[list[int]]] = [[[] for _ in range(k)] for _ in range(n)]
        self.supply: list[list[int]] = [[] for _ in range(n)]
        self.committed: list[int | None] = [None] * n
        on_board = []
        hidden: list[list[int]] = [[] for _ in range(n)]
        supply = self.supply
        for d in state.delegates:
            i = idx[d.owner]
            place = d.place
            if place == "supply":
                supply[i].append(d.value)
            elif place == "committed":
                self.committed[i] = d.value
            else:
                up = d.face_up
                on_board.append((i, oj[place], d.value, up))
                if not up:
                    hidden[i].append(d.value)
        for sup in supply:
            sup.sort()
        self.guess = [self._guess(i, hidden[i]) for i in range(n)]
        self.tot = tot = [[0] * k for _ in range(n)]
        self.pub = pub = [[0.0] * k for _ in range(n)]
        self.count = count = [[0] * k for _ in range(n)]
        for i, j, v, up in on_board:
            w = v if v else self.ally[i]
            tot[i][j] += w
            pub[i][j] += w if up else self.guess[i]
            count[i][j] += 1
            (self.up if up else self.down)[i][j].append(v)
        for m in state.markers:
            self.extra(idx[m.owner], oj[m.objective], m.value)
        for i in range(n):
            if self.minister[i] >= 0:
                self.extra(i, self.minister[i], 2)
            if self.head[i] >= 0 and self.head_value[i]:
                self.extra(i, self.head[i], self.head_value[i])
        self.hier = [idx[s] for s in state.hierarchy]
        self.pos = [0] * n
        for r, i in enumerate(self.hier):
            self.pos[i] = r
        self.tops = [state.piles[o][0] if state.piles[o] and state.tops_revealed else None for o in objs]
        pob = state.piles["PoB"]
        self.pob = pob[0] if pob and state.tops_revealed else None
        self.favour = [state.favours.get(o) for o in objs] if state.favours else [None] * k
        self._prizes: list[list[float] | None] = [None] * n

    def _guess(self, i: int, face_down: list[int]) -> float:
        """What the other seats take one of i's face-down Delegates to be worth: between
        the mean of the values i has not shown and the mean of the strongest three of them
        (everyone hides its strongest)."""
        ally = self.ally[i]
        pool = sorted(v if v else ally for v in self.supply[i] + face_down)
        if not pool:
            return 2.0
        return 0.5 * sum(pool) / len(pool) + 0.5 * sum(pool[-3:]) / len(pool[-3:])

    # -- the board, kept up to date ------------------------------------------------------
    def worth(self, i: int, v: int) -> int:
        return v if v else self.ally[i]

    def add(self, i: int, j: int, v: int, face_up: bool) -> None:
        w = v if v else self.ally[i]
        self.tot[i][j] += w
        self.pub[i][j] += w if face_up else self.guess[i]
        self.count[i][j] += 1
        (self.up if face_up else self.down)[i][j].append(v)

    def take(self, i: int, j: int, v: int, face_up: bool) -> None:
        w = v if v else self.ally[i]
        self.tot[i][j] -= w
        self.pub[i][j] -= w if face_up else self.guess[i]
        self.count[i][j] -= 1
        (self.up if face_up else self.down)[i][j].remove(v)

    def extra(self, i: int, j: int, amount: int) -> None:
        """The Foreign Minister, a Delegation Head's Influence, a Treaty marker."""
        self.tot[i][j] += amount
        self.pub[i][j] += amount

    def present(self, i: int, j: int) -> bool:
        return self.count[i][j] > 0

    def rival(self, i: int, j: int) -> float:
        """The strongest other delegation in Objective j, as seat i may judge it."""
        best = 0.0
        for o in range(self.n):
            if o != i and self.pub[o][j] > best:
                best = self.pub[o][j]
        return best

    # -- what things are worth ------------------------------------------------------------
    def card_worth(self, i: int, cid: str | None) -> float:
        """What collecting this Reparation now is worth to seat i, in Prestige (remembered:
        it depends only on the card, the seat's cards and a few counts)."""
        if cid is None:
            return 0.0
        key = (cid, tuple(self.held[i]), self.R[i] // 2, self.allies_under[i], self.later, self.simplified)
        worth = _WORTH.get(key)
        if worth is None:
            if len(_WORTH) > 100_000:
                _WORTH.clear()
            worth = _WORTH[key] = self._card_worth(i, cid)
        return worth

    def _card_worth(self, i: int, cid: str) -> float:
        c = card(cid)
        later = self.later
        held = self.held[i]
        if c.type == "indemnity":
            v = c.prestige + (0.0 if self.simplified or not later else RECEPTION * c.receptions)
            if c.end == "per_indemnity":
                v += c.end_value * (1 + sum(1 for x in held if card(x).type == "indemnity") + 0.4 * later)
            elif c.end == "per_two_receptions":
                v += c.end_value * (self.R[i] // 2 if not later else 1.5)
            elif c.end == "per_ally_under":
                v += c.end_value * (self.allies_under[i] + 0.4 * later)
            # each Indemnity already held that counts Indemnities gains one
            return v + sum(card(x).end_value for x in held if card(x).end == "per_indemnity")
        if c.type == "ally":
            # an Ally counts for Poland wherever it lies, under the Nation card only for Annexation
            poland = sum(card(x).end_value for x in held if card(x).end == "per_ally_collected")
            if c.end == "per_ally_collected":  # Poland counts itself and every Ally collected
                collected = self.allies_under[i] + sum(1 for x in held if card(x).type == "ally")
                return c.end_value * (collected + 1 + 0.4 * later)
            if c.end == "portugal":
                naval = sum(1 for x in held if card(x).symbol == "naval")
                return poland + c.end_value + 2 * (naval + 0.3 * later)
            if not later:
                return float(poland)  # no Recovery after the last round: no marker
            v = c.marker
            if c.bonus:
                symbols = {card(x).symbol for x in held if card(x).type == "aid"}
                if symbols and (c.bonus_symbol == "any" or c.bonus_symbol in symbols):
                    v += c.bonus
            # its marker serves the 0 next round; under the Nation card it counts for Annexation
            return 0.9 * v + poland + sum(card(x).end_value for x in held if card(x).end == "per_ally_under")
        if c.type == "aid":
            counts, wild = self._aid_counts(i)
            before = _aid_worth(counts, wild, later)
            counts[SYMBOL[c.symbol]] += 1
            v = _aid_worth(counts, wild, later) - before
            if later and any(card(x).type == "treaty" for x in held):
                v += 0.5  # it pays for a Treaty too
            if c.symbol == "naval" and any(card(x).end == "portugal" for x in held):
                v += 2
            return v
        if c.wild_aid:
            counts, wild = self._aid_counts(i)
            return _aid_worth(counts, wild + 1, later) - _aid_worth(counts, wild, later)
        return 0.7 * _treaty_worth(cid) if later else 0.0

    def _aid_counts(self, i: int) -> tuple[list[int], int]:
        counts, wild = [0, 0, 0], 0
        for x in self.held[i]:
            c = card(x)
            if c.type == "aid":
                counts[SYMBOL[c.symbol]] += 1
            elif c.wild_aid:
                wild += 1
        return counts, wild

    def prizes(self, i: int) -> list[float]:
        """What collecting each Objective's Reparation is worth to seat i (its Delegation
        Head's Prestige and Reception included)."""
        base = self._prizes[i]
        if base is None:
            base = self._prizes[i] = [self.card_worth(i, self.tops[j]) + 0.4 for j in range(self.k)]
        h = self.head[i]
        if h < 0 or self.simplified:
            return base
        out = list(base)
        out[h] += 1.0 + RECEPTION
        return out

    # -- the policy, stage by stage -----------------------------------------------------------
    def commit_rest(self, seats: list[int]) -> None:
        rng = self.rng
        for i in seats:
            values = sorted(set(self.supply[i]))
            pick = values[min(len(values) - 1, rng.choices((0, 1, 2), (0.4, 0.35, 0.25))[0])]
            self.supply[i].remove(pick)
            self.committed[i] = pick

    def order(self, tie_groups: list[list[str]]) -> None:
        """The Hierarchy: lowest commit first; a tie in random order but Austria, which
        breaks its own ties, takes the later place."""
        rng = self.rng
        if tie_groups:
            groups = [[self.idx[s] for s in g] for g in tie_groups]
        else:
            by: dict[int, list[int]] = {}
            for i in range(self.n):
                by.setdefault(self.worth(i, self.committed[i] or 0), []).append(i)
            groups = [by[v] for v in sorted(by)]
        hier = []
        for g in groups:
            g = list(g)
            rng.shuffle(g)
            aus = [i for i in g if self.ability[i] == "hierarchy_ties"]
            if aus:
                g.remove(aus[0])
                g.append(aus[0])
            hier += g
        self.hier = hier
        for r, i in enumerate(hier):
            self.pos[i] = r

    def sign_rest(self, seats: list[int]) -> None:
        for i in seats:
            room = self.aids[i] - len(self.signed[i])
            for t in self.held[i]:
                if room <= 0:
                    break
                c = card(t)
                if c.type == "treaty" and c.timing in ("assignments", "congress") and t not in self.signed[i]:
                    self.signed[i].append(t)
                    room -= 1

    def spend_rest(self, seats: list[int]) -> None:
        if self.simplified:
            return
        for i in seats:
            cap = min(self.worth(i, self.committed[i] or 0), self.R[i])
            spend = max(0, min(cap, self.R[i] - 1))
            self.R[i] -= spend
            self.P[i] += spend

    def _assign_treaties(self, i: int, marker_place: int | None) -> None:
        """The seat's Assignments Treaties it can pay an Aid for: Receptions and Prestige at
        once, a marker (Free City of Kraków) where it is strongest, once placed."""
        for t in list(self.signed[i]):
            c = card(t)
            if c.timing != "assignments" or self.aids[i] <= 0 or (c.marker and marker_place is None):
                continue
            self.aids[i] -= 1
            self.signed[i].remove(t)
            self.P[i] += c.prestige
            self.R[i] += 0 if self.simplified else c.receptions
            if c.marker and marker_place is not None:
                self.extra(i, marker_place, c.marker)

    def assign_turn(self, i: int, step: str, left: int) -> None:
        """Seat i's turn of Assignments from `step` with `left` Delegates owed there: the
        face-down ones, the Delegation Head, three face up, the last face down."""
        self._assign_treaties(i, None)
        later = any(self.pos[o] > self.pos[i] for o in range(self.n))
        if step == "down":
            steps = ["down"] * left + ["head", "up", "up", "up", "last"]
        elif step == "head":
            steps = ["head", "up", "up", "up", "last"]
        elif step == "up":
            steps = ["up"] * left + ["last"]
        else:
            steps = ["last"] * max(1, left)
        rivals = self.rivals(i, later)  # the others do not move during this turn
        for s in steps:
            if s == "head":
                if not self.simplified:
                    j = self.choose_head(i)
                    if j >= 0:
                        self.head[i] = j
                        self.R[i] -= 1
                        if self.head_value[i]:
                            self.extra(i, j, self.head_value[i])
                continue
            if not self.supply[i]:
                break
            v, j = self.place(i, s, later, rivals)
            self.supply[i].remove(v)
            self.add(i, j, v, s == "up")
        if any(card(t).marker and card(t).timing == "assignments" for t in self.signed[i]):
            prizes = self.prizes(i)
            self._assign_treaties(i, max(range(self.k), key=lambda j: (self.tot[i][j], prizes[j])))

    def place(self, i: int, step: str, later: bool, rivals: list[float] | None = None) -> tuple[int, int]:
        """One Delegate of seat i: its two strongest face down first, its weakest face up,
        the last face down; to the Objective where it adds most to the chance of winning
        what is there (a random one of the best three a quarter of the time)."""
        sup = self.supply[i]
        v = sup[0] if step == "up" and len(sup) > 1 else sup[-1]
        w = v if v else self.ally[i]
        prizes = self.prizes(i)
        mine = self.tot[i]
        if rivals is None:
            rivals = self.rivals(i, later)
        favour = self.favour
        gains = []
        table, top = _LOGISTIC, 60 * _STEPS
        scale = _STEPS / SPREAD
        for j in range(self.k):
            x = (mine[j] - rivals[j]) * scale + 30.0 * _STEPS + 0.5
            a, b = int(x), int(x + w * scale)
            lose = table[0 if a < 0 else (a if a <= top else top)]
            win = table[0 if b < 0 else (b if b <= top else top)]
            gains.append((prizes[j] * (win - lose) + 0.05 * w * (favour[j] or 0), j))
        if self.rng.random() >= 0.25:
            return v, max(gains)[1]
        gains.sort(reverse=True)
        return v, gains[self.rng.randrange(min(3, len(gains)))][1]

    def rivals(self, i: int, later: bool) -> list[float]:
        """The strongest other delegation of each Objective as seat i may judge it, and a
        margin for the seats still to assign."""
        extra = 1.5 if later else 0.0
        out = []
        for j in range(self.k):
            best = 0.0
            for o in range(self.n):
                if o != i and self.pub[o][j] > best:
                    best = self.pub[o][j]
            out.append(best + extra)
        return out

    def choose_head(self, i: int) -> int:
        """An Objective for the Delegation Head (a Reception) where it is likely to collect
        (+1 Prestige and the Reception back), or -1."""
        if self.R[i] < 2 or self.head[i] >= 0 or self.screen_head[i] >= 0:
            return -1
        taken = {self.head[o] for o in range(self.n)}
        prizes = self.prizes(i)
        best, best_j = 1.2, -1
        for j in range(self.k):
            if j in taken or not self.count[i][j]:
                continue
            u = _win(self.tot[i][j] + self.head_value[i] - self.rival(i, j)) * (prizes[j] + 1.0 + RECEPTION)
            if u > best:
                best, best_j = u, j
        return best_j

    def assign_rest(self, first: tuple[int, str, int] | None, seats: list[int]) -> None:
        if first is not None:
            self.assign_turn(*first)
        for i in seats:
            self.assign_turn(i, "down", self.first[i])

    def plot_rest(self, seats: list[int]) -> None:
        if self.simplified:
            return
        rng = self.rng
        for i in seats:
            choice = self.choose_plot(i)
            if choice is None:
                continue
            o, j, spend = choice
            self.R[i] -= spend
            pieces = self.down[o][j]
            v = pieces[rng.randrange(len(pieces))]
            self.take(o, j, v, False)
            if self.worth(o, v) <= plot_reach(min(4, spend + (self.ability[i] == "cheap_plots"))):
                self.supply[o].append(v)
            else:
                self.add(o, j, v, True)  # it stays, face up

    def choose_plot(self, i: int) -> tuple[int, int, int] | None:
        """(rival, Objective, Receptions) of a Plot at the leader of an Objective the seat
        contests and could take without that piece, or None."""
        bonus = 1 if self.ability[i] == "cheap_plots" else 0
        if self.R[i] < 2 - bonus:
            return None
        prizes = self.prizes(i)
        best, target = 2.0, None
        for j in range(self.k):
            if not self.count[i][j]:
                continue
            lead, top = -1, -1e9
            for o in range(self.n):
                if o != i and (self.pub[o][j], self.pos[o]) > (top, self.pos[lead]):
                    lead, top = o, self.pub[o][j]
            if not self.down[lead][j] or (self.power[lead] == "plot_shield" and self.head[lead] == j):
                continue
            gap = self.pub[lead][j] - self.tot[i][j]
            if gap < -1 or gap > 5:
                continue
            u = prizes[j] * (1.0 - 0.15 * gap)
            if u > best:
                best, target = u, (lead, j)
        if target is None:
            return None
        return target[0], target[1], min(self.R[i], 3)

    def move_rest(self, seats: list[int]) -> None:
        for i in seats:
            t = self.screen_head[i]
            if t < 0:
                continue
            ups = [(v, j) for j in range(self.k) for v in self.up[t][j]]
            if not ups:
                continue
            v, j = max(ups)
            self.take(t, j, v, True)
            dests = [d for d in range(self.k) if d != j and self.count[t][d]]
            if dests:
                prizes = self.prizes(t)
                self.add(t, min(dests, key=lambda d: prizes[d]), v, True)
            else:
                self.supply[t].append(v)

    def minister_rest(self, seats: list[int]) -> None:
        for i in seats:
            if self.minister[i] == -1:
                j = self.choose_minister(i)
                if j >= 0:
                    self.minister[i] = j
                    self.extra(i, j, 2)

    def choose_minister(self, i: int) -> int:
        """The Objective where +2 adds most to the chance of collecting (any for Prussia)."""
        free = self.ability[i] == "free_minister"
        prizes = self.prizes(i)
        best, best_j = -1e9, -1
        for j in range(self.k):
            if not free and not self.count[i][j]:
                continue
            mine, rival = self.tot[i][j], self.rival(i, j)
            u = prizes[j] * (_win(mine + 2 - rival) - _win(mine - rival))
            if u > best:
                best, best_j = u, j
        return best_j

    def treaties_rest(self, queue: list[str] | None) -> None:
        """The Congress Treaties still to come, in priority order, each activated if its
        owner can pay: everything is face up now, so a marker goes where it tips most."""
        pending = []
        for i in range(self.n):
            for t in self.signed[i]:
                c = card(t)
                if c.timing == "congress" and (queue is None or t in queue):
                    pending.append((c.priority, i, t))
        for _, i, t in sorted(pending):
            if self.aids[i] > 0:
                self.aids[i] -= 1
            elif self.minister[i] == -1:
                self.minister[i] = -2
            else:
                continue
            c = card(t)
            self.P[i] += c.prestige
            self.R[i] += 0 if self.simplified else c.receptions
            if c.marker:
                places = [j for j in range(self.k) if self.count[i][j]]
                if places:
                    self.extra(i, self.tip(i, places, c.marker), c.marker)
            if c.minus:
                for o, j in self.minus(i, c.minus):
                    self.extra(o, j, -1)

    def tip(self, i: int, places: list[int], add: int) -> int:
        """Where a marker of `add` helps most now that everything is face up."""
        prizes = self.prizes(i)

        def gain(j: int) -> float:
            mine = self.tot[i][j]
            rival = max((self.tot[o][j] for o in range(self.n) if o != i), default=0)
            return prizes[j] * (_win(mine + add - rival, 0.6) - _win(mine - rival, 0.6))

        return max(places, key=gain)

    def minus(self, i: int, count: int) -> list[tuple[int, int]]:
        """The delegations for `count` '-1' markers: each on the rival closest ahead of (or
        level with) seat i where the Reparation is worth most."""
        prizes = self.prizes(i)
        chosen: list[tuple[int, int]] = []
        cut = [[0] * self.k for _ in range(self.n)]
        for _ in range(count):
            best, target = -1.0, None
            for j in range(self.k):
                mine = self.tot[i][j]
                for o in range(self.n):
                    if o == i or not self.count[o][j]:
                        continue
                    gap = self.tot[o][j] - cut[o][j] - mine
                    u = prizes[j] / (1.0 + gap) if gap >= 0 else 0.1
                    if u > best:
                        best, target = u, (o, j)
            if target is None:
                break
            chosen.append(target)
            cut[target[0]][target[1]] += 1
        return chosen

    # -- the Congress and the value of the result -------------------------------------------
    def _best(self, totals: dict[int, float]) -> int:
        """The highest total; ties to the later Hierarchy position (reverse Hierarchy)."""
        return max(totals, key=lambda i: (totals[i], self.pos[i]))

    def collect(self, i: int, cid: str | None) -> None:
        if cid is None:
            return
        c = card(cid)
        self.held[i].append(cid)
        if c.type == "indemnity":
            self.P[i] += c.prestige
            if not self.simplified:
                self.R[i] += c.receptions
        elif c.type == "ally":
            self.allies_round[i].append(cid)

    def congress(self) -> None:
        for j in range(self.k):
            w = self._best({i: self.tot[i][j] for i in range(self.n)})
            self.collect(w, self.tops[j])
            self.down[w][j], self.up[w][j] = [], []
            self.tot[w][j] = self.count[w][j] = 0
            self.pub[w][j] = 0.0
            if self.minister[w] == j:
                self.minister[w] = -2
            if self.head[w] == j and not self.simplified:
                self.P[w] += 1
                self.R[w] += 1
        # the Principle of Balance as phases/congress.py gives it: the highest total above
        # zero; else the first in reverse Hierarchy standing at zero; never one below zero
        standing = [0] * self.n
        for i in range(self.n):
            here = [self.tot[i][j] for j in range(self.k) if self.count[i][j]]
            if here:
                standing[i] = max(here)
        left = {i: t for i, t in enumerate(standing) if t > 0}
        if left:
            self.collect(self._best(left), self.pob)
        else:
            level = [i for i in reversed(self.hier) if standing[i] == 0]
            if level:
                self.collect(level[0], self.pob)
        if self.simplified:
            return
        for j in range(self.k):
            f = self.favour[j]
            if f is None:
                continue
            above = {i: self.tot[i][j] for i in range(self.n) if self.count[i][j] and self.tot[i][j] > f}
            if above:
                for i in above:
                    self.R[i] += 1
                self.P[self._best(above)] += f

    def scores(self) -> list[float]:
        """Each seat's Prestige and what its cards will still give: the end of the game's
        points exactly after the last round, an estimate of them before."""
        if self.last_round:
            return [
                float(self.P[i] + final_points(self.held[i], self.allies_under[i], self.R[i])) for i in range(self.n)
            ]
        later = self.later
        out = []
        for i in range(self.n):
            v = self.P[i] + RECEPTION * self.R[i]
            counts, wild = self._aid_counts(i)
            v += _aid_worth(counts, wild, later)
            allies = self.allies_under[i] + sum(1 for x in self.allies_round[i] if not card(x).end)
            held = self.held[i]
            collected = self.allies_under[i] + sum(1 for x in held if card(x).type == "ally")
            indemnities = sum(1 for x in held if card(x).type == "indemnity")
            for x in held:
                c = card(x)
                if c.end == "per_indemnity":
                    v += c.end_value * (indemnities + 0.4 * later)
                elif c.end == "per_two_receptions":
                    v += c.end_value * 1.5
                elif c.end == "per_ally_under":
                    v += c.end_value * (allies + 0.4 * later)
                elif c.end == "per_ally_collected":
                    v += c.end_value * (collected + 0.4 * later)
                elif c.end == "portugal":
                    v += c.end_value + 2 * (counts[SYMBOL["naval"]] + 0.3 * later)
                elif c.type == "treaty" and not c.wild_aid and x not in self.signed[i]:
                    v += 0.5 * _treaty_worth(x)
            for x in self.allies_round[i]:
                c = card(x)
                if not c.end:
                    v += 0.9 * (c.marker + (c.bonus if c.bonus and any(counts) else 0))
            if self.lasting:
                v += 0.9 * self.ally[i] * later
            out.append(v)
        return out

    def values(self) -> list[float]:
        """Scores turned into each seat's value in [0, 1], on the scale of the search's
        `graded` outcome: three quarters a chance of winning, a quarter the place of the
        score between the lowest and the highest."""
        scores = self.scores()
        low, high = min(scores), max(scores)
        span = (high - low) or 1.0
        if self.last_round:
            top = max(range(self.n), key=lambda i: (scores[i], self.pos[i]))
            chance = [1.0 if i == top else 0.0 for i in range(self.n)]
        else:
            temp = 2.0 + 2.0 * self.later
            ex = [math.exp((s - high) / temp) for s in scores]
            total = sum(ex)
            chance = [e / total for e in ex]
        return [0.75 * chance[i] + 0.25 * (scores[i] - low) / span for i in range(self.n)]


_STEPS = 20  # the logistic's table: twenty entries per unit of margin / scale
_LOGISTIC = [1.0 / (1.0 + math.exp(-(k / _STEPS - 30.0))) for k in range(60 * _STEPS + 1)]


def _win(margin: float, scale: float = SPREAD) -> float:
    """The chance that a delegation ahead by `margin` (its estimate) wins the Objective."""
    k = int((margin / scale + 30.0) * _STEPS + 0.5)
    return _LOGISTIC[0 if k < 0 else (k if k <= 60 * _STEPS else 60 * _STEPS)]


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
    return total + _aid_points(counts[0], counts[1], counts[2], wild)


def finish(state: SchonbrunnState, rng: random.Random) -> list[float]:
    """Play the rest of the current round on a `Sketch` and value it for every seat."""
    sk = Sketch(state, rng)
    stage = state.stage
    if stage == "keep" or not state.tops_revealed:
        return sk.values()  # the Congress of this round is over
    step = STEP[stage]
    queue = [sk.idx[s] for s in state.queue]
    hier = sk.hier

    def rest(at: str) -> list[int]:
        return queue if stage == at else sk.hier

    if step <= STEP["commit"]:
        sk.commit_rest(queue)
    if step <= STEP["tiebreak"]:
        sk.order(state.tie_groups if stage == "tiebreak" else [])
        hier = sk.hier
    if step <= STEP["sign"]:
        sk.sign_rest(rest("sign"))
    if step <= STEP["receptions"]:
        sk.spend_rest(rest("receptions"))
    if step <= STEP["assign"]:
        if stage == "assign" and queue:
            sk.assign_rest((queue[0], state.assign_step, state.assign_left), queue[1:])
        else:
            sk.assign_rest(None, list(hier))
    if step <= STEP["plot"]:
        sk.plot_rest(rest("plot"))
    if step <= STEP["move"]:
        sk.move_rest(rest("move"))
    if step <= STEP["minister"]:
        sk.minister_rest(rest("minister"))
    sk.treaties_rest(state.treaty_queue if stage == "activate" else None)
    sk.congress()
    return sk.values()


# ---------------------------------------------------------------------------- one rule each


def heuristic(state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
    """A quick choice for every decision, from what the seat may see: the search's choice
    where it prunes a decision to one candidate, and a player of its own."""
    p = state.players[seat]
    stage = state.stage
    if stage == "bid":
        return built(A.Bid, receptions=min(2, p.receptions))
    if stage == "choose":
        return built(A.Choose, nation=state.nations_left[0])
    if stage == "commit":
        values = sorted(set(supply_values(state, seat)))
        return built(A.Commit, delegate=values[min(1, len(values) - 1)])
    if stage == "tiebreak":
        return _tiebreak(state, seat)
    if stage == "sign":
        return _sign(state, seat)
    if stage == "receptions":
        return built(A.Spend, receptions=_spend(state, seat))
    if stage == "favour":
        return built(A.Favour, objective=next(o for o in state.objectives if o not in state.favours_up))
    if stage == "activate":
        return _activate(state, seat)
    if stage == "keep":
        return _keep(state, seat)
    if stage == "move":
        return _moves(state, seat)[0]
    return _sketched(state, seat, rng)


def _sketched(state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
    """Assignments, the Delegation Head, a Plot, the Foreign Minister: the sketch's rule."""
    options = _options(state, seat)
    if len(options) == 1 or isinstance(options[0], A.Activate):
        return options[0]
    sk = Sketch(state, rng)
    i = sk.idx[seat]
    if state.stage == "plot":
        choice = sk.choose_plot(i)
        if choice is None:
            return built(A.Pass)
        o, j, spend = choice
        return built(A.Plot, nation=state.players[sk.seats[o]].nation, objective=sk.objs[j], receptions=spend, index=1)
    if state.stage == "minister":
        j = sk.choose_minister(i)
        return built(A.Minister, objective=sk.objs[j] if j >= 0 else None)
    if state.assign_step == "head":
        j = sk.choose_head(i)
        return built(A.Head, target=sk.objs[j] if j >= 0 else None)
    later = any(sk.pos[o] > sk.pos[i] for o in range(sk.n))
    step = "up" if state.assign_step == "up" else "down"
    v, j = sk.place(i, step, later)
    return built(A.Assign, delegate=v, objective=sk.objs[j])


def _tiebreak(state: SchonbrunnState, seat: str) -> A.TieBreak:
    """The later place is the better (it acts later and wins Congress ties): the breaker
    takes it if it is in the tie, and gives the earliest to the highest Prestige."""
    group = list(next(g for g in state.tie_groups if len(g) > 1))
    group.sort(key=lambda s: (-state.players[s].prestige, state.seats.index(s)))
    if seat in group and tie_resolver(state, group) == seat:
        group.remove(seat)
        group.append(seat)
    return built(A.TieBreak, order=[state.players[s].nation for s in group])


def _sign(state: SchonbrunnState, seat: str) -> A.Sign:
    """Sign the Treaties the Aids can pay for this round; the best first."""
    p = state.players[seat]
    usable = [t for t in p.screen if card(t).type == "treaty" and card(t).timing in ("assignments", "congress")]
    usable.sort(key=lambda t: (-_treaty_worth(t), t))
    room = len(aids_held(state, seat)) - len(p.signed)
    chosen = set(usable[: max(0, room)])
    return built(A.Sign, treaties=[t for t in p.screen if t in chosen])


def _spend(state: SchonbrunnState, seat: str) -> int:
    """All but one Reception kept for a Delegation Head (all in the last round when the
    Head has no Objective to pay for)."""
    cap = spend_limit(state, seat)
    return max(0, min(cap, state.players[seat].receptions - 1))


def _keep(state: SchonbrunnState, seat: str) -> A.Keep:
    """Keep a Treaty for an Aid only while its effect is worth more than the Aid's points."""
    p = state.players[seat]
    if state.round >= state.rounds:
        return built(A.Keep)
    aids = aids_held(state, seat)
    treaties = sorted(p.signed, key=lambda t: (-_treaty_worth(t), t))
    kept, paid = [], []
    for t in treaties:
        if not aids:
            break
        held = [x for x in [*p.screen, *p.signed] if x not in paid]
        loss = []
        for a in aids:
            counts = [0, 0, 0]
            for x in held:
                if x != a and card(x).type == "aid":
                    counts[SYMBOL[card(x).symbol]] += 1
            loss.append((_aid_worth(counts, 0, 1), a))
        keep_value = max(loss)  # the Aid whose loss leaves the most
        full = [0, 0, 0]
        for x in held:
            if card(x).type == "aid":
                full[SYMBOL[card(x).symbol]] += 1
        cost = _aid_worth(full, 0, 1) - keep_value[0]
        if 0.7 * _treaty_worth(t) > cost + 0.5:
            kept.append(t)
            paid.append(keep_value[1])
            aids.remove(keep_value[1])
    return built(A.Keep, treaties=kept, aids=paid)


def _activate(state: SchonbrunnState, seat: str) -> Any:
    """A Congress Treaty: free to activate with an Aid (or a Foreign Minister kept back);
    its marker where it tips an Objective, its '-1' markers on the closest rivals."""
    treaty = state.treaty_queue[0]
    c = card(treaty)
    p = state.players[seat]
    aids = unshown_aids(state, seat)
    if aids:
        pay = sorted(aids)[0]
    elif p.minister is None:
        pay = "minister"
    else:
        return built(A.Pass)
    sk = Sketch(state, random.Random(0))
    i = sk.idx[seat]
    objective = None
    if c.marker:
        places = [j for j in range(sk.k) if sk.present(i, j)]
        if not places:
            return built(A.Pass)
        objective = sk.objs[sk.tip(i, places, c.marker)]
    targets = []
    if c.minus:
        chosen = sorted(sk.minus(i, c.minus))
        targets = [built(A.Target, nation=state.players[sk.seats[o]].nation, objective=sk.objs[j]) for o, j in chosen]
    return built(A.Activate, treaty=treaty, pay=pay, objective=objective, targets=targets)


def _moves(state: SchonbrunnState, seat: str) -> list[A.Move]:
    target = state.players[seat].head
    out = []
    for d in face_up_of(state, target or ""):
        dests = move_destinations(state, target or "", d.place)
        out += [built(A.Move, objective=d.place, delegate=d.value, to=t) for t in dests] or [
            built(A.Move, objective=d.place, delegate=d.value, to=None)
        ]
    # the opponent's strongest piece first
    out.sort(key=lambda m: -m.delegate)
    return out


# ---------------------------------------------------------------------------- the candidates


def _options(state: SchonbrunnState, seat: str) -> list[Any]:
    """The choices worth the search's thought at a decision of Assignments, Plot or
    Chancellery (the others take one rule, `heuristic`)."""
    p = state.players[seat]
    stage = state.stage
    if stage == "assign":
        if state.assign_step == "head":
            for t in activatable(state, seat, "assignments"):
                if not card(t).marker and unshown_aids(state, seat):
                    return [_pay(state, seat, t, None)]
            return _heads(state, seat)
        values = sorted(set(supply_values(state, seat)))
        if state.assign_step == "last":
            for t in activatable(state, seat, "assignments"):
                if unshown_aids(state, seat):
                    if card(t).marker:
                        return [_pay(state, seat, t, o) for o in state.objectives]
                    return [_pay(state, seat, t, None)]
        if len(values) > 3:
            values = [values[0], values[len(values) // 2], values[-1]]
        return [built(A.Assign, delegate=v, objective=o) for v in values for o in state.objectives]
    if stage == "plot":
        return [built(A.Pass), *_plots(state, seat)]
    if stage == "minister":
        return [built(A.Minister, objective=None)] + [
            built(A.Minister, objective=o) for o in minister_objectives(state, seat)
        ]
    if stage == "move":
        return _moves(state, seat)[:6]
    raise AssertionError(stage, p.nation)


def _pay(state: SchonbrunnState, seat: str, treaty: str, objective: str | None) -> A.Activate:
    return built(A.Activate, treaty=treaty, pay=sorted(unshown_aids(state, seat))[0], objective=objective, targets=[])


def _heads(state: SchonbrunnState, seat: str) -> list[A.Head]:
    targets = head_targets(state, seat)
    mine = set(objectives_with_delegates(state, seat))
    out = [built(A.Head, target=None)]
    out += [built(A.Head, target=t) for t in targets if t in state.objectives and t in mine]
    # before a screen: the two rivals with the most Prestige, and whoever shows the strongest piece
    screens = [t for t in targets if t not in state.objectives]
    by_nation = {state.players[s].nation: s for s in state.seats}

    def threat(n: str) -> tuple[int, int]:
        s = by_nation[n]
        shown = [d.value for d in face_up_of(state, s)]
        return (state.players[s].prestige + max(shown, default=0), -state.seats.index(s))

    out += [built(A.Head, target=t) for t in sorted(screens, key=threat, reverse=True)[:2]]
    return out


def _plots(state: SchonbrunnState, seat: str) -> list[A.Plot]:
    """Plots against the leading rival delegations of Objectives where the seat stands or
    which hold more than it: 2, 3 or 4 Receptions (the reach of 3, 5 and 7)."""
    p = state.players[seat]
    most = min(4, p.receptions)
    amounts = [r for r in (2, 3, 4) if r <= most] or [most]
    mine = set(objectives_with_delegates(state, seat))
    seen: set[tuple[str, str]] = set()
    out = []
    for other, objective, index in plot_targets(state, seat):
        if objective not in mine or (other, objective) in seen:
            continue
        seen.add((other, objective))
        nation = state.players[other].nation
        out += [built(A.Plot, nation=nation, objective=objective, receptions=r, index=index) for r in amounts]
    return out


# ---------------------------------------------------------------------------- the knowledge


@dataclass
class _Unseen:
    """The hidden pools of a state as one seat sees it, each in a fixed order: Delegates
    (piece indices and their values), face-down Reparations (places and ids), Favours."""

    delegates: list[tuple[list[int], list[int]]]
    cards: list[tuple[list[tuple[str | None, int]], list[str]]]
    favour_places: list[str]
    favours: list[int]


class SchonbrunnKnowledge(Knowledge[SchonbrunnState]):
    horizon = 0  # no engine step below the tree: `evaluate` finishes the round on a Sketch

    def __init__(self, game: Any):
        super().__init__(game)
        self._unseen: tuple[SchonbrunnState, str, int, _Unseen] | None = None

    def determinize(self, state: SchonbrunnState, seat: str, rng: random.Random) -> SchonbrunnState:
        unseen = self._unseen_of(state, seat)
        d = clone(state)
        d.seed = rng.getrandbits(63)
        delegates = d.delegates
        for pieces, values in unseen.delegates:
            values = list(values)
            rng.shuffle(values)
            for i, v in zip(pieces, values, strict=True):
                if delegates[i].value != v:
                    delegates[i] = replaced(delegates[i], value=v)
        # into new lists: the copy shares the piles and the box with `state`
        piles = {o: list(pile) for o, pile in d.piles.items()}
        box_hidden = list(d.box_hidden)
        for places, ids in unseen.cards:
            ids = list(ids)
            rng.shuffle(ids)
            for (where, i), c in zip(places, ids, strict=True):
                (box_hidden if where is None else piles[where])[i] = c
        d.piles = {o: tuple(pile) for o, pile in piles.items()}
        d.box_hidden = box_hidden
        if unseen.favours:
            values = list(unseen.favours)
            rng.shuffle(values)
            for o, v in zip(unseen.favour_places, values, strict=False):
                d.favours[o] = v
            d.favour_spare = values[len(unseen.favour_places) :]
        if d.stage == "bid":
            for s in d.seats:
                other = d.players[s]
                if s != seat and other.bid is not None:
                    d.change(other, bid=rng.randint(1, max(1, other.receptions)))
        return d

    def _unseen_of(self, state: SchonbrunnState, seat: str) -> _Unseen:
        """What `seat` cannot see in `state`, gathered in a fixed order from what it can
        (kept for the decision's next iterations: the search determinizes one state again
        and again)."""
        cached = self._unseen
        if cached is not None and cached[0] is state and cached[1] == seat and cached[2] == state.step:
            return cached[3]
        objectives = set(state.objectives)
        # Delegates: each owner's unseen values dealt again among its unseen pieces
        hidden: dict[str, list[int]] = {}
        for i, x in enumerate(state.delegates):  # the pieces' order is public (made in seat order)
            if x.face_up or x.known:
                continue
            if x.owner == seat and (x.place not in objectives or state.see_own_face_down):
                continue
            hidden.setdefault(x.owner, []).append(i)
        delegates = []
        for owner in state.seats:
            pieces = hidden.get(owner, [])
            if len(pieces) > 1:
                delegates.append((pieces, sorted(state.delegates[i].value for i in pieces)))
        # Reparations face down: within their type (printed on the back), Poland in place
        start = 1 if state.tops_revealed else 0
        slots: dict[str, list[tuple[str | None, int]]] = {}
        for o in [*state.objectives, "PoB"]:
            pile = state.piles[o]
            for i in range(start, len(pile)):
                if not card(pile[i]).legitimacy:
                    slots.setdefault(card(pile[i]).type, []).append((o, i))
        for i, c in enumerate(state.box_hidden):
            slots.setdefault(card(c).type, []).append((None, i))
        deal = []
        for kind in ("indemnity", "ally", "aid", "treaty"):
            places = slots.get(kind, [])
            if len(places) > 1:
                ids = sorted((state.box_hidden if o is None else state.piles[o])[i] for o, i in places)
                deal.append((places, ids))
        # Political Favours face down, and the token left out
        down = [o for o in state.objectives if o in state.favours and o not in state.favours_up]
        favours = sorted([state.favours[o] for o in down] + state.favour_spare)
        unseen = _Unseen(delegates, deal, down, favours if len(favours) > 1 else [])
        self._unseen = (state, seat, state.step, unseen)
        return unseen

    def candidates(self, state: SchonbrunnState, seat: str) -> list[Any]:
        stage = state.stage
        if stage in ("bid", "commit"):
            if seat not in state.queue:
                return []
        elif state.queue[:1] != [seat]:
            return []
        if stage == "commit":
            return [built(A.Commit, delegate=v) for v in sorted(set(supply_values(state, seat)))]
        if stage == "receptions":
            cap = spend_limit(state, seat)
            return [built(A.Spend, receptions=r) for r in sorted({cap, max(0, cap - 1), _spend(state, seat)})]
        if stage == "bid":
            return [built(A.Bid, receptions=r) for r in range(1, min(3, state.players[seat].receptions) + 1)]
        if stage == "choose":
            return [built(A.Choose, nation=n) for n in state.nations_left]
        if stage in ("assign", "plot", "minister", "move"):
            return _options(state, seat)
        return [heuristic(state, seat, random.Random(state.step))]

    def playout(self, state: SchonbrunnState, seat: str, rng: random.Random) -> Any:
        return heuristic(state, seat, rng)

    def evaluate(self, state: SchonbrunnState) -> dict[str, float]:
        if state.stage in ("bid", "choose"):
            return {s: 1.0 / len(state.seats) for s in state.seats}
        rng = random.Random(state.seed ^ (state.step << 20))
        return dict(zip(state.seats, finish(state, rng), strict=True))

    def key(self, action: Any) -> Any:
        d = action.__dict__
        if d.get("kind") in ("activate", "tiebreak", "sign", "keep"):
            return repr(action)
        return tuple(d.values())
