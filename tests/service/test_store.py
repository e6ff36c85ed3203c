"""The stores: first run, migrations, versioned saves, and a failure mid-save. The tests that
take `store` or `database` run on SQLite and on PostgreSQL (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import sqlite3

import asyncpg
import pytest

from bot.service.tables import TableError, TableService
from bot.store import (
    ActionRow,
    DeadlineRow,
    EventRow,
    SeatRow,
    SqliteStore,
    StaleWrite,
    TableExists,
    TableRow,
    open_store,
)
from bot.store.postgres import PostgresStore
from bot.store.sqlite import _statements, migrations

from .conftest import CHANNEL, Clock, seated


async def test_first_run_creates_the_file_and_folder_with_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "new" / "deeper" / "bot.sqlite3"
    store = await open_store(path)
    try:
        assert path.exists()
        assert await store.schema_version() == migrations()[-1][0]
        assert (await store._fetch("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await store._fetch("PRAGMA foreign_keys"))[0][0] == 1
    finally:
        await store.close()


async def _rows(store, sql: str) -> list[tuple]:
    """A raw query on either backend (for checks the store contract has no call for)."""
    if isinstance(store, SqliteStore):
        return [tuple(r) for r in await store._fetch(sql)]
    return [tuple(r) for r in await store._pool.fetch(sql)]


async def test_reopening_runs_no_migration_twice_and_keeps_data(database):
    store = await open_store(database)
    await store.create_table(TableRow(channel_id=5, game="envoys", host_id=1))
    await store.close()
    store = await open_store(database)
    try:
        rows = await _rows(store, "SELECT version FROM schema_version ORDER BY version")
        assert [r[0] for r in rows] == [n for n, _ in migrations()]
        assert (await store.get_table(5)).game == "envoys"
    finally:
        await store.close()


async def test_processes_starting_together_on_one_postgresql_database_migrate_it_once(postgres_server):
    url = postgres_server.new_database()
    stores = await asyncio.gather(*(open_store(url) for _ in range(4)))
    try:
        rows = await _rows(stores[0], "SELECT version FROM schema_version ORDER BY version")
        assert [r[0] for r in rows] == [n for n, _ in migrations()]
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_both_backends_keep_the_same_tables_and_columns(tmp_path, postgres_server):
    sqlite_store = await open_store(tmp_path / "bot.sqlite3")
    pg_store = await open_store(postgres_server.new_database())
    try:
        lite: dict[str, set[str]] = {}
        for (name,) in await _rows(sqlite_store, "SELECT name FROM sqlite_master WHERE type='table'"):
            lite[name] = {r[1] for r in await _rows(sqlite_store, f"PRAGMA table_info({name})")}
        pg: dict[str, set[str]] = {}
        for name, column in await _rows(
            pg_store,
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema='public'",
        ):
            pg.setdefault(name, set()).add(column)
        # the heartbeat is a file beside an SQLite database, a row in PostgreSQL
        assert pg.pop("heartbeat") == {"owner", "at"}
        assert pg == lite
    finally:
        await sqlite_store.close()
        await pg_store.close()


async def test_a_stale_writer_fails_and_changes_nothing(store):
    table = await store.create_table(
        TableRow(channel_id=5, game="envoys", host_id=1, status="running", state="{}")
    )
    fresh = await store.save(TableRow(**{**vars(table), "state": '{"a": 1}'}), expected_version=1)
    assert fresh.version == 2
    stale = TableRow(**{**vars(table), "state": '{"b": 2}'})
    with pytest.raises(StaleWrite):
        await store.save(stale, expected_version=1, actions=[ActionRow(5, 0, "s1", 1, "{}", 0.0)])
    stored = await store.get_table(5)
    assert (stored.state, stored.version) == ('{"a": 1}', 2)
    assert await store.get_actions(5) == []


async def test_a_second_table_in_a_busy_channel_is_refused_but_an_ended_one_is_replaced(store):
    await store.create_table(TableRow(channel_id=5, game="envoys", host_id=1, status="running"))
    with pytest.raises(TableExists):
        await store.create_table(TableRow(channel_id=5, game="envoys", host_id=2))
    t = await store.get_table(5)
    t.status = "finished"
    await store.save(t, t.version)
    await store.create_table(TableRow(channel_id=5, game="envoys", host_id=2))
    assert (await store.get_table(5)).host_id == 2


class FailingStore(SqliteStore):
    """Fails after the table row and the action are written, before the events."""

    fail = False

    def _write_events(self, conn, events):
        if self.fail:
            raise RuntimeError("disk pulled out mid-save")
        super()._write_events(conn, events)


async def test_a_failure_mid_save_leaves_the_previous_state_intact(tmp_path):
    store = await FailingStore.open(tmp_path / "bot.sqlite3")
    try:
        table = await store.create_table(TableRow(channel_id=5, game="envoys", host_id=1, state='{"v": 1}'))
        deadline = DeadlineRow(5, "r1/commit", 0.0, 100.0, [50.0])
        await store.save(table, 1, deadlines=[deadline])
        store.fail = True
        changed = TableRow(**{**vars(table), "state": '{"v": 2}'})
        with pytest.raises(RuntimeError):
            await store.save(
                changed,
                2,
                actions=[ActionRow(5, 0, "s1", 1, "{}", 1.0)],
                events=[EventRow(5, 0, None, "x", "x", 1.0)],
                deadlines=[],
            )
        stored = await store.get_table(5)
        assert (stored.state, stored.version) == ('{"v": 1}', 2)
        assert await store.get_actions(5) == []
        assert await store.get_deadlines(5) == [deadline]
        store.fail = False  # the connection is usable again: no transaction was left open
        await store.save(changed, 2, actions=[ActionRow(5, 0, "s1", 1, "{}", 1.0)])
        assert (await store.get_table(5)).state == '{"v": 2}'
    finally:
        await store.close()


async def test_a_failed_save_during_an_action_loses_nothing_and_the_next_action_works(tmp_path):
    store = await FailingStore.open(tmp_path / "bot.sqlite3")
    try:
        service = TableService(store, clock=Clock())
        await seated(service, "alice", "bob")
        before = (await store.get_table(CHANNEL)).state
        store.fail = True
        with pytest.raises(RuntimeError):
            await service.command(CHANNEL, 1, "commit", {"value": "2"})
        assert (await store.get_table(CHANNEL)).state == before
        assert await store.get_actions(CHANNEL) == []
        store.fail = False
        await service.command(CHANNEL, 1, "commit", {"value": "2"})  # not refused as "already committed"
        assert [a.idx for a in await store.get_actions(CHANNEL)] == [0]
    finally:
        await store.close()


async def test_a_postgresql_connection_goes_back_to_the_pool_with_no_reset_query_and_no_open_transaction(
    postgres_server,
):
    """One round trip per save: the pool's default reset query is another at each release.
    A transaction that failed is still rolled back before the connection is used again."""
    store = await PostgresStore.open(postgres_server.new_database(), pool_size=1)
    try:
        table = await store.create_table(TableRow(channel_id=5, game="envoys", host_id=1, state='{"v": 1}'))
        async with store._pool.acquire() as conn:
            protocol = conn._con._protocol
        before = protocol.queries_count
        assert await store.table_version(5) == 1
        assert protocol.queries_count == before + 1  # the query alone
        seat = SeatRow(5, 1, "alice", position=1, joined_at=0.0)
        with pytest.raises(StaleWrite):  # inside a transaction: statement by statement
            await store.save(TableRow(**{**vars(table), "state": '{"v": 2}'}), 7, seats=[seat])
        async with store._pool.acquire() as conn:
            assert not conn.is_in_transaction()
        saved = await store.save(TableRow(**{**vars(table), "state": '{"v": 3}'}), 1, seats=[seat])
        assert saved.version == 2 and (await store.get_table(5)).state == '{"v": 3}'
        assert [s.name for s in await store.get_seats(5)] == ["alice"]
    finally:
        await store.close()


async def test_foreign_keys_refuse_seats_of_a_missing_table(store):
    with pytest.raises((sqlite3.IntegrityError, asyncpg.ForeignKeyViolationError)):
        await _rows(
            store,
            "INSERT INTO seats (channel_id, user_id, name, position, joined_at) VALUES (77, 1, 'x', 1, 0)",
        )


async def test_a_save_naming_its_changed_columns_writes_only_those(store):
    table = await store.create_table(TableRow(channel_id=5, game="envoys", host_id=1, state="{}"))
    changed = TableRow(**{**vars(table), "state": '{"v": 2}', "host_id": 99})
    await store.save(changed, 1, columns=["state"])
    stored = await store.get_table(5)
    assert (stored.state, stored.host_id, stored.version) == ('{"v": 2}', 1, 2)


async def test_a_table_another_process_keeps_changing_is_reported_busy(tmp_path):
    class Contended(SqliteStore):
        contended = False

        def _update_tables(self, conn, saves):
            if self.contended:
                raise StaleWrite("someone else wrote first")
            super()._update_tables(conn, saves)

    store = await Contended.open(tmp_path / "bot.sqlite3")
    try:
        service = TableService(store, clock=Clock())
        await seated(service, "alice", "bob")
        store.contended = True
        with pytest.raises(TableError, match="The table is busy right now; please try again."):
            await service.command(CHANNEL, 1, "commit", {"value": "2"})
        assert await store.get_actions(CHANNEL) == []
    finally:
        await store.close()


async def test_a_database_of_the_first_schema_migrates_and_keeps_its_tables(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for statement in _statements(migrations()[0][1]):
        conn.execute(statement)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (1)")
    conn.execute(
        "INSERT INTO tables (channel_id, game, status, host_id, created_at, updated_at) "
        "VALUES (5, 'envoys', 'lobby', 1, 0, 0)"
    )
    conn.execute(
        "INSERT INTO seats (channel_id, user_id, name, position, joined_at) VALUES (5, 1, 'alice', 1, 0)"
    )
    conn.commit()
    conn.close()
    store = await open_store(path)
    try:
        assert await store.schema_version() == migrations()[-1][0]  # every migration applied
        table = await store.get_table(5)
        assert table.meta == {} and table.status_message_id is None
        (seat,) = await store.get_seats(5)
        assert seat.name == "alice" and seat.automatic is False
        assert await store.get_seat_history(5) == []
        assert await store.tables_of_user(1) == [5]
    finally:
        await store.close()
