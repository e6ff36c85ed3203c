"""The child process of the kill -9 runs, and the checks made after each kill
(tests/reliability/test_kill.py, bench/reliability.py; docs/reliability.md).

`kill_runs` forks children (or `python -m tests.reliability.driver DB SEED [--finish]`
runs one by hand); each keeps one table of each of the
three games going over the SQLite file DB through the table service, as the bot would:
it opens tables, seats players, starts them and plays the games' automatic moves. Each
call the service has returned from is acknowledged on stdout, one line each, *after* it
returned, the moment the bot would answer the player:

    T <channel>          the table was created
    S <channel>          the game was started
    A <channel> <n>      the table's n-th action is acknowledged

A restart picks the tables up where the database has them. `--finish` plays the current
games to their end and exits (so a run ends with finished games to export). `verify` is
what the parent checks after every kill.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sqlite3
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

GAMES = (("crisis1914", 3), ("origins", 3), ("schonbrunn", 3))
BLOCK = 100_000  # game i's tables live in channels i*BLOCK+1, i*BLOCK+2, ...


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # one write() of a short line: whole in the pipe, or not at all


async def drive(db: Path, seed: int, *, finish: bool = False) -> None:
    from bot.service.tables import TableError, TableService
    from bot.store import open_store

    rng = random.Random(seed)
    store = await open_store(db)
    service = TableService(store, seed_source=lambda: rng.randrange(2**63))
    try:
        channels = await store.tables_with_status("lobby", "running", "paused", "finished", "abandoned")
        current: dict[int, int] = {}  # game index -> its channel now in play
        counts: dict[int, int] = {}
        for gi in range(len(GAMES)):
            mine = [c for c in channels if c // BLOCK == gi + 1]
            current[gi] = max(mine) if mine else (gi + 1) * BLOCK
        from engine import games

        for game in games.all():  # content loaded before READY: the kills land in play
            game.check_content()
        _say("READY")
        done: set[int] = set()
        while len(done) < len(GAMES):
            for gi, (game, players) in enumerate(GAMES):
                if gi in done:
                    continue
                ch = current[gi]
                info = await service.table_info(ch)
                if info is None or info.status in ("finished", "abandoned"):
                    if finish and info is not None:
                        done.add(gi)
                        continue
                    ch = current[gi] = ch + 1
                    await service.lobby.create(ch, 1, game, 1, "p1")
                    _say(f"T {ch}")
                    info = await service.table_info(ch)
                if info.status == "lobby":
                    for user in range(2, players + 1):
                        try:
                            await service.lobby.join(ch, user, f"p{user}")
                        except TableError:
                            pass  # seated before the last kill
                    await service.lobby.start(ch, 1)
                    _say(f"S {ch}")
                if ch not in counts:
                    counts[ch] = len(await store.get_actions(ch))
                if await service.auto(ch) is not None:
                    counts[ch] += 1
                    _say(f"A {ch} {counts[ch]}")
    finally:
        await store.close()


@dataclass
class Acks:
    """What the child acknowledged, read from its output."""

    tables: set[int] = field(default_factory=set)
    started: set[int] = field(default_factory=set)
    actions: dict[int, int] = field(default_factory=dict)  # channel -> highest n acknowledged

    def read(self, output: str) -> int:
        """Take in the complete lines of `output`; returns how many actions they acknowledge."""
        count = 0
        for line in output.splitlines():
            words = line.split()
            if len(words) == 2 and words[0] == "T":
                self.tables.add(int(words[1]))
            elif len(words) == 2 and words[0] == "S":
                self.started.add(int(words[1]))
            elif len(words) == 3 and words[0] == "A":
                ch, n = int(words[1]), int(words[2])
                self.actions[ch] = max(self.actions.get(ch, 0), n)
                count += 1
        return count


@dataclass
class Verified:
    problems: list[str]
    lost_actions: int
    tables: int
    finished: int
    replayed: int


def verify(db: Path, acks: Acks, *, replay_all: bool = False) -> Verified:
    """After a kill: the file passes integrity_check, every acknowledged table, start and
    action is stored, and every table loads with its invariants holding. With
    `replay_all`, every finished game's export replays, and every game in play's full
    record (the operator's export) too."""
    problems: list[str] = []
    conn = sqlite3.connect(db)
    try:
        check = conn.execute("PRAGMA integrity_check").fetchall()
        if check != [("ok",)]:
            problems.append(f"integrity_check: {check[:3]}")
        stored = dict(conn.execute("SELECT channel_id, COUNT(*) FROM actions GROUP BY channel_id").fetchall())
        rows = {c: (s, st) for c, s, st in conn.execute("SELECT channel_id, status, state FROM tables")}
    finally:
        conn.close()
    lost = 0
    for ch in acks.tables - set(rows):
        problems.append(f"channel {ch}: acknowledged table missing")
    for ch in acks.started:
        if ch not in rows or rows[ch][1] is None:
            problems.append(f"channel {ch}: acknowledged start missing")
    for ch, n in acks.actions.items():
        if stored.get(ch, 0) < n:
            lost += n - stored.get(ch, 0)
            problems.append(f"channel {ch}: {n} actions acknowledged, {stored.get(ch, 0)} stored")
    finished, replayed = asyncio.run(_load_all(db, sorted(rows), problems, replay_all))
    return Verified(problems, lost, len(rows), finished, replayed)


async def _load_all(db: Path, channels: list[int], problems: list[str], replay_all: bool) -> tuple[int, int]:
    from bot.service.tables import TableError, TableService
    from bot.store import open_store
    from bot.store.records import Record, replay

    store = await open_store(db)
    finished = replayed = 0
    try:
        service = TableService(store)
        for ch in channels:
            try:
                t = await service.load(ch, fresh=True)
                await service.status(ch)
            except Exception as exc:  # noqa: BLE001 - any failure to load is the finding
                problems.append(f"channel {ch}: does not load: {exc!r}")
                continue
            if t.state is not None:
                broken = t.game.invariants(t.state)
                if broken:
                    problems.append(f"channel {ch}: invariants: {broken[:2]}")
            finished += t.row.status == "finished"
            if not replay_all or t.state is None:
                continue
            try:
                data = await (service.history.export(ch) if t.row.status == "finished" else service.history.operator_export(ch))
            except TableError as exc:
                problems.append(f"channel {ch}: export refused: {exc}")
                continue
            result = replay(t.game, Record.model_validate(data))
            if not result.ok:
                problems.append(f"channel {ch}: record does not replay: {result}")
            replayed += 1
    finally:
        await store.close()
    return finished, replayed


@dataclass
class KillRun:
    kills: int = 0  # children killed with SIGKILL mid-play
    survived: int = 0  # kills after which every check held
    acknowledged: int = 0  # actions acknowledged before the kills
    lost: int = 0
    problems: list[str] = field(default_factory=list)
    final: Verified | None = None


def kill_runs(db: Path, kills: int, seed: int, *, wait: tuple[float, float] = (0.05, 0.8)) -> KillRun:
    """`kills` children, each killed with SIGKILL at a random moment once it has opened
    the database; the checks after each; then one child that plays every game in play to
    its end, and every record replayed."""
    rng = random.Random(seed)
    acks, run = Acks(), KillRun()
    for i in range(kills):
        child = _Child(db, seed * 1000 + i)
        ready = child.stdout.readline()
        if ready.strip() != "READY":
            run.problems.append(f"child {i} did not start: {ready!r} {child.kill()[-2000:]}")
            break
        time.sleep(rng.uniform(*wait))
        out = child.kill()
        run.kills += 1
        run.acknowledged += acks.read(out)
        checked = verify(db, acks)
        run.lost += checked.lost_actions
        if checked.problems:
            run.problems += [f"after kill {i + 1}: {p}" for p in checked.problems]
        else:
            run.survived += 1
    child = _Child(db, seed * 1000 + kills, finish=True)
    out, code = child.wait()
    if code != 0:
        run.problems.append(f"the finishing child failed with status {code} (its traceback is on stderr)")
    acks.read(out)
    run.final = verify(db, acks, replay_all=True)
    run.lost += run.final.lost_actions
    run.problems += [f"at the end: {p}" for p in run.final.problems]
    return run


class _Child:
    """A driver in a forked child: it starts with every module the parent imported, so a
    run is spent playing and being killed rather than importing (1-2 s a start here)."""

    def __init__(self, db: Path, seed: int, *, finish: bool = False):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: play, and never return into the parent's code
            code = 1
            try:
                os.close(read)
                os.dup2(write, 1)
                sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - lives until _exit
                asyncio.run(drive(db, seed, finish=finish))
                code = 0
            except BaseException:  # noqa: BLE001 - reported on stderr, exit status 1
                traceback.print_exc()
            finally:
                os._exit(code)
        os.close(write)
        self.pid = pid
        self.stdout = os.fdopen(read, "r")

    def kill(self) -> str:
        os.kill(self.pid, signal.SIGKILL)
        return self.wait()[0]

    def wait(self) -> tuple[str, int]:
        out = self.stdout.read()
        self.stdout.close()
        _, status = os.waitpid(self.pid, 0)
        return out, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db", type=Path)
    parser.add_argument("seed", type=int)
    parser.add_argument("--finish", action="store_true")
    args = parser.parse_args()
    asyncio.run(drive(args.db, args.seed, finish=args.finish))


if __name__ == "__main__":
    main()
