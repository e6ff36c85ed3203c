"""An automatic player for Origins of World War I.

It judges a position by the victory points it would score now plus the progress towards
objectives not yet held, less what the other players' PFs threaten, and it plays for its
own seat's lead: a gain to the leading rival counts against it as much as its own gain
counts for it. So it places where it gains treaty rights, places a few PFs beside a rival's
thin treaty rights to break them, reinforces its own, and attacks where the dice favour it
in victory points. It reads only the public board, the public income and its own sheets.
It also drives the fuzzing and the simulations, so it still bids, splits and eliminates now
and then."""

from __future__ import annotations

import random
from functools import cache
from types import SimpleNamespace
from typing import Any

from engine.core import IllegalAction

from . import attacks, content, placement, scoring
from .actions import Attack, Bid, Done, Pass, Ready, Submit
from .state import OriginsState, Sheet

PROGRESS = 0.4  # VP-equivalent of PFs short of treaty rights, per objective VP
THREAT = 0.5  # weight of the chance that a rival's PFs beside a treaty right break it
SAFE = 16  # PFs from which a treaty right no longer needs reinforcing


def choose(state: OriginsState, seat: str, rng: random.Random) -> Any:
    if state.phase == "bidding":
        return modest_bid(state, seat, rng)
    if state.phase == "placement":
        return Submit(sheets=_plan_seat(state, seat, rng))
    if state.phase == "attacks":
        return _attack(state, state.order[state.attacker], rng)
    return Ready()


def modest_bid(state: OriginsState, seat: str, rng: random.Random) -> Any:
    """Now and then a bid of 1-3 PFs to move one's own card to the top; else pass."""
    amount = state.high_bid + 1
    if amount > 3 or rng.random() > 0.3:
        return Pass()
    for country in state.countries_of(seat):
        if state.order[0] != country and placement.funds(state, country) >= amount:
            return Bid(payer=country, card=country, position=1, amount=amount)
    return Pass()


# -- judging a position -------------------------------------------------------------------


@cache
def _p_break(committed: int, defending: int) -> float:
    """Chance that `committed` PFs attacking `defending` leave fewer than 10 (§7, §8)."""
    col = attacks.column(committed, defending)
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            outcome = attacks.result(a + b, col)
            if outcome == "DE" or (
                outcome == "EX" and defending - min(committed, defending) < scoring.TREATY
            ):
                hits += 1
    return hits / 36


def _objectives() -> dict[str, list[tuple[str, int, int]]]:
    """power -> [(location, points, exclusive points)]."""
    out: dict[str, list[tuple[str, int, int]]] = {}
    for obj in content.objectives().objectives:
        out.setdefault(obj.power, []).append((obj.location, obj.points, obj.exclusive or obj.points))
    return out


class _Judge:
    """Values positions for one seat; everything it uses is public or the seat's own."""

    def __init__(self, state: OriginsState, seat: str):
        self.holders = dict(state.holders)
        self.seat = seat
        self.seats = list(state.seats)
        doubled = scoring.doubled_seats(state)
        self.factor = {s: 2 if s in doubled else 1 for s in self.seats}
        self.objectives = _objectives()
        self.wanted = [(c, self.objectives.get(c, [])) for c in self.holders]
        late = state.last_turn  # on the last turn only what stands at the end counts
        self.progress = PROGRESS * (0.25 if late else 1)
        self.threat = THREAT

    def country_values(self, pfs: dict[str, dict[str, int]]) -> dict[str, float]:
        board = SimpleNamespace(pfs=pfs, holders=self.holders)
        values: dict[str, float] = {c: float(v) for c, v in scoring.country_vps(board).items()}  # type: ignore[arg-type]
        treaties = scoring.treaty_rights(board)  # type: ignore[arg-type]
        for country, wanted in self.wanted:
            seat = self.holders[country]
            for location, points, exclusive in wanted:
                here = pfs.get(location)
                if not here:  # no PFs there: no progress and nothing to defend
                    continue
                mine = here.get(country, 0)
                if mine < scoring.TREATY:
                    if mine:
                        values[country] += self.progress * points * mine / scoring.TREATY
                    continue
                if mine >= SAFE:
                    continue
                # the strongest attack another seat could make here this turn
                danger = 0.0
                for c, n in here.items():
                    if c != country and c != location and self.holders.get(c, seat) != seat:
                        danger = max(danger, _p_break(n, mine))
                if danger:
                    worth = exclusive if treaties[location] == [country] else points
                    values[country] -= self.threat * danger * worth
        return values

    def utility(self, pfs: dict[str, dict[str, int]]) -> float:
        values = self.country_values(pfs)
        totals = dict.fromkeys(self.seats, 0.0)
        for country, value in values.items():
            totals[self.holders[country]] += value
        for s in totals:
            totals[s] *= self.factor[s]
        mine = totals.pop(self.seat)
        if not totals:
            return mine
        others = list(totals.values())
        return mine - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def _copy(pfs: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {e: dict(here) for e, here in pfs.items()}


def _add(pfs: dict[str, dict[str, int]], embassy: str, country: str, n: int) -> None:
    here = pfs.setdefault(embassy, {})
    left = here.get(country, 0) + n
    if left > 0:
        here[country] = left
    else:
        here.pop(country, None)


# -- Phase 4: the sheets --------------------------------------------------------------------


def _plan_seat(state: OriginsState, seat: str, rng: random.Random) -> dict[str, Sheet]:
    judge = _Judge(state, seat)
    pfs = _copy(state.pfs)
    sheets = {}
    for country in state.countries_of(seat):
        sheets[country] = _plan(state, country, rng, judge, pfs)  # later countries see earlier sheets
    return sheets


def plan(state: OriginsState, country: str, rng: random.Random) -> Sheet:
    """One country's sheet for this turn."""
    return _plan(state, country, rng, _Judge(state, state.holders[country]), _copy(state.pfs))


def _plan(
    state: OriginsState, country: str, rng: random.Random, judge: _Judge, pfs: dict[str, dict[str, int]]
) -> Sheet:
    """Greedy: again and again place the few PFs that raise the seat's utility most per PF.
    `pfs` is updated with the sheet's placements."""
    limit = placement.cap(state)
    income = state.unplaced.get(country, 0)
    home = state.at(country, country)
    sheet = Sheet()
    current = judge.utility(pfs)
    jitter = {e: rng.random() * 0.02 for e in content.embassies()}
    while income + home > 0:
        best: tuple[float, str, int, float] | None = None
        for embassy in content.embassies():
            if embassy == country:
                continue
            room = min(limit - sheet.place.get(embassy, 0), income + home)
            short = scoring.TREATY - pfs.get(embassy, {}).get(country, 0)
            # a few sizes only: a probe, a full stack, and just enough for treaty rights
            for n in sorted({min(3, room), room, short if 0 < short < room else room}):
                if n <= 0:
                    continue
                _add(pfs, embassy, country, n)
                from_home = max(0, n - income)
                _add(pfs, country, country, -from_home)
                value = judge.utility(pfs)
                _add(pfs, country, country, from_home)
                _add(pfs, embassy, country, -n)
                gain = (value - current) / n + jitter[embassy]
                if best is None or gain > best[0]:
                    best = (gain, embassy, n, value)
        if best is None:
            break
        gain, embassy, n, value = best
        # income beyond what may go home is lost, so it is placed even at a small loss
        if gain <= 0.0 and income <= limit:
            break
        from_home = max(0, n - income)
        income -= n - from_home
        home -= from_home
        _add(pfs, embassy, country, n)
        _add(pfs, country, country, -from_home)
        sheet.place[embassy] = sheet.place.get(embassy, 0) + n
        current = value
    _add(pfs, country, country, min(income, limit))
    if rng.random() < 0.05:  # now and then give up PFs that serve no objective (Phase 4)
        wanted = {loc for loc, _, _ in judge.objectives.get(country, [])}
        idle = [
            e
            for e, here in state.pfs.items()
            if here.get(country, 0) > 0 and e not in wanted and e != country
        ]
        if idle:
            embassy = rng.choice(idle)
            sheet.remove[embassy] = rng.randint(1, min(placement.ELIMINATE_CAP, state.at(embassy, country)))
    return legal_or_empty(state, country, sheet)


def legal_or_empty(state: OriginsState, country: str, sheet: Sheet) -> Sheet:
    """`sheet` if the rules allow it, else an empty one: a bot never hands in an illegal sheet."""
    try:
        placement.check_sheet(state, country, sheet)
    except IllegalAction:
        return Sheet()
    return sheet


def random_sheet(state: OriginsState, country: str, rng: random.Random) -> Sheet:
    """Any legal sheet, for the hidden-information check."""
    limit = placement.cap(state)
    budget = placement.funds(state, country)
    sheet = Sheet()
    for embassy in rng.sample(content.embassies(), rng.randint(0, 4)):
        n = rng.randint(0, min(limit, budget))
        if n:
            sheet.place[embassy] = n
            if embassy != country:
                budget -= n
    held = [e for e, here in state.pfs.items() if here.get(country, 0) > 0 and e != country]
    if held and rng.random() < 0.3:
        embassy = rng.choice(held)
        sheet.remove[embassy] = rng.randint(1, min(placement.ELIMINATE_CAP, state.at(embassy, country)))
    return legal_or_empty(state, country, sheet)


# -- Phase 5: the attacks ---------------------------------------------------------------------


def _expected(
    judge: _Judge, pfs: dict[str, dict[str, int]], country: str, embassy: str, target: str, n: int
) -> float:
    """The seat's expected utility after `n` PFs of `country` attack `target` in `embassy`."""
    defending = pfs.get(embassy, {}).get(target, 0)
    col = attacks.column(n, defending)
    memo: dict[str, float] = {}
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            outcome = attacks.result(a + b, col)
            if outcome not in memo:
                lost_a, lost_d = attacks.losses(outcome, n, defending)
                after = _copy(pfs)
                _add(after, embassy, country, -lost_a)
                _add(after, embassy, target, -lost_d)
                memo[outcome] = judge.utility(after)
            total += memo[outcome]
    return total / 36


def attack(state: OriginsState, country: str, rng: random.Random) -> Any:
    """The country's next attack on the board as it stands, or Done."""
    return _attack(state, country, rng)


def plan_seat(state: OriginsState, seat: str, rng: random.Random) -> dict[str, Sheet]:
    """The seat's sheets for this turn, on the board and funds as they stand."""
    return _plan_seat(state, seat, rng)


def _attack(state: OriginsState, country: str, rng: random.Random) -> Any:
    seat = state.holders[country]
    judge = _Judge(state, seat)
    # a country's attacks are its last chance this turn to change the board
    now = judge.utility(state.pfs)
    best: tuple[float, str, str] | None = None
    gains: dict[tuple[str, str], float] = {}
    for embassy in attacks.attack_embassies(state, country):
        mine = state.at(embassy, country)
        for target in attacks.targets(state, country, embassy):
            if state.holders[target] == seat:
                continue  # never against one's own other country
            gain = _expected(judge, state.pfs, country, embassy, target, mine) - now
            gains[(embassy, target)] = gain
            if gain > 0.05 and (best is None or gain > best[0]):
                best = (gain, embassy, target)
    if best is None:
        return Done()
    _, embassy, target = best
    mine = state.at(embassy, country)
    others = [t for (e, t), g in gains.items() if e == embassy and t != target and g > 0]
    left = attacks.allowed(state) - state.attacks_made
    if others and left >= 2 and mine >= 2 and rng.random() < 0.2:
        # split the embassy's PFs between two defenders it gains by attacking (§7)
        first = max(1, mine * 2 // 3)
        return Attack(embassy=embassy, split={target: first, others[0]: mine - first})
    return Attack(embassy=embassy, split={target: mine})
