"""One of two bot processes playing the same tables on one PostgreSQL database
(tests/reliability/test_shared_tables.py).

    python -m tests.reliability.shared_driver URL USER SECONDS CHANNEL...

The process is a `TableService` of its own (its pool, cache and locks) that plays member
USER at every table, as fast as it can for SECONDS: whenever USER owes a decision, the
game's basic automatic choice for them, sent as the member's action. The other process plays the other member; each table has an
automatic seat too, whose moves follow whichever member's action opened them. Every
answer is written on stdout, one line each, after the call returned:

    A <channel> <step>      the action was acknowledged (the normal confirmation)
    R <channel> <text>      a refusal, "try again" or any other
    S <count>               at the end: how often automatic moves met the other's save

Before it exits it plays what its automatic moves left for later (`Play.settle`), as
the deadline loop would.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def drive(url: str, user: int, seconds: float, channels: list[int]) -> None:
    import tests.tinygame
    from bot.service.tables import TableError, TableService
    from bot.store import open_store
    from engine import games

    games.register(tests.tinygame.GAME)
    store = await open_store(url)
    service = TableService(store)
    met = [0]
    reload = service.access.reload

    async def counted(channel_id: int):  # called only when an automatic move met a stale save
        met[0] += 1
        return await reload(channel_id)

    service.access.reload = counted  # type: ignore[method-assign]
    end = time.monotonic() + seconds
    rng = random.Random(user)

    async def play(channel: int) -> None:
        while time.monotonic() < end:
            t = await service.load(channel)
            seat = t.seat_of(user).seat
            if not any(p.seat == seat for p in t.prompts):
                await asyncio.sleep(0.001)  # the other member owes: wait for them
                continue
            step, action = t.state.step, t.game.bot_action(t.state, seat, rng)
            try:
                await service.act(channel, user, action)
            except TableError as exc:
                _say(f"R {channel} {str(exc)!r}")
                continue
            _say(f"A {channel} {step}")

    try:
        await asyncio.gather(*(play(c) for c in channels))
        for _ in range(20):  # what was left for later, as the deadline loop plays it
            if not service.play.unsettled:
                break
            await service.deadlines.tick()
        _say(f"S {met[0]}")
    finally:
        await store.close()


if __name__ == "__main__":
    url, user, seconds, *channels = sys.argv[1:]
    asyncio.run(drive(url, int(user), float(seconds), [int(c) for c in channels]))
