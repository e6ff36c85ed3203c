"""The bare write the action path is measured against (bench/action_path.py): the same
states the service saves, written straight to SQLite (aiosqlite) or PostgreSQL (asyncpg),
one transaction per save (append the action, update the state under a version check), with
the same concurrency as the service run: the cheapest correct write, the floor of a save.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import aiosqlite

from bench.action_path_scripts import Pacer, Script
from bot.store.group_commit import GroupCommit

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

        group: GroupCommit[tuple[int, int, str, str]] = GroupCommit(lambda writes: db._execute(transaction, db._conn, writes))

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
