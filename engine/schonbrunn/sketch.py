"""The sketch of a round: one (determinized) state of Schönbrunn in plain lists, which the
strong player (strong.py) plays to the end of the round's Congress with a fast policy
(foresight.py) and then values for every seat, about a hundred times cheaper than the
engine's steps.

`Sketch` holds the board and keeps every delegation's total as it changes, says what
collecting each Reparation is worth to a seat, resolves the Congress as phases/congress.py
does, and turns each seat's Prestige plus what its cards will still give into a value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from .content import card, cards
from .state import SchonbrunnState
from .worth import RECEPTION, SYMBOL, aid_worth, final_points, nation_powers, treaty_worth

__all__ = ["Sketch"]

_WORTH: dict[tuple[str, tuple[str, ...], int, int, int, bool], float] = {}  # Sketch.card_worth, by card and what the seat holds


class Sketch:
    """One round of a (determinized) state in plain lists, played to the end of its Congress
    by a fast policy, then valued for every seat. Seats and Objectives are indices; every
    delegation's total is kept as it changes, both as it is (`tot`) and as the other seats
    may judge it (`pub`: a face-down Delegate at its owner's `guess`)."""

    def __init__(self, state: SchonbrunnState, rng: random.Random):
        self.rng = rng
        self.seats = seats = state.seats
        self.n = len(seats)
        self.idx = idx = {s: i for i, s in enumerate(seats)}
        self.objs = objs = state.objectives
        self.k = len(objs)
        oj = {o: j for j, o in enumerate(objs)}
        self.simplified = state.simplified
        self.later = state.rounds - state.round  # rounds after this one
        self.last_round = self.later == 0
        self.lasting = state.lasting_allies
        self._read_players(state, oj)
        self._read_board(state, oj)
        self.hier = [idx[s] for s in state.hierarchy]
        self.pos = [0] * self.n
        for r, i in enumerate(self.hier):
            self.pos[i] = r
        self.tops = [state.piles[o][0] if state.piles[o] and state.tops_revealed else None for o in objs]
        pob = state.piles["PoB"]
        self.pob = pob[0] if pob and state.tops_revealed else None
        self.favour = [state.favours.get(o) for o in objs] if state.favours else [None] * self.k
        self._prizes: list[list[float] | None] = [None] * self.n

    def _read_players(self, state: SchonbrunnState, oj: dict[str, int]) -> None:
        """Each seat's Receptions, Prestige, Ally markers, Foreign Minister, Delegation Head,
        Nation and cards."""
        seats, n, idx = self.seats, self.n, self.idx
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
            power, head_value, ability, first = nation_powers(p.nation)
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

    def _read_board(self, state: SchonbrunnState, oj: dict[str, int]) -> None:
        """The Delegates in the supplies, committed and on the board, the markers, and every
        delegation's total (`tot`, `pub`, `count`)."""
        n, k, idx = self.n, self.k, self.idx
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
            before = aid_worth(counts, wild, later)
            counts[SYMBOL[c.symbol]] += 1
            v = aid_worth(counts, wild, later) - before
            if later and any(card(x).type == "treaty" for x in held):
                v += 0.5  # it pays for a Treaty too
            if c.symbol == "naval" and any(card(x).end == "portugal" for x in held):
                v += 2
            return v
        if c.wild_aid:
            counts, wild = self._aid_counts(i)
            return aid_worth(counts, wild + 1, later) - aid_worth(counts, wild, later)
        return 0.7 * treaty_worth(cid) if later else 0.0

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

    # -- the Congress and the value of the result -------------------------------------------
    def _best(self, totals: Mapping[int, float]) -> int:
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
            v += aid_worth(counts, wild, later)
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
                    v += 0.5 * treaty_worth(x)
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

