"""The review of a finished game (`/diplomacy review`): for each seat, the three decisions
where the strong automatic player, from what that seat knew then, would have chosen
otherwise with the largest difference in its estimate (engine/core/review.py;
docs/architecture.md §2, "Automatic players", and §3).

When a game ends (`Play.step` sees the outcome) `begin` stores every seat's review as
pending beside the archived game (the store's `game_reviews`, keyed by the table's channel
and creation as the archive names a game) and queues the game. The reviews are computed in
the automatic players' worker processes (bot/service/automatic.py, `background`), behind
the live tables' decisions: one piece of one review at a time (PIECE iterations, a few
tenths of a second, well inside a decision's budget), submitted only while no live
decision is waiting, so a live decision waits at most for the piece already thinking.
Pieces rather than a worker of its own: a second pool would need its own process and
memory and would still share the cores, where the pieces need nothing new and leave the
workers' low priority (os.nice) as it is. Each piece carries the review on from the state
the last one reached (`engine.core.review.advance`), so nothing is replayed in the bot's
own process.

Nothing is computed before the end: `text` refuses a game in play, and `begin` does
nothing for one. A review survives a restart: it is stored once computed, and a review
still pending when the bot stopped is queued again once the bot is connected (the
Discord front end's `catch_up`), or when the next game ends or at the first
`/diplomacy review` that asks for it (`resume`). A process whose automatic players are capped at the basic
one (bot/service/automatic.py, STRONGEST: the test suite, bench/same_output.py) runs no
search, and so computes no review unless `enabled` is set.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core import Game
from engine.core.review import (
    PER_DECISION,
    PER_SEAT,
    Progress,
    Turning,
    advance,
    finish,
    iterations_for,
    start,
)
from engine.core.rng import seed_for

from ..store.review_rows import DONE, FAILED, PENDING, ReviewRow
from . import automatic
from .errors import TableError

if TYPE_CHECKING:
    from .automatic import AutomaticPlayers
    from .loaded import LoadedTable, TableAccess

__all__ = ["PIECE", "Reviews", "finished_reviews", "review_text", "work_of"]

log = logging.getLogger(__name__)

PIECE = 48  # iterations a piece of review work runs in a worker: one "quick" decision
SECONDS_PER_ITERATION = 0.005  # the first guess of the pace, before a piece is measured (bench/review.py: 0.5-4 ms)

NOT_OVER = (
    "The review comes when the game ends: until then it would weigh your choices against what "
    "the automatic player would do now. Ask again with /diplomacy review after the end."
)
NOT_PLAYED = (
    "You did not play in this game, so there is no review of yours: each player sees the review of their own seat."
)
NOT_COMPUTED = (
    "Your review is waiting: this bot computes no reviews at the moment (its automatic players are limited "
    "to the basic one)."
)

Key = tuple[int, float]  # a finished game: its table's channel and creation


def _inputs(t: LoadedTable) -> tuple[list[str], Any, int]:
    """The seats, options and seed the game was set up with (as the game's record has them)."""
    state = t.state
    assert state is not None and t.row.seed is not None
    options = dict(t.row.options)
    if "preferences" in t.game.Options.model_fields:
        options["preferences"] = {s.seat: s.preference for s in t.seats if s.seat and s.preference}
    return list(state.seats), t.game.Options.model_validate(options), t.row.seed


def _opening(
    game: Game, seats: list[str], options: Any, seed: int, actions: list[tuple[str, Any]], seat: str,
    per_decision: int, per_seat: int,
) -> Progress:
    """In a worker: a seat's review at the game's setup."""
    return start(game, seats, options, seed, actions, seat, per_decision=per_decision, per_seat=per_seat)


def _piece(game: Game, progress: Progress, actions: list[tuple[str, Any]], review_seed: int, limit: int) -> Progress:
    """In a worker: about `limit` more iterations of a review."""
    return advance(game, progress, actions, review_seed, limit)


def work_of(game: Game, actions: list[tuple[str, Any]], seat: str, per_decision: int, per_seat: int) -> int:
    """About how many iterations a seat's review takes (its actions times each one's share,
    an upper bound: forced decisions and lines of a sheet are skipped)."""
    if game.knowledge() is None:
        return 0
    return iterations_for(actions, seat, per_decision, per_seat) * sum(1 for s, _ in actions if s == seat)


class Reviews:
    """Finished games' reviews: begun at the end, computed behind the live tables, read by
    `/diplomacy review` and the replay page."""

    def __init__(
        self,
        access: TableAccess,
        players: AutomaticPlayers,
        clock: Callable[[], float],
        *,
        per_decision: int = PER_DECISION,
        per_seat: int = PER_SEAT,
        piece: int = PIECE,
    ) -> None:
        self.access = access
        self.players = players
        self.clock = clock
        self.per_decision, self.per_seat, self.piece = per_decision, per_seat, piece
        self.enabled: bool | None = None  # None: as the process's automatic players allow (STRONGEST)
        self.pace = SECONDS_PER_ITERATION  # measured seconds per iteration, for "ready in about N minutes"
        self._queue: deque[Key] = deque()
        self._left: dict[Key, int] = {}  # iterations still to run, per queued game
        self._task: asyncio.Task[None] | None = None
        self._resumed = False  # the reviews the last run left pending are queued (`resume`)

    @property
    def computing(self) -> bool:
        if self.enabled is not None:
            return self.enabled
        return automatic.STRONGEST != "basic"

    # -- the end of a game ---------------------------------------------------------------
    async def begin(self, t: LoadedTable) -> None:
        """The game at `t` has just ended: every seat's review stored as pending and the game
        queued. Never raises: the game is saved already."""
        try:
            await self._begin(t)
        except Exception:
            log.exception("could not begin the review of the game in channel %s", t.row.channel_id)

    async def _begin(self, t: LoadedTable) -> None:
        if t.row.status != "finished" or t.state is None or t.game.knowledge() is None:
            return
        key = (t.row.channel_id, t.row.created_at)
        actions = await self._actions(t.row.channel_id)
        now = self.clock()
        rows = [
            ReviewRow(*key, seat, PENDING, [], work_of(t.game, actions, seat, self.per_decision, self.per_seat), now)
            for seat in t.state.seats
        ]
        await self.access.store.community.save_reviews(rows)
        self._enqueue(key, sum(r.work for r in rows))
        if not self._resumed:  # the first game to end since the start: those the last run left come after it
            await self.resume()

    async def resume(self) -> int:
        """Queue every review still pending (the bot stopped before it was computed); how many games."""
        if not self.computing:
            return 0
        self._resumed = True
        games: dict[Key, int] = {}
        for r in await self.access.store.community.pending_reviews():
            games[(r.channel_id, r.created_at)] = games.get((r.channel_id, r.created_at), 0) + r.work
        for key, work in games.items():
            self._enqueue(key, work)
        return len(games)

    def _enqueue(self, key: Key, work: int) -> None:
        if not self.computing or key in self._left:
            return
        self._queue.append(key)
        self._left[key] = work
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._work())

    def stop(self) -> None:
        """The process is shutting down: stop computing. A review under way stays pending in
        the store, and the next start computes it (`resume`), rather than failing on a
        store or worker closed under it."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def wait(self) -> None:
        """Until every queued review is computed (tests, tools)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    # -- computing, behind the live decisions --------------------------------------------
    async def _work(self) -> None:
        while self._queue:
            key = self._queue[0]
            try:
                await self._compute(key)
            except Exception:
                log.exception("could not compute the review of the game in channel %s", key[0])
                await self._failed(key)
            finally:
                self._queue.popleft()
                self._left.pop(key, None)

    async def _compute(self, key: Key) -> None:
        store = self.access.store
        t = await self.access.load(key[0])
        if t.row.created_at != key[1] or t.state is None or t.row.status != "finished":
            await self._failed(key)  # the channel holds another table now: its actions are gone
            return
        seats, options, seed = _inputs(t)
        actions = await self._actions(key[0])
        review_seed = seed_for(seed, "review")
        for row in await store.community.get_reviews(*key):
            if row.status != PENDING:
                continue
            progress = await self.players.background(
                _opening, t.game, seats, options, seed, actions, row.seat, self.per_decision, self.per_seat
            )
            while not progress.done(actions):
                began, spent = time.perf_counter(), progress.spent
                progress = await self.players.background(_piece, t.game, progress, actions, review_seed, self.piece)
                if progress.spent > spent:
                    self.pace = (time.perf_counter() - began) / (progress.spent - spent)
                self._left[key] = max(0, self._left.get(key, 0) - (progress.spent - spent))
            turnings = [x.to_json() for x in finish(progress)]
            await store.community.save_reviews([ReviewRow(*key, row.seat, DONE, turnings, progress.spent, self.clock())])

    async def _failed(self, key: Key) -> None:
        rows = await self.access.store.community.get_reviews(*key)
        now = self.clock()
        await self.access.store.community.save_reviews(
            [ReviewRow(*key, r.seat, FAILED, [], r.work, now) for r in rows if r.status == PENDING]
        )

    async def _actions(self, channel_id: int) -> list[tuple[str, Any]]:
        return [(a.seat, json.loads(a.action)) for a in await self.access.store.get_actions(channel_id)]

    def minutes_left(self, key: Key) -> int:
        """About how many minutes until the review of `key` is ready: the work queued up to
        it at the pace measured."""
        ahead = 0
        for k in self._queue:
            ahead += self._left.get(k, 0)
            if k == key:
                break
        return max(1, math.ceil(ahead * self.pace / 60))

    # -- reading -------------------------------------------------------------------------
    async def text(self, channel_id: int, user_id: int) -> str:
        """`/diplomacy review`: the caller's own seat's review of the game that ended in this
        channel, for the caller alone; refused in words before the end and to a member who
        did not play."""
        t = await self.access.load(channel_id)
        if t.state is None:
            raise TableError("There is no game at this table yet, so there is nothing to review.")
        if t.row.status == "abandoned":
            raise TableError("This game was abandoned: only a game played to its end is reviewed.")
        if t.row.status != "finished":
            raise TableError(NOT_OVER)
        seat = await self._seat_of(t, user_id)
        if seat is None:
            raise TableError(NOT_PLAYED)
        key = (channel_id, t.row.created_at)
        rows = {r.seat: r for r in await self.access.store.community.get_reviews(*key)}
        if seat not in rows:  # a game that ended before reviews were kept
            await self._begin(t)
            rows = {r.seat: r for r in await self.access.store.community.get_reviews(*key)}
        row = rows.get(seat)
        if row is None:
            return f"{t.game.title} has no automatic player strong enough to review a game."
        if row.status == PENDING:
            if key not in self._left:
                await self.resume()
            if not self.computing:
                return NOT_COMPUTED
            minutes = self.minutes_left(key)
            return (
                f"Your review of this game is being computed: ready in about {minutes} "
                f"minute{'s' if minutes != 1 else ''}. Ask again with /diplomacy review then."
            )
        if row.status == FAILED:
            return "Your review of this game could not be computed (the game's record is no longer kept)."
        return review_text(t.game.title, t.label(seat), [Turning.from_json(x) for x in row.turnings])

    async def _seat_of(self, t: LoadedTable, user_id: int) -> str | None:
        """The seat the member played: the one they hold, else the last one they held."""
        held = t.seat_of(user_id)
        if held is not None and held.seat:
            return held.seat
        history = [h for h in await self.access.store.get_seat_history(t.row.channel_id) if h.user_id == user_id]
        return history[-1].seat if history else None


def review_text(title: str, label: str, turnings: list[Turning]) -> str:
    """A seat's review as its player reads it."""
    head = f"**Your review of this {title} game**, as {label}"
    if not turnings:
        return (
            f"{head}\nAt every decision of yours that it weighed, the automatic player, knowing what "
            "you knew then, would have chosen as you did or rated its own choice no higher."
        )
    lines = [
        f"{head}\nThe {'decision' if len(turnings) == 1 else f'{len(turnings)} decisions'} where the automatic "
        "player, knowing only what you knew then, would have chosen otherwise, the largest difference first:"
    ]
    lines += [f"{i}. {t.sentence()}" for i, t in enumerate(turnings, 1)]
    return "\n".join(lines)


async def finished_reviews(access: TableAccess, t: LoadedTable) -> dict[str, list[dict[str, Any]]]:
    """Every seat's computed review of the finished game at `t`, for its record and replay
    page (which show every seat's secrets once the game is over); {} before the end."""
    if t.row.status != "finished":
        return {}
    rows = await access.store.community.get_reviews(t.row.channel_id, t.row.created_at)
    return {r.seat: r.turnings for r in rows if r.status == DONE}

