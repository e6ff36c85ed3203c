"""The community's reads at a large server: the directory, a leaderboard page, a profile.

    python bench/community.py [--games 10000] [--members 5000] [--tables 300] [--runs 200] [--db URL]

Builds, once per run, a database (a temporary SQLite file, or the PostgreSQL database
`--db` names, which should be empty) holding N finished games of Origins of World War I
(3 to 7 seats each, members drawn from M) on one server, archived through the store
(`record_finished`) and rated by `python -m bot ratings --rebuild`'s replay, plus T lobby
tables of that server made through the table service. Then it times, each `--runs` times
on random pages and members, what `/community tables`, `/community leaderboard` and
`/community profile` do (bot/service/community.py), and prints the 99th percentile of
each:

    directory: X ms; leaderboard: Y ms; profile: Z ms (p99)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service import ratings  # noqa: E402
from bot.service.community import EVERY_CHANNEL  # noqa: E402
from bot.service.tables import TableService  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.store.community_rows import FinishedGame, FinishedSeat  # noqa: E402

GUILD = 1
GAME = "origins"


async def build(store, service: TableService, games: int, members: int, tables: int, rnd: random.Random) -> None:
    t0 = time.perf_counter()
    for n in range(games):
        players = rnd.sample(range(1, members + 1), rnd.randint(3, 7))
        scores = [rnd.randint(0, 30) for _ in players]
        ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
        standings = [{"seat": f"s{i}", "rank": r, "score": s} for i, (r, s) in enumerate(zip(ranks, scores, strict=True), 1)]
        seats = []
        for i, (uid, rank, score) in enumerate(zip(players, ranks, scores, strict=True), 1):
            decisions = rnd.randint(20, 60)
            seats.append(
                FinishedSeat(
                    f"s{i}", f"Nation {i}", uid, f"member {uid}", rank, score, decisions, rnd.randint(0, 2),
                    decisions, 0, 1.0 if rank == 1 else 0.0, decisions * rnd.uniform(600, 20_000),
                )
            )
        game = FinishedGame(GUILD, 10_000 + n, GAME, float(n), float(n) + 0.5, {"standings": standings}, "over")
        await store.community.record_finished(game, seats, [])
    await ratings.rebuild(store)
    for n in range(tables):
        channel = 1_000_000 + n
        await service.lobby.create(channel, GUILD, GAME, rnd.randint(1, members), "host")
    print(f"built {games} games, {members} members, {tables} tables in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


async def timed(runs: int, work) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await work()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))]


async def main(args: argparse.Namespace) -> None:
    rnd = random.Random(1914)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(args.db or Path(tmp) / "community.sqlite3")
        try:
            service = TableService(store, draw_pictures=False)
            community = service.community
            await build(store, service, args.games, args.members, args.tables, rnd)
            pages = max(1, args.tables // 10)
            board_pages = max(1, args.members // 10)
            directory = await timed(
                args.runs, lambda: community.directory(EVERY_CHANNEL, GUILD, page=rnd.randint(1, pages))
            )
            leaderboard = await timed(
                args.runs, lambda: community.leaderboard(EVERY_CHANNEL, GUILD, GAME, rnd.randint(1, board_pages))
            )
            profile = await timed(
                args.runs, lambda: community.profile(EVERY_CHANNEL, GUILD, (uid := rnd.randint(1, args.members)), f"member {uid}")
            )
        finally:
            await store.close()
    print(f"directory: {directory:.1f} ms; leaderboard: {leaderboard:.1f} ms; profile: {profile:.1f} ms (p99)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--members", type=int, default=5_000)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--db", help="a postgresql:// URL of an empty database (default: a temporary SQLite file)")
    asyncio.run(main(parser.parse_args()))
