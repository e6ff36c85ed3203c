"""Several service processes against one PostgreSQL database, beside SQLite.

    python bench/scale.py [--tables 1000] [--actions 20] [--processes 1,2,4] [--no-kill]

One run, on a PostgreSQL server it starts itself (tests/pgserver.py) and a temporary
SQLite file:

1. Scripts: `--tables` tables, the three games in turn (Crisis: 1914 with 4 players,
   Origins of World War I with 5, Schönbrunn with 4), each the first `--actions`
   decisions of a game its automatic players play from the table's seed.
2. For each process count P: a fresh PostgreSQL database, every table seated and
   started, then P worker processes, each a `TableService` with its own pool, serving the
   tables whose channel is theirs (channel % P, as Discord's shards split servers). Every
   table sends its next action as soon as the last was acknowledged (saturation).
3. The same load in one process on SQLite.
4. Unless `--no-kill`: two processes again, and one is killed with SIGKILL mid-load; the
   other must finish its tables.

After each run every acknowledged action must be in the store exactly once (each worker
writes an acknowledgement line after `act` returns and before its next action), every
table's stored log must be its script's prefix (nothing duplicated or reordered), and
every game must replay from its record. Figures: actions per second, p50 and p99 per
action, and last, one process on PostgreSQL's actions per second over one process on
SQLite's, both measured in this run (compare that ratio within one run: the machine's
load moves both). Not a test: the numbers depend on the machine (see bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere in the checkout

from bot.service.tables import TableService  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.store.records import record_from_store, replay  # noqa: E402
from engine import games  # noqa: E402

GAMES = (("crisis1914", 4), ("origins", 5), ("schonbrunn", 4))


def make_scripts(tables: int, actions: int) -> list[dict[str, Any]]:
    """Each table's game id, seed, players (user ids in seat order) and first actions."""
    scripts = []
    for i in range(tables):
        game_id, players = GAMES[i % len(GAMES)]
        game = games.get(game_id)
        channel = 1000 + i
        seed = channel * 7919
        users = [channel * 10 + k for k in range(players)]
        seats = [f"s{k + 1}" for k in range(players)]
        user_of = dict(zip(seats, users, strict=True))
        state = game.setup(seats, game.Options(), seed)
        bots = random.Random(seed)
        script = []
        while len(script) < actions and game.outcome(state) is None:
            seat = game.prompts(state)[0].seat
            action = game.bot_action(state, seat, bots)
            state, _ = game.apply(state, seat, action)
            script.append((user_of[seat], action.model_dump(mode="json")))
        scripts.append({"channel": channel, "game": game_id, "seed": seed, "users": users, "actions": script})
    return scripts


async def seat_tables(database: str | Path, scripts: list[dict[str, Any]]) -> None:
    store = await open_store(database)
    try:
        service = TableService(store)
        for s in scripts:
            users = s["users"]
            await service.lobby.create(s["channel"], None, s["game"], users[0], f"p{users[0]}")
            for user in users[1:]:
                await service.lobby.join(s["channel"], user, f"p{user}")
            await service.lobby.start(s["channel"], users[0], seed=s["seed"])
    finally:
        await store.close()


# -- a worker process --------------------------------------------------------------------
async def work(database: str, scripts: list[dict[str, Any]], acks: Path) -> None:
    store = await open_store(database)
    service = TableService(store)
    with acks.open("a", encoding="ascii", buffering=1) as out:  # line-buffered: a kill loses no ack

        async def play(s: dict[str, Any]) -> None:
            for idx, (user, action) in enumerate(s["actions"]):
                t0 = time.perf_counter()
                await service.act(s["channel"], user, action)
                out.write(f"{s['channel']} {idx} {time.perf_counter() - t0:.6f}\n")

        await service.status(scripts[0]["channel"]) if scripts else None  # the pool is open and warm
        out.write(f"start {time.time():.6f}\n")
        try:
            await asyncio.gather(*(play(s) for s in scripts))
            out.write(f"end {time.time():.6f}\n")
        finally:
            await store.close()


def worker_main(argv: list[str]) -> int:
    database, scripts_file, acks, part, parts = argv
    scripts = [s for s in json.loads(Path(scripts_file).read_text()) if s["channel"] % int(parts) == int(part)]
    asyncio.run(work(database, scripts, Path(acks)))
    return 0


# -- the parent --------------------------------------------------------------------------
def read_acks(paths: list[Path]) -> tuple[set[tuple[int, int]], list[float], float]:
    """The acknowledged (channel, index) pairs, their latencies, and the wall time from the
    first worker's start to the last one's end (or its last acknowledgement, if killed)."""
    acked, latencies, starts, ends = set(), [], [], []
    for path in paths:
        last = None
        for line in path.read_text(encoding="ascii").splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] in ("start", "end"):
                (starts if parts[0] == "start" else ends).append(float(parts[1]))
            elif len(parts) == 3:  # a line cut by a kill is not an acknowledgement
                acked.add((int(parts[0]), int(parts[1])))
                latencies.append(float(parts[2]))
                last = path.stat().st_mtime
        if len(ends) < len(starts) and last is not None:
            ends.append(last)
    return acked, latencies, max(ends) - min(starts)


async def verify(database: str | Path, scripts: list[dict[str, Any]], acked: set[tuple[int, int]]) -> str:
    """Every acknowledged action stored once, each log a prefix of its script, every game replays."""
    store = await open_store(database)
    try:
        stored = 0
        for s in scripts:
            rows = await store.get_actions(s["channel"])
            stored += len(rows)
            assert [r.idx for r in rows] == list(range(len(rows))), f"table {s['channel']}: gaps or duplicates"
            expected = [json.dumps(a, sort_keys=True) for _, a in s["actions"][: len(rows)]]
            assert [json.dumps(json.loads(r.action), sort_keys=True) for r in rows] == expected, (
                f"table {s['channel']}: the log is not the script's prefix"
            )
            done = {r.idx for r in rows}
            lost = [i for (c, i) in acked if c == s["channel"] and i not in done]
            assert not lost, f"table {s['channel']}: acknowledged actions {lost} are not stored"
            record = await record_from_store(store, s["channel"])
            result = replay(games.get(s["game"]), record)
            assert result.ok, f"table {s['channel']}: {result}"
        return f"stored {stored}, acknowledged {len(acked)}, lost 0, duplicated 0, every game replays"
    finally:
        await store.close()


def run_load(
    database: str | Path, scripts_file: Path, scripts: list[dict[str, Any]], parts: int, *, kill: bool = False
) -> dict[str, Any]:
    asyncio.run(seat_tables(database, scripts))
    work_dir = Path(tempfile.mkdtemp(prefix="chancellery-scale-"))
    acks = [work_dir / f"acks-{k}.txt" for k in range(parts)]
    procs = [
        subprocess.Popen([sys.executable, __file__, "--worker", str(database), str(scripts_file), str(a), str(k), str(parts)])
        for k, a in enumerate(acks)
    ]
    killed_after = None
    if kill:
        victim = procs[-1]
        share = sum(len(s["actions"]) for s in scripts if s["channel"] % parts == parts - 1)
        while victim.poll() is None:
            done = len(acks[-1].read_text(encoding="ascii").splitlines()) if acks[-1].exists() else 0
            if done >= share * 0.3:
                victim.send_signal(signal.SIGKILL)
                killed_after = done
                break
            time.sleep(0.05)
    codes = [p.wait() for p in procs]
    acked, latencies, wall = read_acks(acks)
    survivors = codes[:-1] if kill else codes
    assert all(c == 0 for c in survivors), f"a worker failed: exit codes {codes}"
    if kill:  # the others kept serving: every one of their tables finished its script
        theirs = sum(len(s["actions"]) for s in scripts if s["channel"] % parts != parts - 1)
        assert len([1 for c, _ in acked if c % parts != parts - 1]) == theirs, "a surviving process stopped"
    check = asyncio.run(verify(database, scripts, acked))
    ordered = sorted(latencies)
    return {
        "actions": len(latencies),
        "per_s": len(latencies) / wall,
        "p50_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        "check": check,
        "killed_after": killed_after,
    }


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return worker_main(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=20, help="actions per table (default 20)")
    parser.add_argument("--processes", default="1,2,4", help="process counts (default 1,2,4)")
    parser.add_argument("--no-kill", action="store_true", help="skip the kill -9 run")
    args = parser.parse_args()
    counts = [int(p) for p in args.processes.split(",")]

    from tests.pgserver import PostgresServer

    t0 = time.perf_counter()
    scripts = make_scripts(args.tables, args.actions)
    scripts_file = Path(tempfile.mkdtemp(prefix="chancellery-scale-")) / "scripts.json"
    scripts_file.write_text(json.dumps(scripts))
    total = sum(len(s["actions"]) for s in scripts)
    print(f"{args.tables} tables, {total} actions (scripts built in {time.perf_counter() - t0:.1f} s)")

    server = PostgresServer().start()
    rows = []
    try:
        for parts in counts:
            rows.append((f"PostgreSQL, {parts} process{'es' if parts > 1 else ''}",
                         run_load(server.new_database(), scripts_file, scripts, parts)))  # fmt: skip
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(("SQLite, 1 process", run_load(Path(tmp) / "scale.sqlite3", scripts_file, scripts, 1)))
        if not args.no_kill:
            rows.append(("PostgreSQL, 2 processes, one killed",
                         run_load(server.new_database(), scripts_file, scripts, 2, kill=True)))  # fmt: skip
    finally:
        server.stop()
    for name, r in rows:
        killed = f"; killed after {r['killed_after']} of its actions" if r["killed_after"] is not None else ""
        print(
            f"{name:38} {r['actions']:6d} actions  {r['per_s']:7.0f} actions/s  "
            f"p50 {r['p50_ms']:7.1f} ms  p99 {r['p99_ms']:7.1f} ms  ({r['check']}{killed})"
        )
    measured = dict(rows)
    one = measured.get("PostgreSQL, 1 process")
    ratio = f"{one['per_s'] / measured['SQLite, 1 process']['per_s']:.2f}" if one else "not measured (--processes has no 1)"
    print(f"postgres/sqlite actions per second, one process: {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
