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

This file runs the service and reports; the tables' scripts and their pace are in
action_path_scripts.py, the bare write in action_path_bare.py.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere in the checkout

from bench.action_path_bare import bare_postgres, bare_sqlite, run_bare  # noqa: E402
from bench.action_path_scripts import Pacer, Script, game_named, scripts_for  # noqa: E402
from bot.process.runtime import tune_gc  # noqa: E402
from bot.service.tables import TableService  # noqa: E402
from bot.store import open_store  # noqa: E402
from engine.core import Game  # noqa: E402

# what bench/automatic_load.py takes from here
__all__ = ["ROOT", "Pacer", "Script", "p99_of", "scripts_for", "seat_tables"]

TARGET_RATIO = 1.5
TARGET_P99_MS = 25.0  # up to 200 tables acting at once
TABLES_WITH_P99_TARGET = 200
TARGET_P99_OVER_BARE = 1.5  # beyond: the service's p99 over the bare write's


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

        store._saves.submit = no_write  # type: ignore[attr-defined]
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


Run = tuple[list[float], float, float]  # each action's latency, wall seconds, CPU seconds


async def main_async(args: argparse.Namespace) -> int:
    game = game_named(args.game)
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
        return await breakdown(args, game, scripts, options)
    if args.service_only:
        return await service_only(args, game, scripts, options)
    return await service_against_bare(args, game, scripts, options)


async def breakdown(args: argparse.Namespace, game: Game, scripts: list[Script], options: dict[str, Any]) -> int:
    """`--breakdown`: the `--service-only` work per action split into the engine's, the
    state JSON's and the service's own."""
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


async def service_only(args: argparse.Namespace, game: Game, scripts: list[Script], options: dict[str, Any]) -> int:
    """`--service-only`: the service's and engine's own work per action, best of the runs."""
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


async def alternate_runs(
    args: argparse.Namespace,
    game: Game,
    scripts: list[Script],
    options: dict[str, Any],
    profile: cProfile.Profile | None,
) -> tuple[list[Run], list[Run], list[Run]]:
    """The service run, the bare write and (SQLite) the batched bare write, `--repeat`
    times in turn, each on a fresh database; the first service run profiled if asked."""
    services: list[Run] = []
    bares: list[Run] = []
    batched: list[Run] = []
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
    return services, bares, batched


async def service_against_bare(
    args: argparse.Namespace, game: Game, scripts: list[Script], options: dict[str, Any]
) -> int:
    """The default: the service run against the bare write, its ratio and p99 against
    their targets; 0 when both are met."""
    # Alternate the runs and keep each one's best: other work on the machine only ever
    # slows a run down, so the fastest of a few is the fairest estimate of each.
    profile = cProfile.Profile() if args.profile else None
    services, bares, batched = await alternate_runs(args, game, scripts, options, profile)
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
    p99_met = p99_verdict(args, services, bares, s, b)
    if profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.profile_lines)
        print(out.getvalue())
    ratio_met = bool(args.rate) or ratio <= TARGET_RATIO
    return 0 if ratio_met and p99_met else 1


def p99_verdict(
    args: argparse.Namespace, services: list[Run], bares: list[Run], s: dict[str, float], b: dict[str, float]
) -> bool:
    """Each run's p99 and the best against its target (`s`, `b`: the service's and the
    bare write's summaries); whether the target is met."""
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
    return p99_met


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
