"""The action path, side by side with a bare write of the same states.

    python bench/action_path.py [--tables 200] [--game G] [--store sqlite|postgresql]
                                [--rounds 5] [--rate R] [--repeat 3] [--profile]
                                [--service-only | --breakdown]

Two runs in one process, each on its own fresh database (SQLite: a file with the store's
pragmas, WAL and synchronous=NORMAL; PostgreSQL: a database on a throwaway server):

- service: `TableService.act` for every table at once (one task per table): lock, load,
  apply, save with the action log, events and deadlines, build the outbox.
- bare: the same sequence of states written with aiosqlite (asyncpg), one transaction per
  save (append the action, update the state under a version check), the same concurrency.

By default each table sends its next action as soon as the last is saved (saturation:
latency is mostly waiting behind the other tables). `--rate R` spreads R actions per
second over the tables instead, closer to real play, so latency is mostly service time.

The game is the tiny test game (tests/tinygame.py), or `--game` if registered; every
table plays the same legal actions, chosen by the game's automatic players from the
table seed (kept in bench/.cache/), and the bare run writes exactly the state JSON the
service saves, including the decisions without a real choice the service takes itself.
Latency is measured around each await. Not a test: the numbers depend on the machine
(see bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import hashlib
import io
import json
import os
import pstats
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere in the checkout

import aiosqlite  # noqa: E402
from pydantic import ValidationError  # noqa: E402

from bot.process.runtime import tune_gc  # noqa: E402
from bot.service.tables import TableService  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.store.group_commit import GroupCommit  # noqa: E402
from engine import games  # noqa: E402
from engine.core import Game, IllegalAction  # noqa: E402

TARGET_RATIO = 1.5
TARGET_P99_MS = 25.0  # up to 200 tables acting at once
TABLES_WITH_P99_TARGET = 200
TARGET_P99_OVER_BARE = 1.5  # beyond: the service's p99 over the bare write's
CACHE = ROOT / "bench" / ".cache"


@dataclass
class Script:
    """One table's game: who sends what, and what the service saves for it. Each action
    the service acknowledges is saved with whatever decisions without a real choice it
    then takes itself (`Game.forced_action`), so `saves[i]` lists every
    (action JSON, state JSON) saved for `actions[i]`, in order; `opening` those saved at
    the start."""

    channel_id: int
    seed: int
    players: list[int]  # user ids in seat order (s1, s2, ...)
    actions: list[tuple[int, dict[str, Any]]]
    saves: list[list[tuple[str, str]]]
    opening: list[tuple[str, str]]

    @property
    def final(self) -> str:
        return next(saved[-1][1] for saved in (*reversed(self.saves), self.opening) if saved)


def _game(name: str) -> Game:
    if name == "envoys":
        from tests.tinygame import GAME

        return games.register(GAME)
    return games.get(name)


def _forced(game: Game, state: Any) -> list[tuple[str, str]]:
    """Play the decisions the service takes at once (`Play.autoplay`: the first
    prompt whose decision carries no real choice, again until none does); what each saves."""
    saved = []
    while game.outcome(state) is None:
        forced = next(
            ((p.seat, f) for p in game.prompts(state) if (f := game.forced_action(state, p.seat))), None
        )
        if forced is None:
            break
        seat, f = forced
        state, _ = game.apply(state, seat, f.action)
        saved.append((game.Action.dump_json(f.action).decode(), state.model_dump_json()))
    return saved


def make_script(
    game: Game, channel_id: int, players: int, options: dict[str, Any], chosen: list[Any] | None = None
) -> Script:
    """The service names seats s1..sN in join order; the engine plays the same seats here.
    The actions are the automatic players' (`bot_action`), or `chosen` (the actions of an
    earlier script, replayed); IllegalAction if one of those is no longer legal."""
    seed = channel_id * 7919
    users = [channel_id * 10 + i for i in range(players)]
    seats = [f"s{i + 1}" for i in range(players)]
    user_of = dict(zip(seats, users, strict=True))
    state = game.setup(seats, game.Options.model_validate(options), seed)
    opening = _forced(game, state)
    if opening:
        state = game.load_state(opening[-1][1])
    bots = random.Random(seed)
    actions, saves = [], []
    while game.outcome(state) is None:
        seat = game.prompts(state)[0].seat
        if chosen is None:
            action = game.bot_action(state, seat, bots)
        elif len(actions) < len(chosen):
            action = game.parse_action(chosen[len(actions)])
        else:
            raise IllegalAction("the earlier script ends before the game does")
        state, _ = game.apply(state, seat, action)
        saved = [(game.Action.dump_json(action).decode(), state.model_dump_json()), *_forced(game, state)]
        state = game.load_state(saved[-1][1]) if len(saved) > 1 else state
        actions.append((user_of[seat], action.model_dump(mode="json")))
        saves.append(saved)
    if chosen is not None and len(actions) != len(chosen):
        raise IllegalAction("the game ends before the earlier script does")
    return Script(channel_id, seed, users, actions, saves, opening)


def scripts_for(game: Game, tables: int, players: int, options: dict[str, Any]) -> list[Script]:
    """Every table's script. The automatic players that choose the actions take most of a
    second per Origins game, so their choices are kept in bench/.cache/ and replayed by
    the engine as it is now (which derives the states, and the decisions without a real
    choice); a table whose kept actions the engine no longer plays to the end is chosen
    again."""
    name = hashlib.blake2b(json.dumps([players, options], sort_keys=True).encode(), digest_size=6)
    cached = CACHE / f"action-path-{game.id}-{name.hexdigest()}.json"
    kept: dict[str, list[Any]] = json.loads(cached.read_text()) if cached.exists() else {}
    t0, chosen_again, scripts = time.perf_counter(), 0, []
    for channel_id in range(1000, 1000 + tables):
        script = None
        if str(channel_id) in kept:
            try:
                script = make_script(game, channel_id, players, options, kept[str(channel_id)])
            except (IllegalAction, ValidationError):
                pass
        if script is None:
            script = make_script(game, channel_id, players, options)
            kept[str(channel_id)] = [action for _, action in script.actions]
            chosen_again += 1
        scripts.append(script)
    if chosen_again:
        CACHE.mkdir(exist_ok=True)
        partial = cached.with_suffix(".partial")
        partial.write_text(json.dumps(kept))
        partial.rename(cached)
    print(
        f"scripts made in {time.perf_counter() - t0:.1f} s ({chosen_again} of {tables} chosen by the "
        f"automatic players, the rest replayed from {cached.relative_to(ROOT)})"
    )
    return scripts


def p99_of(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def summary(name: str, latencies: list[float], wall: float, cpu: float) -> dict[str, float]:
    ordered = sorted(latencies)
    p99 = p99_of(ordered)
    stats = {
        "p50_ms": statistics.median(ordered) * 1000,
        "p99_ms": p99 * 1000,
        "per_s": len(ordered) / wall,
        "n": len(ordered),
        "wall_s": wall,
        "cpu_ms": cpu / len(ordered) * 1000,  # both threads: the event loop's and aiosqlite's
    }
    print(
        f"{name:8} {stats['n']:6d} actions  p50 {stats['p50_ms']:7.2f} ms  p99 {stats['p99_ms']:7.2f} ms"
        f"  {stats['per_s']:8.0f} actions/s  CPU {stats['cpu_ms']:.3f} ms/action"
        f" = {1000 / stats['cpu_ms']:,.0f} actions per CPU second  ({wall:.2f} s)"
    )
    return stats


class Pacer:
    """When a rate is set, each table sends its actions `tables / rate` seconds apart
    (first one at a random offset), so the total arrival rate is `rate` per second.
    Without a rate every table sends its next action as soon as the last is saved."""

    def __init__(self, rate: float | None, tables: int, seed: int = 1):
        self.interval = tables / rate if rate else 0.0
        self.offsets = random.Random(seed)

    async def ticks(self, count: int):
        if not self.interval:
            for index in range(count):
                yield index
            return
        due = time.perf_counter() + self.offsets.uniform(0, self.interval)
        for index in range(count):
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            yield index
            due += self.interval


async def seat_tables(
    service: TableService, game: Game, scripts: list[Script], options: dict[str, Any]
) -> None:
    for s in scripts:  # setting up is not measured
        await service.lobby.create(s.channel_id, None, game.id, s.players[0], f"p{s.players[0]}", options)
        for user in s.players[1:]:
            await service.lobby.join(s.channel_id, user, f"p{user}")
        await service.lobby.start(s.channel_id, s.players[0], seed=s.seed)


async def run_service_alone(
    game: Game, scripts: list[Script], path: Path, options: dict[str, Any], cpu: bool = False
) -> float:
    """`--service-only`: the service's and engine's own work per action, in seconds. Every
    table plays its next action in turn, one at a time, and the store's write returns at
    once without touching the database, so neither the database thread nor waiting is in
    it: the steadiest number on a busy machine, for comparing commits."""
    store = await open_store(path)
    service = TableService(store)
    try:
        await seat_tables(service, game, scripts, options)

        async def no_write(save: Any) -> None:
            return None

        store._saves.submit = no_write  # type: ignore[method-assign]
        clock = time.thread_time if cpu else time.perf_counter
        count, start = 0, clock()
        for index in range(max(len(s.actions) for s in scripts)):
            for s in scripts:
                if index < len(s.actions):
                    user, action = s.actions[index]
                    await service.act(s.channel_id, user, action)
                    count += 1
        return (clock() - start) / count
    finally:
        await store.close()


def run_engine_alone(game: Game, scripts: list[Script]) -> tuple[float, float]:
    """`--breakdown`: per action, in thread CPU seconds, the engine's work the service path
    needs (the step, the prompts after it, the decisions without a real
    choice taken at once) and the state's JSON (`model_dump_json`, as a save writes it),
    played as `--service-only` plays: every table's next action in turn."""
    tables = []
    for s in scripts:
        seats = [f"s{i + 1}" for i in range(len(s.players))]
        state = game.load_state(s.opening[-1][1]) if s.opening else game.setup(seats, game.Options(), s.seed)
        tables.append([s, dict(zip(s.players, seats, strict=True)), state, game.prompts(state)])
    count, json_time, start = 0, 0.0, time.thread_time()
    for index in range(max(len(s.actions) for s in scripts)):
        for table in tables:
            s, seat_of, state, prompts = table
            if index >= len(s.actions):
                continue
            user, action = s.actions[index]
            state = game.step(state, seat_of[user], game.parse_action(action), prompts=prompts).state
            prompts = game.prompts(state)
            while game.outcome(state) is None:
                forced = next(
                    ((p.seat, f) for p in prompts if (f := game.forced_action(state, p.seat))), None
                )
                if forced is None:
                    break
                state = game.step(state, forced[0], forced[1].action, prompts=prompts).state
                prompts = game.prompts(state)
            t0 = time.thread_time()
            state.model_dump_json()
            json_time += time.thread_time() - t0
            table[2:] = [state, prompts]
            count += 1
    return (time.thread_time() - start - json_time) / count, json_time / count


async def run_service(
    game: Game,
    scripts: list[Script],
    database: str | Path,
    options: dict[str, Any],
    rate: float | None = None,
) -> tuple[list[float], float, float]:
    store = await open_store(database)
    service = TableService(store)
    try:
        await seat_tables(service, game, scripts, options)
        latencies: list[float] = []

        pacer = Pacer(rate, len(scripts))

        async def play(s: Script) -> None:
            async for index in pacer.ticks(len(s.actions)):
                user, action = s.actions[index]
                t0 = time.perf_counter()
                await service.act(s.channel_id, user, action)
                latencies.append(time.perf_counter() - t0)

        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(play(s) for s in scripts))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        # the bare run must write what the service wrote, or the comparison means nothing
        for s in scripts:
            row = await store.get_table(s.channel_id)
            assert row is not None and row.state == s.final, f"table {s.channel_id} diverged"
        return latencies, wall, cpu
    finally:
        await store.close()


BARE_SCHEMA = """
CREATE TABLE tables (channel_id INTEGER PRIMARY KEY, state TEXT, version INTEGER NOT NULL);
CREATE TABLE actions (
    channel_id INTEGER NOT NULL REFERENCES tables (channel_id), idx INTEGER NOT NULL,
    seat TEXT NOT NULL, action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (channel_id, idx)
);
"""
BARE_SCHEMA_POSTGRES = """
CREATE TABLE tables (channel_id BIGINT PRIMARY KEY, state TEXT, version INTEGER NOT NULL);
CREATE TABLE actions (
    channel_id BIGINT NOT NULL REFERENCES tables (channel_id), idx INTEGER NOT NULL,
    seat TEXT NOT NULL, action TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, idx)
);
"""
# One statement, so one round trip and its own transaction: the action is appended only
# if the state's version matched (the cheapest correct write on PostgreSQL).
BARE_WRITE_POSTGRES = """
WITH moved AS (
    UPDATE tables SET state = $4, version = version + 1 WHERE channel_id = $1 AND version = $2
    RETURNING channel_id
)
INSERT INTO actions SELECT channel_id, $2, 's', $3, $5 FROM moved RETURNING 1
"""

Write = Callable[[int, int, str, str], Awaitable[None]]


@asynccontextmanager
async def bare_sqlite(path: Path, scripts: list[Script], *, batched: bool) -> AsyncIterator[Write]:
    """The bare SQLite write: one transaction per save in one trip to aiosqlite's thread,
    or (`batched`) the same writes through the store's group commit."""
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.executescript(BARE_SCHEMA)
        await db.executemany("INSERT INTO tables VALUES (?, NULL, 0)", [(s.channel_id,) for s in scripts])

        def append(conn: sqlite3.Connection, channel_id: int, idx: int, action: str, state: str) -> None:
            conn.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?)", (channel_id, idx, "s", action, time.time())
            )
            cur = conn.execute(
                "UPDATE tables SET state=?, version=version+1 WHERE channel_id=? AND version=?",
                (state, channel_id, idx),
            )
            if cur.rowcount != 1:
                raise RuntimeError("stale write")

        def transaction(conn: sqlite3.Connection, writes: list[tuple[int, int, str, str]]) -> list[None]:
            # The whole transaction in one trip to aiosqlite's thread, as the store does:
            # the cheapest correct write, so the ratio is against the floor.
            conn.execute("BEGIN IMMEDIATE")
            try:
                for write in writes:
                    append(conn, *write)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return [None] * len(writes)

        group = GroupCommit(lambda writes: db._execute(transaction, db._conn, writes))

        async def write(channel_id: int, idx: int, action: str, state: str) -> None:
            if batched:
                await group.submit((channel_id, idx, action, state))
            else:
                await db._execute(transaction, db._conn, [(channel_id, idx, action, state)])

        yield write
    finally:
        await db.close()


@asynccontextmanager
async def bare_postgres(url: str, scripts: list[Script]) -> AsyncIterator[Write]:
    """The bare PostgreSQL write: one statement per save on a pool as large as the store's."""
    import asyncpg

    from bot.store.postgres import POOL_SIZE, keep_session

    # the store's pool settings: as many connections, and no reset query at each release
    pool = await asyncpg.create_pool(url, min_size=POOL_SIZE, max_size=POOL_SIZE, reset=keep_session)
    try:
        await pool.execute(BARE_SCHEMA_POSTGRES)
        await pool.executemany("INSERT INTO tables VALUES ($1, NULL, 0)", [(s.channel_id,) for s in scripts])

        async def write(channel_id: int, idx: int, action: str, state: str) -> None:
            if await pool.fetchval(BARE_WRITE_POSTGRES, channel_id, idx, action, state, time.time()) != 1:
                raise RuntimeError("stale write")

        yield write
    finally:
        await pool.close()


async def run_bare(
    scripts: list[Script], bare: AbstractAsyncContextManager[Write], rate: float | None = None
) -> tuple[list[float], float, float]:
    """The bare write of every save the service makes, with the same concurrency: the
    saves of one acknowledged action (it and the decisions taken at once after it) in turn."""
    async with bare as write:
        done = {s.channel_id: 0 for s in scripts}  # each table's version
        for s in scripts:  # the start's saves are not measured, as in the service run
            for action, state in s.opening:
                await write(s.channel_id, done[s.channel_id], action, state)
                done[s.channel_id] += 1
        latencies: list[float] = []
        pacer = Pacer(rate, len(scripts))

        async def play(s: Script) -> None:
            async for index in pacer.ticks(len(s.actions)):
                t0 = time.perf_counter()
                for action, state in s.saves[index]:
                    await write(s.channel_id, done[s.channel_id], action, state)
                    done[s.channel_id] += 1
                latencies.append(time.perf_counter() - t0)

        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(play(s) for s in scripts))
        return latencies, time.perf_counter() - start, time.process_time() - cpu


async def main_async(args: argparse.Namespace) -> int:
    game = _game(args.game)
    options = {"rounds": args.rounds} if args.game == "envoys" else {}
    scripts = scripts_for(game, args.tables, args.players, options)
    total = sum(len(s.actions) for s in scripts)
    if not args.default_gc:
        tune_gc()  # as `python -m bot run` does; both runs share this process and its setting
    print(
        f"{args.tables} tables of {game.title}, {args.players} players, {total} actions per run, "
        f"{args.store}; Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, {os.cpu_count()} CPUs; "
        f"gc thresholds {gc.get_threshold()}"
    )
    if args.breakdown:
        with tempfile.TemporaryDirectory() as tmp:
            runs = [
                (
                    *run_engine_alone(game, scripts),
                    await run_service_alone(game, scripts, Path(tmp) / f"{i}", options, True),
                )
                for i in range(args.repeat)
            ]
        engine, state_json, whole = (min(r[k] for r in runs) * 1e6 for k in range(3))
        rest = whole - engine - state_json
        print(
            f"service path, no database write: {whole:.1f} µs CPU per action = engine {engine:.1f} "
            f"({engine / whole:.0%}) + state JSON {state_json:.1f} ({state_json / whole:.0%}) "
            f"+ the service's own work {rest:.1f} ({rest / whole:.0%})  (best of {args.repeat} each)"
        )
        return 0
    if args.service_only:
        if args.store != "sqlite":
            raise SystemExit("--service-only writes nothing, so it runs on SQLite only")
        with tempfile.TemporaryDirectory() as tmp:
            per_action = [
                await run_service_alone(game, scripts, Path(tmp) / f"alone{i}.sqlite3", options)
                for i in range(args.repeat)
            ]
        each = ", ".join(f"{t * 1e6:.1f}" for t in per_action)
        print(f"service and engine alone, no database write: {min(per_action) * 1e6:.1f} µs per action")
        print(f"(best of {args.repeat}: {each} µs; no target, for comparing commits)")
        return 0
    # Alternate the runs and keep each one's best: other work on the machine only ever
    # slows a run down, so the fastest of a few is the fairest estimate of each.
    services, bares, batched = [], [], []
    profile = cProfile.Profile() if args.profile else None
    server = None
    if args.store == "postgresql":
        from tests.pgserver import PostgresServer

        server = PostgresServer().start()
    try:
        for attempt in range(args.repeat):
            with tempfile.TemporaryDirectory() as tmp:
                where: str | Path = server.new_database() if server else Path(tmp) / "service.sqlite3"
                if profile and attempt == 0:
                    profile.enable()
                services.append(await run_service(game, scripts, where, options, args.rate))
                if profile and attempt == 0:
                    profile.disable()
                if server:
                    bares.append(
                        await run_bare(scripts, bare_postgres(server.new_database(), scripts), args.rate)
                    )
                else:
                    plain = bare_sqlite(Path(tmp) / "bare.sqlite3", scripts, batched=False)
                    bares.append(await run_bare(scripts, plain, args.rate))
                    grouped = bare_sqlite(Path(tmp) / "batched.sqlite3", scripts, batched=True)
                    batched.append(await run_bare(scripts, grouped, args.rate))
    finally:
        if server:
            server.stop()
    service = min(services, key=lambda r: r[1])
    bare = min(bares, key=lambda r: r[1])
    print(
        (f"arrivals: {args.rate:g} actions/s in all" if args.rate else "arrivals: every table back to back")
        + (f"; best of {args.repeat} runs each" if args.repeat > 1 else "")
    )
    s = summary("service", *service)
    b = summary("bare", *bare)
    g = summary("batched", *min(batched, key=lambda r: r[1])) if batched else None
    throughput_ratio = b["per_s"] / s["per_s"]
    p50_ratio = s["p50_ms"] / b["p50_ms"]
    # Saturated, time per action is wall time over actions; paced, throughput is the
    # arrival rate for both, so the median latency is the time per action.
    # The ratio target is for 200 tables acting at once (the default run). Paced, the
    # p50 ratio is shown without one: it sets the engine's and service's fixed work per
    # action against a bare write that computes nothing (see bench/README.md).
    if args.rate:
        ratio, target = p50_ratio, "no target when paced; the target is for the default run"
    else:
        ratio, target = throughput_ratio, f"target <= {TARGET_RATIO}"
    print(f"ratio, service / bare ({'p50 latency' if args.rate else 'throughput'}): {ratio:.2f}  ({target})")
    print(
        f"throughput ratio {throughput_ratio:.2f}, p50 ratio {p50_ratio:.2f}, "
        f"CPU ratio {s['cpu_ms'] / b['cpu_ms']:.2f} (CPU is the steadiest on a busy machine)"
    )
    if g is not None:
        print(
            f"for reference, service / batched bare (the bare write through the same group commit): "
            f"throughput {g['per_s'] / s['per_s']:.2f}, p50 {s['p50_ms'] / g['p50_ms']:.2f}"
        )
    # Saturated, every table waits for the whole round, so a stall of the host adds its
    # length to the 200 latencies of the round it lands in: enough to set a run's p99.
    # Like wall time, the p99 only ever rises with such noise, so the best of the runs is
    # the fairest estimate of the code's own; every run's is shown beside it.
    p99s = {
        name: [p99_of(r[0]) * 1000 for r in runs] for name, runs in (("service", services), ("bare", bares))
    }
    for name, values in p99s.items():
        each = ", ".join(f"{v:.2f}" for v in values)
        print(f"{name} p99 of each run: {each} ms; best {min(values):.2f} ms")
    best_p99, bare_p99 = min(p99s["service"]), min(p99s["bare"])
    # Up to 200 tables acting at once the p99 has a target of its own; with more
    # (1,000), the service's is held to the bare write's, which waits as long in line.
    if args.tables <= TABLES_WITH_P99_TARGET:
        p99_met = best_p99 <= TARGET_P99_MS
        target = f"target <= {TARGET_P99_MS} ms"
    else:
        p99_met = best_p99 <= TARGET_P99_OVER_BARE * bare_p99
        target = f"target <= {TARGET_P99_OVER_BARE} x the bare write's"
    print(
        f"service p99 (best of {args.repeat} runs): {best_p99:.2f} ms, {best_p99 / bare_p99:.2f} x the bare "
        f"write's  ({target})"
    )
    if not args.rate:
        # Every table is always waiting for its own action (none thinks between them), so
        # by Little's law the mean latency is tables / throughput: a p99 target below that
        # needs more throughput, whatever the spread of the latencies.
        needed = args.tables / (TARGET_P99_MS / 1000)
        print(
            f"mean latency = tables / throughput (Little's law): service {args.tables / s['per_s'] * 1000:.1f} ms, "
            f"bare {args.tables / b['per_s'] * 1000:.1f} ms; a p99 of {TARGET_P99_MS:g} ms with {args.tables} "
            f"tables needs over {needed:,.0f} actions/s (the bare write: {b['per_s']:,.0f}, its best p99 "
            f"{bare_p99:.2f} ms)"
        )
    if profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.profile_lines)
        print(out.getvalue())
    ratio_met = bool(args.rate) or ratio <= TARGET_RATIO
    return 0 if ratio_met and p99_met else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5, help="rounds per game of the test game")
    parser.add_argument("--game", default="envoys")
    parser.add_argument(
        "--store",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="postgresql: a throwaway server from the machine's binaries (tests/pgserver.py)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        help="total actions per second, spread over the tables (default: as fast as possible)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    parser.add_argument(
        "--default-gc", action="store_true", help="keep CPython's gc thresholds (the bot raises them)"
    )
    parser.add_argument(
        "--service-only",
        action="store_true",
        help="time the service's and engine's own work per action, with no database write",
    )
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="split the --service-only work per action into the engine's, the state JSON's and the rest",
    )
    parser.add_argument("--profile", action="store_true", help="profile the service run (cProfile)")
    parser.add_argument("--profile-lines", type=int, default=40)
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
