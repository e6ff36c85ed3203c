"""Which automatic player takes a table's automatic seats, and where it thinks
(docs/architecture.md §2 and §3).

A table's `automatic_player` setting names it: "strong" (the default: the game's search
at its default strength, `engine/core/search.py`), "quick" (the same search with fewer
iterations) or "basic" (the game's `bot_action`). A game without a strong player yet
plays "basic" whatever the setting says, and a game whose search is not yet measurably
stronger than its basic player plays its best one (BEST_FOR).

Where it thinks. The basic player takes microseconds and decides on the event loop. Any
other takes up to about a second of CPU, which on a thread of the bot's own process holds
the interpreter lock and slows every other table's actions (bench/automatic_load.py
measures it), so it decides in a small pool of worker processes (`automatic_workers`,
default 1, spawned once at the first such decision or by `start`). The game, the state
and the generator go to the worker pickled and the action comes back; the search reads
only the deciding seat's view of the state and draws only from that generator, so a
decision in the pool is the decision made in-process for the same inputs
(tests/automatic). Each decision has a budget of real time from its submission (BUDGET):
past it, or if a worker dies (the pool is then replaced), that decision is the basic
player's, so a table never waits on a stuck or lost worker. With `workers=0` the
decisions run on one thread of this process, as a console or a test may prefer. A worker
ends by itself within a second of the bot's death, however it died (worker_watch.py).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine.core import Game
from engine.core.players import player
from engine.core.search import STRENGTHS, Search, Strength

from ..process import metrics
from .worker_watch import watch_parent

__all__ = ["AUTOMATIC_PLAYERS", "BUDGET", "AutomaticPlayers", "name_for"]

log = logging.getLogger(__name__)

AUTOMATIC_PLAYERS = ("strong", "quick", "basic")  # the setting's values, strongest first

# The strongest player this process runs, whatever a table asks. The test suite caps it at
# "basic" (tests/conftest.py) so that its many whole games with automatic seats stay fast;
# the tests of the strong players themselves lift the cap.
STRONGEST = "strong"

# A game whose search is not yet measurably stronger than another of its players: its
# "strong" and "quick" seats play that one instead, so a real seat never gets a player
# weaker than the basic one. Origins: "reserve" (engine/origins/planner.py: the basic
# player keeping PFs at home for the last turn's 10-PF cap, and bidding for the last word
# of the last turn) wins about 2x its fair share among basic players and leaves basic
# 0.2-0.4x among it, while the search at "quick" wins 0.4x its share among reserve players
# (3 players), so Origins' tables never run the search (docs/balance/origins.md).
BEST_FOR = {"origins": "reserve"}

# Seconds of real time a decision may take from its submission, waiting for a worker
# included: about ten times what the strong search is sized for (engine/core/search.py).
BUDGET = 10.0

# How much lower the workers' priority is than the bot's (os.nice): with fewer cores than
# busy processes, a worker gets about a tenth of a core against the bot's process when
# both want one, and all the rest whenever the tables are quiet (they mostly are).
WORKER_NICENESS = 10

# Background work (a review's piece) waits this long between looks for live decisions in
# flight, and gives up on a piece after BACKGROUND_WAIT seconds (one is sized for well under one).
LIVE_POLL = 0.05
BACKGROUND_WAIT = 120.0

# Threads that wait for the pool's answers with the budget as their timeout (a real-time
# wait that no simulated clock moves); idle ones cost nothing.
WAITERS = 16


def name_for(game: Game, setting: str) -> str:
    """The player a table's setting gives in `game`: no stronger than STRONGEST, and
    "basic" where the game has no search, its best player where its search is not yet the
    best (BEST_FOR)."""
    if AUTOMATIC_PLAYERS.index(setting) < AUTOMATIC_PLAYERS.index(STRONGEST):
        setting = STRONGEST
    if setting != "basic" and game.knowledge() is None:
        return "basic"
    if setting != "basic" and game.id in BEST_FOR:
        return BEST_FOR[game.id]
    return setting


def decide(game: Game, name: str, strength: Strength | None, state: Any, seat: str, rng: random.Random) -> Any:
    """One decision of the player `name` (the search at `strength` when one is given),
    where it runs: in a worker process, from pickled arguments, or on this process's thread."""
    if strength is not None:
        return Search(game.knowledge(), strength).decide(state, seat, rng)
    return player(game, name)(state, seat, rng)


def _worker_started(parent: int) -> None:
    """A new worker ends with `parent`, the bot that spawned it (worker_watch.py), lowers
    its priority, so that where cores are short the bot's own process (every human table's
    actions) is served first, and imports the games."""
    watch_parent(parent)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not allowed here: the worker runs at the bot's priority
        pass
    _prepare()


def _prepare() -> None:
    """The games imported, once, before a worker's first decision needs them."""
    from engine import games

    games.all()


class AutomaticPlayers:
    """Runs automatic players' decisions off the event loop: in `workers` processes (0: on
    one thread of this process), each within `budget` seconds. `strengths` gives the
    search's iterations per named strength (engine/core/search.py, STRENGTHS by default)."""

    def __init__(
        self, workers: int = 1, budget: float = BUDGET, strengths: Mapping[str, Strength] | None = None
    ) -> None:
        self.workers = workers
        self.budget = budget
        self.strengths = dict(STRENGTHS if strengths is None else strengths)
        self.overruns = 0  # decisions past the budget, played by the basic player instead
        self.lost_workers = 0  # pools replaced because a worker died
        self._executor: Executor | None = None
        self._waiters: ThreadPoolExecutor | None = None
        self._live = 0  # live decisions submitted and not yet answered (`background` waits for none)

    def start(self) -> list[Future[None]]:
        """Spawn the workers now rather than at the first decision that needs one; each
        future is done once its worker has imported the games."""
        if self.workers == 0:
            return []
        pool = self._pool()
        return [pool.submit(_prepare) for _ in range(self.workers)]

    async def choose(self, game: Game, state: Any, seat: str, rng: random.Random, setting: str) -> Any:
        """The action the table's automatic player takes for `seat` now, timed for the
        operator's metrics."""
        name = name_for(game, setting)
        start = time.perf_counter()
        action = await self._decided(game, name, state, seat, rng)
        metrics.observe_decision(game.id, name, time.perf_counter() - start)
        return action

    async def _decided(self, game: Game, name: str, state: Any, seat: str, rng: random.Random) -> Any:
        if name == "basic":  # a few microseconds: not worth a hop
            return game.bot_action(state, seat, rng)
        stream = random.Random()
        stream.setstate(rng.getstate())  # `rng` stays as given, for the basic player if need be
        strength = self.strengths.get(name)
        pool = self._pool()
        self._live += 1
        try:
            try:
                future = pool.submit(decide, game, name, strength, state, seat, stream)
            except BrokenProcessPool:  # a worker died while idle: a new pool, once
                self._replace(pool)
                pool = self._pool()
                future = pool.submit(decide, game, name, strength, state, seat, stream)
            waiters = self._waiting_threads()
            return await asyncio.get_running_loop().run_in_executor(waiters, future.result, self.budget)
        except TimeoutError:
            future.cancel()  # still queued: dropped; thinking already: it ends, unheard
            self._overran(game, seat)
        except BrokenProcessPool:
            self._replace(pool)
        finally:
            self._live -= 1
        return game.bot_action(state, seat, rng)

    async def background(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, behind the live decisions: submitted only once no live
        decision is waiting, so one submitted while it thinks waits at most for it (a
        finished game's review runs in such pieces, one at a time: bot/service/reviews.py).
        No budget falls back to anything: its caller waits, up to BACKGROUND_WAIT."""
        while self._live:
            await asyncio.sleep(LIVE_POLL)
        pool = self._pool()
        try:
            future = pool.submit(fn, *args)
        except BrokenProcessPool:  # a worker died while idle: a new pool, once
            self._replace(pool)
            pool = self._pool()
            future = pool.submit(fn, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), BACKGROUND_WAIT)
        except BrokenProcessPool:
            self._replace(pool)
            raise

    def close(self) -> None:
        """Stop the workers (a decision still thinking is abandoned)."""
        for executor in (self._executor, self._waiters):
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._waiters = None

    # -- the pool ------------------------------------------------------------------------
    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="automatic-player")
            else:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_started,
                    initargs=(os.getpid(),),
                )
        return self._executor

    def _waiting_threads(self) -> ThreadPoolExecutor:
        if self._waiters is None:
            self._waiters = ThreadPoolExecutor(max_workers=WAITERS, thread_name_prefix="automatic-wait")
        return self._waiters

    def _replace(self, pool: Executor) -> None:
        """A worker of `pool` died: its pool is shut and the next decision spawns another
        (the decisions it held are the basic player's)."""
        if self._executor is pool:
            self.lost_workers += 1
            log.warning("an automatic player's worker process died; its decisions are the basic player's")
            pool.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def _overran(self, game: Game, seat: str) -> None:
        self.overruns += 1
        level = logging.WARNING if self.overruns == 1 else logging.INFO
        log.log(
            level,
            "the automatic player of %s seat %s took more than %g s; the basic player decided instead "
            "(%d such decisions so far%s)",
            game.title,
            seat,
            self.budget,
            self.overruns,
            "; later ones are logged at INFO" if self.overruns == 1 else "",
        )
