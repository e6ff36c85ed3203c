"""The one deadline loop (docs/architecture.md §3): tick, deliver, sleep until the next due time.

Each tick handles the tables' deadlines and reminders, then the members' daily digests
that fell due (bot/service/digest.py); it sleeps until the sooner of the two.

Front-end agnostic: Discord and the console pass their own `deliver`. Deadlines live in
the database, so the first tick after a start-up processes everything that fell due
while the bot was down.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..process import metrics
from .outbox import Outbox
from .tables import TableService

__all__ = ["Scheduler"]

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(
        self,
        service: TableService,
        *,
        max_sleep: float = 60.0,
        min_sleep: float = 0.05,
        stuck_sleep: float = 30.0,
    ):
        self.service = service
        # A capped sleep also catches deadlines another process (or a settings change) moved earlier.
        self.max_sleep = max_sleep
        self.min_sleep = min_sleep
        # Work still due right after a tick means a table failed (logged); retry it slowly.
        self.stuck_sleep = stuck_sleep
        self._stopped = False
        self._wake = asyncio.Event()
        self._next_due: float | None = None  # the earliest due time the last pass saw

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    def wake(self) -> None:
        """Run the next tick now (e.g. after a change that set an earlier deadline)."""
        self._wake.set()

    async def run_once(self, deliver: Callable[[Outbox], Awaitable[None]]) -> float:
        """One tick and its deliveries; returns how long to sleep before the next."""
        if self._next_due is not None and self._next_due <= self.service.clock():
            metrics.deadline_fired(self.service.clock() - self._next_due)  # how late it is handled
        for out in await self.service.deadlines.tick():
            try:
                await deliver(out)
            except Exception:  # a failed delivery must not stop other tables' deadlines
                log.exception("delivering deadline output for channel %s failed", out.channel_id)
        for out in await self.service.digest.tick():
            try:
                await deliver(out)
            except Exception:  # kept in the outbox: said again later, as any delivery that failed
                log.exception("delivering a daily digest failed")
        nxt = self._next_due = _sooner(
            await self.service.deadlines.next_wakeup(), await self.service.digest.next_due()
        )
        if nxt is None:
            wait = self.max_sleep
        elif nxt - self.service.clock() <= 0:
            wait = min(self.max_sleep, self.stuck_sleep)
        else:
            wait = min(self.max_sleep, max(self.min_sleep, nxt - self.service.clock()))
        metrics.deadline_loop_ran(wait)  # the heartbeat /healthz reads
        return wait

    async def run(
        self,
        deliver: Callable[[Outbox], Awaitable[None]],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        while not self._stopped:
            try:
                delay = await self.run_once(deliver)
            except Exception:
                log.exception("deadline tick failed; retrying")
                delay = self.max_sleep
            if self._stopped:
                break
            if sleep is asyncio.sleep:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), delay)
                except TimeoutError:
                    pass
            else:  # an injected sleep (tests, simulated time) drives the loop itself
                await sleep(delay)


def _sooner(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else min(a, b)
