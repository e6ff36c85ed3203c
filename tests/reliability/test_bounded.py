"""Memory that does not grow with every channel and member ever seen, and a write-ahead
log that shrinks back after a burst (docs/reliability.md)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import bot.store.sqlite
from bot.service.bounded import LRU, KeyedLocks
from bot.service.tables import PREFS_CACHE_SIZE, TableError, TableService
from bot.store import NotifyPrefs, open_store


def test_lru_forgets_the_least_recently_used():
    cache = LRU(2)
    cache["a"], cache["b"] = 1, 2
    assert cache.get("a") == 1  # "a" is now the most recent
    cache["c"] = 3
    assert list(cache) == ["a", "c"]
    with pytest.raises(ValueError):
        LRU(0)


async def test_keyed_locks_exclude_and_leave_nothing_behind():
    locks = KeyedLocks()
    order = []

    async def work(key, n):
        async with locks.hold(key):
            order.append(("in", key, n))
            await asyncio.sleep(0.01)
            order.append(("out", key, n))

    await asyncio.gather(work(1, 1), work(1, 2), work(2, 3))
    # the two holders of key 1 never overlap
    ones = [o for o in order if o[1] == 1]
    assert ones[0][0] == "in" and ones[1] == ("out", 1, ones[0][2]) and ones[2][0] == "in"
    assert len(locks) == 0

    async def refused():
        async with locks.hold(5):
            raise TableError("no")

    with pytest.raises(TableError):
        await refused()
    assert len(locks) == 0
    # a waiter cancelled while it waits leaves no entry either
    held = locks.hold(7)
    await held.__aenter__()
    waiter = asyncio.ensure_future(work(7, 9))
    await asyncio.sleep(0)
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    await held.__aexit__(None, None, None)
    assert len(locks) == 0


async def test_the_service_keeps_no_entry_per_channel_or_member_seen(registry, tmp_path):
    """The fuzz run's finding: 22,000 lock and preference entries after many channels."""
    store = await open_store(tmp_path / "db.sqlite3")
    try:
        service = TableService(store)
        for channel in range(1, 3001):  # channels with no table, as autocomplete and typos bring
            with pytest.raises(TableError):
                await service.lobby.join(channel, channel, "someone")
        assert len(service.access.locks) == 0
        service.preferences.cache.maxsize = 50  # as if 4,096 members had been seen: the bound holds
        for user in range(1, 201):
            await service.notifications.set_notify(user, mode="mention")
        assert len(service.preferences.cache) == 50 and 1 not in service.preferences.cache
        assert PREFS_CACHE_SIZE >= 1024
        # a member forgotten by the cache is read again from the store when their table loads
        await service.lobby.create(1, 9, "envoys", 1, "one")
        await service.lobby.join(1, 2, "two")
        assert service.notifications.prefs_of(1).mode == "mention"
    finally:
        await store.close()


async def test_the_write_ahead_log_shrinks_back_after_a_burst(tmp_path, monkeypatch):
    monkeypatch.setattr(bot.store.sqlite, "JOURNAL_SIZE_LIMIT", 64 * 1024)
    db = tmp_path / "db.sqlite3"
    store = await open_store(db)
    wal = db.with_name(db.name + "-wal")
    try:

        def burst(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN")
            conn.executemany(
                "INSERT INTO notify_prefs (user_id, mode, timezone, quiet_hours, updated_at) VALUES (?,?,?,?,?)",
                [(i, "dm", "x" * 1000, None, 0.0) for i in range(2000)],
            )
            conn.execute("COMMIT")

        await store._run(burst)
        assert wal.stat().st_size > 1_000_000
        store._checkpoints._checkpoint_now()  # what the background checkpoint does
        await store.set_notify(NotifyPrefs(1), 0.0)  # the next write starts the log over
        assert wal.stat().st_size <= 64 * 1024
    finally:
        await store.close()
