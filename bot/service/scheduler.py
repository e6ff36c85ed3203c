"""The one deadline loop (docs/architecture.md §3): tick, deliver, sleep until the next due time.

Front-end agnostic: Discord and the console pass their own `deliver`. Deadlines live in
the database, so the first tick after a start-up processes everything that fell due
while the bot was down.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

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

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    def wake(self) -> None:
        """Run the next tick now (e.g. after a change that set an earlier deadline)."""
        self._wake.set()

    async def run_once(self, deliver: Callable[[Outbox], Awaitable[None]]) -> float:
        """One tick and its deliveries; returns how long to sleep before the next."""
        for out in await self.service.deadlines.tick():
            try:
                await deliver(out)
            except Exception:  # a failed delivery must not stop other tables' deadlines
                log.exception("delivering deadline output for channel %s failed", out.channel_id)
        nxt = await self.service.deadlines.next_wakeup()
        if nxt is None:
            return self.max_sleep
        wait = nxt - self.service.clock()
        if wait <= 0:
            return min(self.max_sleep, self.stuck_sleep)
        return min(self.max_sleep, max(self.min_sleep, wait))

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
