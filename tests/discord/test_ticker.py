"""The deadline ticker: it sleeps until the next deadline and wakes early after an action."""

from __future__ import annotations

import asyncio

from bot.discord.client import Ticker


class _Pending:
    async def run_due(self) -> float | None:
        return None  # nothing waits


class _Delivery:
    def __init__(self) -> None:
        self.delivered: list[object] = []
        self.pending = _Pending()

    async def deliver(self, outbox: object) -> None:
        self.delivered.append(outbox)

    def next_notice(self) -> float | None:
        return None

    async def send_notices(self, now: float | None = None) -> None:
        pass


class _NoDigests:
    """The daily digests' part with no member asking for one."""

    async def tick(self) -> list[object]:
        return []

    async def next_due(self) -> float | None:
        return None


class _Service:
    """Deadlines far away; `on_read` runs while the ticker reads the next one."""

    def __init__(self) -> None:
        self.ticks = 0
        self.reads = 0
        self.on_read = lambda: None
        self.deadlines = self  # the fake is its own deadlines part (tick, next_wakeup)
        self.digest = _NoDigests()

    def clock(self) -> float:
        return 0.0

    async def tick(self) -> list[object]:
        self.ticks += 1
        return []

    async def next_wakeup(self) -> float | None:
        self.reads += 1
        self.on_read()
        await asyncio.sleep(0)
        return 1_000_000.0


async def _run_briefly(ticker: Ticker) -> None:
    task = asyncio.create_task(ticker.run())
    for _ in range(20):
        await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()  # closing the bot stops it, even mid-sleep


async def test_it_sleeps_towards_the_next_deadline_without_spinning():
    service = _Service()
    await _run_briefly(Ticker(service, _Delivery(), clock=lambda: 0.0))
    assert (service.ticks, service.reads) == (1, 1)


async def test_an_action_during_its_read_of_the_deadlines_makes_it_read_again():
    service = _Service()
    ticker = Ticker(service, _Delivery(), clock=lambda: 0.0)
    service.on_read = lambda: ticker.poke() if service.reads == 1 else None
    await _run_briefly(ticker)
    assert (service.ticks, service.reads) == (2, 2)


async def test_a_poke_cuts_the_sleep_short():
    service = _Service()
    ticker = Ticker(service, _Delivery(), clock=lambda: 0.0)
    task = asyncio.create_task(ticker.run())
    for _ in range(10):
        await asyncio.sleep(0)
    ticker.poke()
    for _ in range(10):
        await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert service.ticks == 2
