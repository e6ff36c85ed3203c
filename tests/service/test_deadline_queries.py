"""The deadline loop's queries read the deadlines_by_next index.

The loop runs them after every action; joined from `tables` first they scan every table
(about 1.4 ms at 10,000 tables). These tests read SQLite's query plans and check the
answers against a plain filter over the same rows.
"""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot.process.shards import EVERY_SHARD, Shards
from bot.store.base import due_tables_sql, next_due_sql
from bot.store.sqlite import migrations

NOW = 1_000_000.0


@pytest.fixture(scope="module")
def db():
    """10,000 tables, most running with two open deadlines each, in an in-memory database."""
    conn = sqlite3.connect(":memory:")
    for _, sql in migrations():
        conn.executescript(sql)
    rnd = random.Random(15)
    for channel in range(10_000):
        status = rnd.choice(["running"] * 7 + ["finished", "lobby", "paused"])
        conn.execute(
            "INSERT INTO tables (channel_id, guild_id, game, status, host_id, created_at, updated_at) "
            "VALUES (?, ?, 'origins', ?, 1, 0, 0)",
            (channel, rnd.getrandbits(60), status),
        )
        if status in ("running", "paused"):
            for phase in ("placement", "diplomacy"):
                at = NOW + rnd.uniform(-600, 3 * 86_400)
                conn.execute(
                    "INSERT INTO deadlines (channel_id, phase, started_at, due_at, next_at) VALUES (?, ?, 0, ?, ?)",
                    (channel, phase, at, at),
                )
    conn.execute("ANALYZE")
    yield conn
    conn.close()


def plan(conn: sqlite3.Connection, sql: str, params: tuple = ()) -> list[str]:
    return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params)]


def expected(conn: sqlite3.Connection, shards: Shards) -> list[tuple[int, float]]:
    """(channel, next_at) of every deadline of a running table on `shards`, by a full scan."""
    rows = conn.execute(
        "SELECT d.channel_id, d.next_at, t.guild_id FROM deadlines d JOIN tables t USING (channel_id) "
        "WHERE t.status = 'running'"
    )
    return [(c, at) for c, at, guild in rows if shards.owns(guild)]


SHARDS = [EVERY_SHARD, Shards(4, (1,)), Shards(3, (0, 2))]


@pytest.mark.parametrize("shards", SHARDS, ids=["all", "one-of-four", "two-of-three"])
def test_due_tables_reads_the_next_at_index(db, shards):
    sql = due_tables_sql(shards, "?")
    steps = plan(db, sql, (NOW,))
    assert any("deadlines_by_next" in s for s in steps), steps
    assert not any(s.startswith("SCAN") for s in steps), steps
    due = [c for (c,) in db.execute(sql, (NOW,))]
    want = sorted({c for c, at in expected(db, shards) if at <= NOW})
    assert due == want and due


@pytest.mark.parametrize("shards", SHARDS, ids=["all", "one-of-four", "two-of-three"])
def test_next_due_reads_the_index_in_order_and_stops(db, shards):
    sql = next_due_sql(shards)
    steps = plan(db, sql)
    assert any("USING INDEX deadlines_by_next" in s for s in steps), steps
    assert not any("TEMP B-TREE" in s or "BLOOM" in s for s in steps), steps
    (first,) = db.execute(sql).fetchone()
    assert first == min(at for _, at in expected(db, shards))


def test_next_due_is_none_without_running_tables():
    conn = sqlite3.connect(":memory:")
    for _, sql in migrations():
        conn.executescript(sql)
    assert conn.execute(next_due_sql(EVERY_SHARD)).fetchone() is None
