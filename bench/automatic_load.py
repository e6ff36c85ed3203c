"""Human actions beside automatic seats that think: does the strong search slow other tables?

    python bench/automatic_load.py [--seconds 20] [--tables 50] [--rate 100] [--workers 1] [--reviews 0]

Two windows of `--seconds` each, each on its own fresh SQLite database and table service:

- without: `--tables` Crisis: 1914 tables of three members each send their scripted actions
  through `TableService.act` at a steady `--rate` actions per second in all (as
  bench/action_path.py's `--rate` does: each table one action every tables/rate seconds);
- with: the same, plus three more Crisis tables whose three seats are all automatic at
  the table default (`strong`), deciding one after another for the whole window.

With `--reviews N`, a third window, "reviews", has the human tables of "without" while N
finished Crisis: 1914 games of 5 players are reviewed, every seat (bot/service/reviews.py):
played to their end by the basic player before the window, their reviews queued as it
opens and computed in the worker while it runs (with no automatic seat deciding, nothing
goes before them: the worker reviews for the whole window). Its last line is `p99 ratio
reviews/without: R`, with the same goals.

Each human action's latency is measured around its await. `--workers` is the service's
`automatic_workers`: 1 (the default) decides in one worker process; 0 decides on a thread
of the bot's own process, as the service did before the pool. The pool is spawned before
the window starts (the bot spawns it once, at its first strong decision). The last line
is `p99 ratio with/without automatic seats: R`; the goal is R <= 1.2 and no human action
over 100 ms. Not a test: the numbers depend on the machine and its load (bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/action_path.py beside it

from action_path import ROOT, Pacer, Script, p99_of, scripts_for, seat_tables  # noqa: E402

sys.path.insert(0, str(ROOT))

from bot.process.runtime import tune_gc  # noqa: E402
from bot.service.tables import TableService  # noqa: E402
from bot.store import open_store  # noqa: E402
from engine import games  # noqa: E402

GAME_ID = "crisis1914"
PLAYERS = 3
REVIEWED_PLAYERS = 5  # the reviewed games: Crisis: 1914 at its most players
AUTOMATIC_TABLES = 3
TARGET_RATIO = 1.2
TARGET_MAX_MS = 100.0


async def _automatic_table(service: TableService, channel_id: int) -> None:
    """A table whose three seats are automatic at the default setting: a host who adds two
    automatic players, starts, and hands over their own seat, which plays the whole game in
    that one call (the automatic moves follow one another until the game ends)."""
    host = channel_id * 10
    await service.lobby.create(channel_id, None, GAME_ID, host, f"host{channel_id}")
    for _ in range(PLAYERS - 1):
        await service.controls.set_automatic(channel_id, host, None, True)
    await service.lobby.start(channel_id, host, seed=channel_id)
    t = await service.load(channel_id)
    await service.controls.set_automatic(channel_id, host, t.seat_of(host).seat, True)


async def _keep_deciding(service: TableService, first_channel: int, stop: asyncio.Event) -> int:
    """Automatic tables one after another from `first_channel` until `stop`; how many
    decisions they took."""
    channel, decisions = first_channel, 0
    while not stop.is_set():
        task = asyncio.ensure_future(_automatic_table(service, channel))
        waiting = asyncio.ensure_future(stop.wait())
        await asyncio.wait((task, waiting), return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        else:
            task.result()
        row = await service.store.get_table(channel)
        decisions += len(await service.store.get_actions(channel)) if row is not None else 0
        channel += 1000
    return decisions


async def _finished_games(service: TableService, n: int) -> list[int]:
    """`n` Crisis: 1914 games of REVIEWED_PLAYERS members played to their end by the basic
    player, their reviews left pending (the caller queues them)."""
    service.reviews.enabled = False
    channels = [800_000 + i for i in range(n)]
    for channel in channels:
        host = channel * 10
        await service.lobby.create(channel, None, GAME_ID, host, f"host{channel}")
        for k in range(1, REVIEWED_PLAYERS):
            await service.lobby.join(channel, host + k, f"member{k}")
        await service.lobby.start(channel, host, seed=channel)
        while await service.auto(channel) is not None:
            pass
    return channels


async def _reviewed(service: TableService, channels: list[int]) -> str:
    done = total = 0
    for channel in channels:
        t = await service.load(channel)
        rows = await service.store.community.get_reviews(channel, t.row.created_at)
        total += len(rows)
        done += sum(r.status == "done" for r in rows)
    return f"; {done} of {total} seats reviewed"


async def window(
    scripts: list[Script], rate: float, seconds: float, workers: int, automatic: bool, reviews: int = 0
) -> list[float]:
    """One window's human latencies, in seconds."""
    game = games.get(GAME_ID)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "tables.sqlite3")
        service = TableService(store)
        service.automatic.workers = workers
        try:
            for future in service.automatic.start():  # the bot spawns it once, at its first decision
                future.result()
            await seat_tables(service, game, scripts, {})
            reviewed = await _finished_games(service, reviews) if reviews else []
            latencies: list[float] = []
            pacer = Pacer(rate, len(scripts))
            count = int(seconds * rate / len(scripts))

            async def play(s: Script) -> None:
                async for index in pacer.ticks(min(count, len(s.actions))):
                    user, action = s.actions[index]
                    t0 = time.perf_counter()
                    await service.act(s.channel_id, user, action)
                    latencies.append(time.perf_counter() - t0)

            stop = asyncio.Event()
            deciding = [
                asyncio.ensure_future(_keep_deciding(service, 900_000 + i, stop))
                for i in range(AUTOMATIC_TABLES if automatic else 0)
            ]
            service.reviews.enabled = True
            await service.reviews.resume()  # the finished games' reviews, queued as the window opens
            start, cpu = time.perf_counter(), time.process_time()
            await asyncio.gather(*(play(s) for s in scripts))
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu
            stop.set()
            decisions = sum(await asyncio.gather(*deciding))
            note = await _reviewed(service, reviewed) if reviewed else ""
            name = "with" if automatic else "reviews" if reviews else "without"
            _report(name, latencies, wall, cpu, decisions if automatic else None, note)
            return latencies
        finally:
            service.automatic.close()
            await store.close()


def _report(
    name: str, latencies: list[float], wall: float, cpu: float, decisions: int | None, note: str = ""
) -> None:
    ordered = sorted(latencies)
    over = sum(1 for x in ordered if x * 1000 > TARGET_MAX_MS)
    extra = (f"; {decisions} automatic decisions" if decisions is not None else "") + note
    print(
        f"{name:8} {len(ordered):6d} human actions in {wall:.1f} s: p50 {statistics.median(ordered) * 1000:6.2f} ms"
        f"  p99 {p99_of(ordered) * 1000:7.2f} ms  max {ordered[-1] * 1000:7.1f} ms  over {TARGET_MAX_MS:g} ms: {over}"
        f"  (this process's CPU {cpu / wall:.0%}{extra})",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="each window's length (default 20)")
    parser.add_argument("--tables", type=int, default=50, help="tables of human actions (default 50)")
    parser.add_argument("--rate", type=float, default=100.0, help="human actions per second in all (default 100)")
    parser.add_argument(
        "--workers", type=int, default=1, help="automatic_workers: processes that decide (0: a thread; default 1)"
    )
    parser.add_argument(
        "--reviews", type=int, default=0, help="finished games reviewed in a third window (default 0: none)"
    )
    args = parser.parse_args()
    tune_gc()
    game = games.get(GAME_ID)
    scripts = scripts_for(game, args.tables, PLAYERS, {})
    print(
        f"{args.tables} {game.title} tables at {args.rate:g} actions/s, {args.seconds:g} s windows; "
        f"automatic_workers = {args.workers}",
        flush=True,
    )
    without = asyncio.run(window(scripts, args.rate, args.seconds, args.workers, automatic=False))
    with_automatic = asyncio.run(window(scripts, args.rate, args.seconds, args.workers, automatic=True))
    ratio = p99_of(sorted(with_automatic)) / p99_of(sorted(without))
    print(f"p99 ratio with/without automatic seats: {ratio:.2f}  (goal <= {TARGET_RATIO})")
    if args.reviews:
        reviewing = asyncio.run(
            window(scripts, args.rate, args.seconds, args.workers, automatic=False, reviews=args.reviews)
        )
        ratio = p99_of(sorted(reviewing)) / p99_of(sorted(without))
        print(f"p99 ratio reviews/without: {ratio:.2f}  (goal <= {TARGET_RATIO})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
