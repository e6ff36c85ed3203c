"""`python -m bot pacing`: how many calendar days a game takes when people answer between
other things (docs/pacing.md; docs/architecture.md §6).

An event-driven simulation of the visit model in docs/pacing.md, over the engine: every
seat is a person who is sometimes there. The automatic player (`Game.bot_action`) makes
each choice; the model decides only *when* it is made. Deadlines run as a table with
default settings runs them (bot/service/tablebase.py `Settings`): a phase's deadline starts when
its key first appears, reminders are notices, and at expiry the default action is given
for every seat still owing; during a live session a single-player step is due in
`session_minutes`. Everything is drawn from the run's seed.

Decisions the table takes at once, as the service does (`Game.forced_action`, and
standing orders), take no time and are not hand-offs. The model's players leave standing
orders as a person would: after their own decision (`Game.bot_standing`), and on each
look at the table before a decision reaches them (`Game.bot_ahead`: a player who owes
nothing looks at their next visit, or at once if there, whenever the state has changed).
A hand-off is a decision in a phase that only one seat ever owed (a bid, an attack, a
Crisis action) made by another player than the decision before it: the others can do
nothing until that player has been there. The same player's next decision is the same
visit, and the last player to say "ready" in a diplomacy phase is not one.
"""

from __future__ import annotations

import heapq
import math
import random
import statistics
from bisect import insort
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game, IllegalAction, Model, Prompt, rng_for

from ..service.tablebase import Settings, owed_at_expiry, phase_seconds, single_step, standing_in_order

__all__ = ["VisitModel", "GameTiming", "Pacing", "pace", "play_timed"]

DAY = 86400.0
HOUR = 3600.0
MINUTE = 60.0


@dataclass(frozen=True)
class VisitModel:
    """When people are there (docs/pacing.md, "The model")."""

    visits_per_day: int = 3
    waking_hours: float = 16.0
    wake_at: float = 7.0  # local hour
    visit_minutes: tuple[float, float] = (30.0, 60.0)
    answer_median_minutes: float = 2.0
    answer_sigma: float = 0.7  # of the log-normal answer time
    notice_probability: float = 0.3
    notice_within_minutes: float = 30.0
    timezone_span_hours: float = 8.0  # seats spread evenly from UTC-5 over this many hours
    first_timezone: float = -5.0
    sessions_per_week: int = 0
    session_hours: float = 0.0
    session_start_utc: float = 18.0  # 13:00 at UTC-5, 21:00 at UTC+3

    def timezone(self, index: int, players: int) -> float:
        if players < 2:
            return self.first_timezone
        return self.first_timezone + self.timezone_span_hours * index / (players - 1)

    def sessions(self, start: float, until: float) -> list[tuple[float, float]]:
        """The live sessions between `start` and `until` (weeks counted from day 0, UTC)."""
        if self.sessions_per_week <= 0 or self.session_hours <= 0:
            return []
        out = []
        week = math.floor(start / (7 * DAY))
        while week * 7 * DAY < until:
            for k in range(self.sessions_per_week):
                day = math.floor(k * 7 / self.sessions_per_week)
                begin = week * 7 * DAY + day * DAY + self.session_start_utc * HOUR
                end = begin + self.session_hours * HOUR
                if end > start and begin < until:
                    out.append((begin, end))
            week += 1
        return out


class _Presence:
    """One person's visits: sorted (start, end) intervals, made a day at a time."""

    def __init__(self, model: VisitModel, tz: float, rng: random.Random, sessions: list[tuple[float, float]]):
        self.model, self.tz, self.rng = model, tz, rng
        self.spans: list[tuple[float, float]] = sorted(sessions)
        self.days_made = -1

    def _local_day_start(self, day: int) -> float:
        return day * DAY + (self.model.wake_at - self.tz) * HOUR  # UTC time of waking on local day `day`

    def _make_until(self, t: float) -> None:
        while self._local_day_start(self.days_made + 1) <= t + DAY:
            self.days_made += 1
            wake = self._local_day_start(self.days_made)
            for _ in range(self.model.visits_per_day):
                length = self.rng.uniform(*self.model.visit_minutes) * MINUTE
                begin = wake + self.rng.uniform(0, self.model.waking_hours * HOUR - length)
                insort(self.spans, (begin, begin + length))

    def awake(self, t: float) -> bool:
        local = (t / HOUR + self.tz - self.model.wake_at) % 24
        return local < self.model.waking_hours

    def present(self, t: float) -> bool:
        self._make_until(t)
        return any(b <= t < e for b, e in self.spans if b <= t)

    def next_arrival(self, t: float) -> float:
        """`t` if there now, else the start of the next visit (inf if none within a year)."""
        horizon = t
        while horizon < t + 365 * DAY:
            self._make_until(horizon)
            for b, e in self.spans:
                if b <= t < e:
                    return t
                if b > t:
                    return b
            horizon += DAY
        return math.inf

    def visit(self, begin: float) -> None:
        """A visit a notice brought about."""
        insort(self.spans, (begin, begin + self.rng.uniform(*self.model.visit_minutes) * MINUTE))


@dataclass
class GameTiming:
    days: float
    handoffs: int
    decisions: int
    defaults: int  # decisions a deadline gave
    # per prompt kind: [decisions, hand-offs, hours since the decision before]
    kinds: dict[str, list[float]] = field(default_factory=dict)
    # (when, seat, prompt kind) of each decision a player or a deadline answered
    log: list[tuple[float, str, str]] = field(default_factory=list)


def play_timed(
    game: Game,
    players: int,
    seed: int,
    model: VisitModel,
    settings: Settings | None = None,
    options: Model | None = None,
    max_steps: int = 20_000,
) -> GameTiming:
    """One game on the calendar. Deterministic for a seed."""
    settings = settings or Settings()
    rng = rng_for(seed, "pacing", "people")
    bots = random.Random(seed ^ 0x5EED)
    seats = [f"s{i + 1}" for i in range(players)]
    state = game.setup(seats, options or game.Options(), seed)
    start = rng.uniform(0, 7 * DAY)
    sessions = model.sessions(start, start + 365 * DAY)
    people = {
        seat: _Presence(model, model.timezone(i, players), rng_for(seed, "pacing", seat), sessions)
        for i, seat in enumerate(seats)
    }
    mu = math.log(model.answer_median_minutes * MINUTE)

    def answer_time() -> float:
        return rng.lognormvariate(mu, model.answer_sigma)

    def noticed(seat: str, t: float) -> float | None:
        """When a notice at `t` brings the seat's player, if it does."""
        person = people[seat]
        if person.present(t) or rng.random() >= model.notice_probability:
            return None
        come = t + rng.uniform(0, model.notice_within_minutes) * MINUTE
        if not person.awake(come):
            return None
        person.visit(come)
        return come

    t = start
    plans: dict[str, float] = {}  # seat -> when it answers
    looks: dict[str, float] = {}  # seat owing nothing -> when it next looks at the table
    looked: dict[str, int] = {}  # seat -> the state (its step) it last looked at
    ahead = getattr(game.bot_ahead, "__func__", None) is not Game.bot_ahead  # the game's players look in
    due: dict[str, float] = {}  # phase -> deadline
    reminders: list[tuple[float, str]] = []  # heap of (time, phase)
    owing_before: set[str] = set()
    width: dict[str, int] = {}  # phase -> the most seats that owed in it at once
    orders: dict[str, dict[str, str]] = {seat: {} for seat in seats}  # standing orders: name -> scope
    handoffs = decisions = defaults = 0
    last_seat: str | None = None  # who made the last decision (None: a deadline gave it)
    kinds: dict[str, list[float]] = {}
    log: list[tuple[float, str, str]] = []
    last = t

    def spent(kind: str, handoff: bool, seat: str) -> None:
        """Where the days go: the time since the decision before, by the kind answered."""
        nonlocal last
        log.append((t, seat, kind))
        row = kinds.setdefault(kind, [0.0, 0.0, 0.0])
        row[0] += 1
        row[1] += handoff
        row[2] += (t - last) / HOUR
        last = t

    # a table whose single-player steps wait for the next live session (between_sessions)
    wait = settings.between_sessions == "wait" and bool(sessions)

    def in_session_from(at: float) -> float:
        """The first moment at or after `at` inside a live session (everyone is there)."""
        return next((max(b, at) for b, e in sessions if e > at), math.inf)

    def leave(seat: str, names: list[str]) -> None:
        for name in names:
            scope = game.standing_scope(state, seat, name)
            if scope is not None:
                mine = orders[seat]
                for old in [n for n in mine if n.split(" ")[0] == name.split(" ")[0]]:
                    del mine[old]  # one order of a kind, as the service keeps them
                mine[name] = scope

    for _ in range(max_steps):
        if game.outcome(state) is not None:
            break
        prompts = game.prompts(state)
        taken = _take_at_once(game, state, prompts, orders)
        if taken is not None:  # no real choice: the table takes it without waiting (not a hand-off)
            state = taken
            decisions += 1
            continue
        phases = list(dict.fromkeys(p.phase for p in prompts))
        for phase in phases:
            if phase not in due:
                # a live session that outlasts it: a single-player step is due in session_minutes
                live = any(b <= t and t + settings.session_minutes * 60 <= e for b, e in sessions)
                next_in = next((b - t for b, _ in sessions if b > t), None) if wait and not live else None
                due[phase] = t + phase_seconds(settings, prompts, phase, live, next_in)
                for h in settings.reminders_hours:
                    if due[phase] - h * HOUR > t:
                        heapq.heappush(reminders, (due[phase] - h * HOUR, phase))
        for phase in [p for p in due if p not in phases]:
            del due[phase]
        soon = t + settings.session_minutes * 60
        if sessions and any(b <= t and soon <= e for b, e in sessions):
            for phase in phases:  # in a session the short deadline runs from the latest decision
                if due[phase] < soon and single_step(prompts, phase):
                    due[phase] = soon
        owing = {p.seat for p in prompts}
        for phase in phases:
            width[phase] = max(width.get(phase, 0), sum(p.phase == phase for p in prompts))
        for seat in [s for s in plans if s not in owing]:
            del plans[seat]
        waiting = {p.seat for p in prompts if wait and single_step(prompts, p.phase)}
        for seat in sorted(owing - plans.keys()):
            if seat in waiting:  # the table plays single-player steps in its sessions
                plans[seat] = in_session_from(t) + answer_time()
                continue
            arrival = people[seat].next_arrival(t)
            if seat not in owing_before and arrival > t:  # a turn notice goes out
                come = noticed(seat, t)
                if come is not None:
                    arrival = min(arrival, come)
            plans[seat] = arrival + answer_time()
        owing_before = owing
        for seat in [s for s in looks if s in owing]:
            del looks[seat]
        if ahead:  # everyone else sees the table at their next visit (at once if there)
            for seat in seats:
                if seat not in owing and seat not in looks and looked.get(seat) != state.step:
                    looks[seat] = people[seat].next_arrival(t) + answer_time()
        while reminders and reminders[0][1] not in due:
            heapq.heappop(reminders)
        seat, when = min(plans.items(), key=lambda kv: (kv[1], kv[0]))
        phase, deadline = min(due.items(), key=lambda kv: kv[1])
        looker, look_at = min(looks.items(), key=lambda kv: (kv[1], kv[0])) if looks else ("", math.inf)
        if reminders and reminders[0][0] < min(when, deadline, look_at):
            at, phase = heapq.heappop(reminders)
            t = at
            for p in prompts:
                if p.phase == phase and p.seat not in waiting:
                    come = noticed(p.seat, t)
                    if come is not None:
                        plans[p.seat] = min(plans[p.seat], come + answer_time())
            continue
        if look_at < min(when, deadline):  # a player looks in and answers ahead what they can
            t = look_at
            del looks[looker]
            looked[looker] = state.step
            leave(looker, game.bot_ahead(state, looker, bots))
            continue
        if deadline <= when:  # time is up: the default for every seat still owing in the phase
            t = deadline
            del due[phase]
            turns: set[tuple[str, str]] = set()
            for _ in range(200):
                owing_now = owed_at_expiry(game.prompts(state), phase, turns)
                if not owing_now or game.outcome(state) is not None:
                    break
                handoff = width[phase] == 1 and owing_now[0].phase == phase  # a turn's rest is no hand-off
                handoffs += handoff
                spent(owing_now[0].kind, handoff, owing_now[0].seat)
                seat = owing_now[0].seat
                if owing_now[0].turn is not None:
                    turns.add((seat, owing_now[0].turn))
                state, _ = game.apply(state, seat, game.default_action(state, seat))
                decisions += 1
                defaults += 1
                last_seat = None
            continue
        t = when
        answered = next(p for p in prompts if p.seat == seat)
        # the game passes to another player; the same player's next decision is the same visit
        handoff = width[answered.phase] == 1 and seat != last_seat
        handoffs += handoff
        spent(answered.kind, handoff, seat)
        action = game.bot_action(state, seat, bots)
        leave(seat, game.bot_standing(state, seat, action, bots))
        state, _ = game.apply(state, seat, action)
        del plans[seat]
        decisions += 1
        last_seat = seat
    else:
        raise AssertionError(f"{game.id}: no outcome after {max_steps} steps")
    return GameTiming(
        days=(t - start) / DAY,
        handoffs=handoffs,
        decisions=decisions,
        defaults=defaults,
        kinds=kinds,
        log=log,
    )


@dataclass
class Pacing:
    game: str
    title: str
    players: int
    games: int
    seed: int
    model: VisitModel
    settings: Settings = field(default_factory=Settings)
    timings: list[GameTiming] = field(default_factory=list)

    def median_days(self) -> float:
        return statistics.median(g.days for g in self.timings)

    def p90_days(self) -> float:
        days = sorted(g.days for g in self.timings)
        return days[min(len(days) - 1, math.ceil(0.9 * len(days)) - 1)]

    def handoffs(self) -> float:
        return statistics.fmean(g.handoffs for g in self.timings)

    def by_kind(self) -> list[str]:
        """Where the days go, per game: decisions, hand-offs and the days spent waiting for
        each kind of decision (the time since the decision before it), most days first."""
        rows: dict[str, list[float]] = {}
        for timing in self.timings:
            for kind, row in timing.kinds.items():
                total = rows.setdefault(kind, [0.0, 0.0, 0.0])
                for i, value in enumerate(row):
                    total[i] += value / len(self.timings)
        return [
            f"  {kind}: {d:.1f} answered, {h:.1f} hand-offs, {hours / 24:.1f} days"
            for kind, (d, h, hours) in sorted(rows.items(), key=lambda kv: (-kv[1][2], kv[0]))
        ]

    def text(self, by_kind: bool = False) -> str:
        mode = (
            f"{self.model.sessions_per_week} sessions of {self.model.session_hours:g} h a week"
            if self.model.sessions_per_week
            else "no live sessions"
        )
        if self.model.sessions_per_week and self.settings.between_sessions == "wait":
            mode += ", single-player steps wait for them"
        decisions = statistics.fmean(g.decisions for g in self.timings)
        defaults = statistics.fmean(g.defaults for g in self.timings)
        return "\n".join(
            [
                f"{self.title}: {self.players} player{'s' if self.players != 1 else ''}, {self.games} games, seed {self.seed}, {mode}",
                f"decisions per game: {decisions:.0f} (given by a deadline: {defaults:.1f})",
                *(
                    ["where the days go, per game (by the decision waited for):", *self.by_kind()]
                    if by_kind
                    else []
                ),
                f"median days: {self.median_days():.1f}; p90 days: {self.p90_days():.1f}; "
                f"hand-offs per game: {self.handoffs():.0f}",
            ]
        )


def pace(
    game: Game,
    players: int,
    games: int,
    seed: int,
    model: VisitModel,
    settings: Settings | None = None,
    options: Model | None = None,
) -> Pacing:
    if games < 1:
        raise ValueError("Play at least one game.")
    result = Pacing(game.id, game.title, players, games, seed, model, settings or Settings())
    for index in range(games):
        game_seed = rng_for(seed, index, "pacing").getrandbits(63)
        result.timings.append(play_timed(game, players, game_seed, model, settings, options))
    return result


def _take_at_once(
    game: Game, state: Any, prompts: list[Prompt], orders: dict[str, dict[str, str]]
) -> Any | None:
    """The state after a decision the service takes at once, as `Play.autoplay`
    does: one with no real choice (`Game.forced_action`) or one a standing order answers
    (an order whose decision is still owed after it, a draft, is used up)."""
    for p in prompts:
        forced = game.forced_action(state, p.seat)
        if forced is not None:
            return game.apply(state, p.seat, forced.action)[0]
        for name, scope in standing_in_order(game, orders.get(p.seat, {})):
            if game.standing_scope(state, p.seat, name) == scope:
                action = game.standing_action(state, p.seat, name)
                if action is not None:
                    try:
                        after = game.apply(state, p.seat, action)[0]
                    except IllegalAction:  # no longer legal: the service withdraws it
                        del orders[p.seat][name]
                        return state
                    if any(q.seat == p.seat and q.phase == p.phase for q in game.prompts(after)):
                        del orders[p.seat][name]
                    return after
    return None
