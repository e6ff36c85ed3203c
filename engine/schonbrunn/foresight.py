"""The sketch of a round played on (sketch.py): the fast policy every seat follows for the
rest of the round, stage by stage, and `finish`, which plays it from any state to the end
of the round's Congress and values the result for every seat (what the strong player's
`evaluate` returns, strong.py).

The policy: greedy Delegates by the worth of each Reparation, the Delegation Head where it
is likely to collect, Plots and the Foreign Minister where they can tip an Objective, the
Treaties their owners can pay for.
"""

from __future__ import annotations

import random

from .content import card, plot_reach
from .sketch import Sketch
from .state import SchonbrunnState
from .worth import LOGISTIC, LOGISTIC_STEPS, RECEPTION, SPREAD, win_chance

__all__ = ["Foresight", "finish", "finished"]

STAGES = ("commit", "tiebreak", "sign", "receptions", "favour", "assign", "plot", "move", "minister", "activate")
STEP = {s: i for i, s in enumerate(STAGES)}


class Foresight(Sketch):
    """A `Sketch` with every seat's fast policy for the rest of the round, stage by stage."""

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
        table, top = LOGISTIC, 60 * LOGISTIC_STEPS
        scale = LOGISTIC_STEPS / SPREAD
        for j in range(self.k):
            x = (mine[j] - rivals[j]) * scale + 30.0 * LOGISTIC_STEPS + 0.5
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
            u = win_chance(self.tot[i][j] + self.head_value[i] - self.rival(i, j)) * (prizes[j] + 1.0 + RECEPTION)
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
            u = prizes[j] * (win_chance(mine + 2 - rival) - win_chance(mine - rival))
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
            return prizes[j] * (win_chance(mine + add - rival, 0.6) - win_chance(mine - rival, 0.6))

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


def finish(state: SchonbrunnState, rng: random.Random) -> list[float]:
    """Play the rest of the current round on a `Sketch` and value it for every seat."""
    return finished(state, rng).values()


def finished(state: SchonbrunnState, rng: random.Random) -> Foresight:
    """The `Sketch` of the current round played to its end (its `values` and `scores`)."""
    sk = Foresight(state, rng)
    stage = state.stage
    if stage == "keep" or not state.tops_revealed:
        return sk  # the Congress of this round is over
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
    return sk


# ---------------------------------------------------------------------------- one rule each
