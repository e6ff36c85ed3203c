"""`python -m bot pacing`: how many calendar days a game takes when people answer between
other things (docs/pacing.md; docs/architecture.md §6).

An event-driven simulation of the visit model in docs/pacing.md, over the engine: every
seat is a person who is sometimes there. The automatic player (`Game.bot_action`) makes
each choice; the model decides only *when* it is made. Deadlines run as a table with
default settings runs them (bot/service/settings.py `Settings`): a phase's deadline starts when
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

from ..service.phases import owed_at_expiry, phase_seconds, single_step, standing_in_order
from ..service.settings import Settings

__all__ = ["VisitModel", "GameTiming", "TimedGame", "Pacing", "pace", "play_timed"]

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


class TimedGame:
    """One game on the calendar (docs/pacing.md): the table's state, each person's visits,
    the deadlines and reminders of the phases open, and when each seat will next act or
    look in. `run` goes from event to event until the game ends. Deterministic for a seed:
    every draw is made in the same order whatever the structure of the code."""

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int,
        model: VisitModel,
        settings: Settings | None = None,
        options: Model | None = None,
    ):
        self.game, self.model = game, model
        self.settings = settings or Settings()
        self.rng = rng_for(seed, "pacing", "people")  # the start, notices, answer times
        self.bots = random.Random(seed ^ 0x5EED)  # the automatic players' choices
        self.seats = [f"s{i + 1}" for i in range(players)]
        self.state = game.setup(self.seats, options or game.Options(), seed)
        self.start = self.now = self.rng.uniform(0, 7 * DAY)
        self.sessions = model.sessions(self.start, self.start + 365 * DAY)
        self.people = {
            seat: _Presence(model, model.timezone(i, players), rng_for(seed, "pacing", seat), self.sessions)
            for i, seat in enumerate(self.seats)
        }
        self.mu = math.log(model.answer_median_minutes * MINUTE)
        # a table whose single-player steps wait for the next live session (between_sessions)
        self.wait = self.settings.between_sessions == "wait" and bool(self.sessions)
        # the game's players look in ahead only if the game says what they would do there
        self.ahead = getattr(game.bot_ahead, "__func__", None) is not Game.bot_ahead
        self.plans: dict[str, float] = {}  # seat -> when it answers
        self.looks: dict[str, float] = {}  # seat owing nothing -> when it next looks at the table
        self.looked: dict[str, int] = {}  # seat -> the state (its step) it last looked at
        self.due: dict[str, float] = {}  # phase -> deadline
        self.reminders: list[tuple[float, str]] = []  # heap of (time, phase)
        self.owing_before: set[str] = set()  # a turn notice goes only to a seat newly owing
        self.waiting: set[str] = set()  # seats whose single-player step waits for a session
        self.width: dict[str, int] = {}  # phase -> the most seats that owed in it at once
        self.orders: dict[str, dict[str, str]] = {seat: {} for seat in self.seats}  # name -> scope
        self.handoffs = self.decisions = self.defaults = 0
        self.last_seat: str | None = None  # who made the last decision (None: a deadline gave it)
        self.kinds: dict[str, list[float]] = {}
        self.log: list[tuple[float, str, str]] = []
        self.last = self.start  # when the decision before was made

    def run(self, max_steps: int = 20_000) -> GameTiming:
        for _ in range(max_steps):
            if self.game.outcome(self.state) is not None:
                break
            prompts = self.game.prompts(self.state)
            taken = _take_at_once(self.game, self.state, prompts, self.orders)
            if taken is not None:  # no real choice: the table takes it without waiting (not a hand-off)
                self.state = taken
                self.decisions += 1
                continue
            self.open_deadlines(prompts)
            self.plan_answers(prompts)
            self.plan_looks(prompts)
            self.next_event(prompts)
        else:
            raise AssertionError(f"{self.game.id}: no outcome after {max_steps} steps")
        return GameTiming(
            days=(self.now - self.start) / DAY,
            handoffs=self.handoffs,
            decisions=self.decisions,
            defaults=self.defaults,
            kinds=self.kinds,
            log=self.log,
        )

    def answer_time(self) -> float:
        return self.rng.lognormvariate(self.mu, self.model.answer_sigma)

    def noticed(self, seat: str) -> float | None:
        """When a notice now brings the seat's player, if it does."""
        person = self.people[seat]
        if person.present(self.now) or self.rng.random() >= self.model.notice_probability:
            return None
        come = self.now + self.rng.uniform(0, self.model.notice_within_minutes) * MINUTE
        if not person.awake(come):
            return None
        person.visit(come)
        return come

    def in_session_from(self, at: float) -> float:
        """The first moment at or after `at` inside a live session (everyone is there)."""
        return next((max(b, at) for b, e in self.sessions if e > at), math.inf)

    def in_session(self) -> bool:
        """Whether a live session lasts at least `session_minutes` from now."""
        soon = self.now + self.settings.session_minutes * 60
        return any(b <= self.now and soon <= e for b, e in self.sessions)

    def spent(self, kind: str, handoff: bool, seat: str) -> None:
        """Where the days go: the time since the decision before, by the kind answered."""
        self.log.append((self.now, seat, kind))
        row = self.kinds.setdefault(kind, [0.0, 0.0, 0.0])
        row[0] += 1
        row[1] += handoff
        row[2] += (self.now - self.last) / HOUR
        self.last = self.now

    def leave(self, seat: str, names: list[str]) -> None:
        """Standing orders the seat's player leaves, if they apply to the state now."""
        for name in names:
            scope = self.game.standing_scope(self.state, seat, name)
            if scope is not None:
                mine = self.orders[seat]
                for old in [n for n in mine if n.split(" ")[0] == name.split(" ")[0]]:
                    del mine[old]  # one order of a kind, as the service keeps them
                mine[name] = scope

    def open_deadlines(self, prompts: list[Prompt]) -> None:
        """A phase's deadline starts when its key first appears and goes with the phase;
        its reminders are queued as it starts."""
        phases = list(dict.fromkeys(p.phase for p in prompts))
        for phase in phases:
            self.width[phase] = max(self.width.get(phase, 0), sum(p.phase == phase for p in prompts))
            if phase not in self.due:
                # a live session that outlasts it: a single-player step is due in session_minutes
                live = self.in_session()
                next_in = None
                if self.wait and not live:  # the step waits for the next session to begin
                    next_in = next((b - self.now for b, _ in self.sessions if b > self.now), None)
                self.due[phase] = self.now + phase_seconds(self.settings, prompts, phase, live, next_in)
                for h in self.settings.reminders_hours:
                    if self.due[phase] - h * HOUR > self.now:
                        heapq.heappush(self.reminders, (self.due[phase] - h * HOUR, phase))
        for phase in [p for p in self.due if p not in phases]:
            del self.due[phase]
        if self.sessions and self.in_session():
            soon = self.now + self.settings.session_minutes * 60
            for phase in phases:  # in a session the short deadline runs from the latest decision
                if self.due[phase] < soon and single_step(prompts, phase):
                    self.due[phase] = soon

    def plan_answers(self, prompts: list[Prompt]) -> None:
        """When each seat owing a decision will answer: at its next visit, sooner if a turn
        notice brings it, or in the next live session if the table waits for one."""
        owing = {p.seat for p in prompts}
        for seat in [s for s in self.plans if s not in owing]:
            del self.plans[seat]
        self.waiting = {p.seat for p in prompts if self.wait and single_step(prompts, p.phase)}
        for seat in sorted(owing - self.plans.keys()):
            if seat in self.waiting:  # the table plays single-player steps in its sessions
                self.plans[seat] = self.in_session_from(self.now) + self.answer_time()
                continue
            arrival = self.people[seat].next_arrival(self.now)
            if seat not in self.owing_before and arrival > self.now:  # a turn notice goes out
                come = self.noticed(seat)
                if come is not None:
                    arrival = min(arrival, come)
            self.plans[seat] = arrival + self.answer_time()
        self.owing_before = owing

    def plan_looks(self, prompts: list[Prompt]) -> None:
        """When each seat owing nothing next looks at a table that has changed."""
        owing = {p.seat for p in prompts}
        for seat in [s for s in self.looks if s in owing]:
            del self.looks[seat]
        if self.ahead:  # everyone else sees the table at their next visit (at once if there)
            for seat in self.seats:
                changed = self.looked.get(seat) != self.state.step
                if seat not in owing and seat not in self.looks and changed:
                    self.looks[seat] = self.people[seat].next_arrival(self.now) + self.answer_time()

    def next_event(self, prompts: list[Prompt]) -> None:
        """Go to whichever comes first: a reminder, a player looking in, a deadline, an answer."""
        while self.reminders and self.reminders[0][1] not in self.due:
            heapq.heappop(self.reminders)  # its phase is over
        seat, when = min(self.plans.items(), key=lambda kv: (kv[1], kv[0]))
        phase, deadline = min(self.due.items(), key=lambda kv: kv[1])
        looker, look_at = ("", math.inf)
        if self.looks:
            looker, look_at = min(self.looks.items(), key=lambda kv: (kv[1], kv[0]))
        if self.reminders and self.reminders[0][0] < min(when, deadline, look_at):
            at, reminded = heapq.heappop(self.reminders)
            self.remind(reminded, at, prompts)
        elif look_at < min(when, deadline):
            self.look_in(looker, look_at)
        elif deadline <= when:
            self.expire(phase, deadline)
        else:
            self.answer(seat, when, prompts)

    def remind(self, phase: str, at: float, prompts: list[Prompt]) -> None:
        """A reminder is a notice to every seat still owing in the phase."""
        self.now = at
        for p in prompts:
            if p.phase == phase and p.seat not in self.waiting:
                come = self.noticed(p.seat)
                if come is not None:
                    self.plans[p.seat] = min(self.plans[p.seat], come + self.answer_time())

    def look_in(self, seat: str, at: float) -> None:
        """A player who owes nothing looks in and answers ahead what they can."""
        self.now = at
        del self.looks[seat]
        self.looked[seat] = self.state.step
        self.leave(seat, self.game.bot_ahead(self.state, seat, self.bots))

    def expire(self, phase: str, deadline: float) -> None:
        """Time is up: the default for every seat still owing in the phase."""
        self.now = deadline
        del self.due[phase]
        turns: set[tuple[str, str]] = set()
        for _ in range(200):
            owing = owed_at_expiry(self.game.prompts(self.state), phase, turns)
            if not owing or self.game.outcome(self.state) is not None:
                break
            first = owing[0]
            handoff = self.width[phase] == 1 and first.phase == phase  # a turn's rest is no hand-off
            self.handoffs += handoff
            self.spent(first.kind, handoff, first.seat)
            if first.turn is not None:
                turns.add((first.seat, first.turn))
            default = self.game.default_action(self.state, first.seat)
            self.state, _ = self.game.apply(self.state, first.seat, default)
            self.decisions += 1
            self.defaults += 1
            self.last_seat = None

    def answer(self, seat: str, when: float, prompts: list[Prompt]) -> None:
        """The seat's player makes their decision and leaves standing orders after it."""
        self.now = when
        answered = next(p for p in prompts if p.seat == seat)
        # the game passes to another player; the same player's next decision is the same visit
        handoff = self.width[answered.phase] == 1 and seat != self.last_seat
        self.handoffs += handoff
        self.spent(answered.kind, handoff, seat)
        action = self.game.bot_action(self.state, seat, self.bots)
        self.leave(seat, self.game.bot_standing(self.state, seat, action, self.bots))
        self.state, _ = self.game.apply(self.state, seat, action)
        del self.plans[seat]
        self.decisions += 1
        self.last_seat = seat


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
    return TimedGame(game, players, seed, model, settings, options).run(max_steps)


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
