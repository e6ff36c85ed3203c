"""Group commit: saves of different tables that arrive together share one transaction,
and a save that fails still fails alone (bot/store/sqlite.py, `_group_commit`)."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import ActionRow, EventRow, SqliteStore, StaleWrite, TableRow, group_commit

CHANNELS = range(100, 120)


async def _tables(store: SqliteStore) -> list[TableRow]:
    return [
        await store.create_table(
            TableRow(channel_id=c, game="envoys", host_id=1, status="running", state="{}")
        )
        for c in CHANNELS
    ]


@pytest.fixture
def database(tmp_path):
    """Group commit is the SQLite store's own (PostgreSQL commits concurrent saves itself)."""
    return tmp_path / "db" / "test.sqlite3"


def _changed(table: TableRow, value: int | str) -> TableRow:
    return TableRow(**{**vars(table), "state": f'{{"v": {value}}}'})


def _action(channel_id: int) -> ActionRow:
    return ActionRow(channel_id, 0, "s1", 1, "{}", 1.0)


async def _commits(store: SqliteStore) -> list[str]:
    """Every COMMIT the connection runs from now on."""
    seen: list[str] = []
    await store._run(
        lambda c: c.set_trace_callback(lambda sql: seen.append(sql) if sql == "COMMIT" else None)
    )
    return seen


async def test_saves_that_arrive_together_share_one_transaction_and_all_land(store):
    tables = await _tables(store)
    commits = await _commits(store)
    await asyncio.gather(*(store.save(_changed(t, 2), 1, actions=[_action(t.channel_id)]) for t in tables))
    # the first save finds the database thread idle and may go alone; the rest wait for it together
    assert 1 <= len(commits) <= 2
    for t in tables:
        stored = await store.get_table(t.channel_id)
        assert (stored.state, stored.version) == ('{"v": 2}', 2)
        assert [a.idx for a in await store.get_actions(t.channel_id)] == [0]


async def test_one_stale_save_among_many_fails_alone(store):
    tables = await _tables(store)
    stale = tables[5]
    results = await asyncio.gather(
        *(
            store.save(_changed(t, 2), 0 if t is stale else 1, actions=[_action(t.channel_id)])
            for t in tables
        ),
        return_exceptions=True,
    )
    assert [type(r) for r in results if isinstance(r, BaseException)] == [StaleWrite]
    assert isinstance(results[5], StaleWrite)
    assert (await store.get_table(stale.channel_id)).state == "{}"
    assert await store.get_actions(stale.channel_id) == []
    for t in tables:
        if t is not stale:
            assert (await store.get_table(t.channel_id)).state == '{"v": 2}'


class BreaksForOneTable(SqliteStore):
    """Fails after one table's row and action are written, before its events."""

    broken: int | None = None

    def _write_events(self, conn, events):
        if any(e.channel_id == self.broken for e in events):
            raise RuntimeError("disk pulled out mid-save")
        super()._write_events(conn, events)


async def test_saves_naming_different_columns_in_one_batch_each_write_their_own(store):
    # a batch updates the rows of each set of named columns with one statement (and checks
    # the versions by the rows it changed): every set must still land, and only its columns
    tables = await _tables(store)
    commits = await _commits(store)

    def save(i: int, t: TableRow):
        if i % 3 == 0:
            return store.save(_changed(t, i), 1, columns=["state"])
        if i % 3 == 1:
            finished = TableRow(**{**vars(_changed(t, i)), "status": "finished", "host_id": 9})
            return store.save(finished, 1, columns=["status", "state"])
        stale = TableRow(**{**vars(_changed(t, i)), "status": "paused"})
        return store.save(stale, 0, columns=["state", "status"])  # stale: read version 0

    results = await asyncio.gather(*(save(i, t) for i, t in enumerate(tables)), return_exceptions=True)
    assert len(commits) >= 2  # the batch was tried whole, then save by save
    for i, (t, result) in enumerate(zip(tables, results, strict=True)):
        stored = await store.get_table(t.channel_id)
        if i % 3 == 2:
            assert isinstance(result, StaleWrite), i
            assert (stored.state, stored.status, stored.version) == ("{}", "running", 1)
        else:
            assert result is not None and not isinstance(result, BaseException), (i, result)
            status = "finished" if i % 3 == 1 else "running"
            assert (stored.state, stored.status, stored.host_id, stored.version) == (
                f'{{"v": {i}}}',
                status,
                1,
                2,
            )


async def test_a_save_that_breaks_midway_among_many_fails_alone_and_leaves_its_table_as_it_was(tmp_path):
    store = await BreaksForOneTable.open(tmp_path / "bot.sqlite3")
    try:
        tables = await _tables(store)
        store.broken = tables[3].channel_id
        results = await asyncio.gather(
            *(
                store.save(
                    _changed(t, 2),
                    1,
                    actions=[_action(t.channel_id)],
                    events=[EventRow(t.channel_id, 0, None, "x", "said", 1.0)],
                )
                for t in tables
            ),
            return_exceptions=True,
        )
        assert [i for i, r in enumerate(results) if isinstance(r, BaseException)] == [3]
        assert str(results[3]) == "disk pulled out mid-save"
        broken = await store.get_table(store.broken)
        assert (broken.state, broken.version) == ("{}", 1)
        assert await store.get_actions(store.broken) == []
        for t in tables:
            if t.channel_id != store.broken:
                assert (await store.get_table(t.channel_id)).version == 2
                assert [e.text for e in await store.get_all_events(t.channel_id)] == ["said"]
    finally:
        await store.close()


async def test_a_caller_cancelled_while_waiting_stops_no_one_else(store):
    tables = await _tables(store)
    saves = [asyncio.ensure_future(store.save(_changed(t, 2), 1)) for t in tables]
    await asyncio.sleep(0)  # every save is queued now
    saves[0].cancel()
    results = await asyncio.gather(*saves, return_exceptions=True)
    assert isinstance(results[0], asyncio.CancelledError)
    assert all(r.version == 2 for r in results[1:])
    # the queue keeps working afterwards
    again = await store.save(_changed(tables[1], 3), 2)
    assert again.version == 3


@pytest.mark.parametrize("count", [1, 3])
async def test_a_closed_store_refuses_saves_with_an_error(tmp_path, count):
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    tables = [
        await store.create_table(TableRow(channel_id=c, game="envoys", host_id=1, state="{}"))
        for c in range(200, 200 + count)
    ]
    await store.close()
    results = await asyncio.gather(*(store.save(_changed(t, 2), 1) for t in tables), return_exceptions=True)
    assert all(isinstance(r, ValueError) for r in results)


@pytest.mark.parametrize("every, copied", [(5, True), (10**9, False)])
async def test_the_log_is_copied_into_the_database_file_in_the_background(
    tmp_path, monkeypatch, every, copied
):
    monkeypatch.setattr(group_commit, "CHECKPOINT_EVERY", every)
    path = tmp_path / "bot.sqlite3"
    store = await SqliteStore.open(path)
    try:
        table = await store.create_table(TableRow(channel_id=5, game="envoys", host_id=1, state="{}"))
        before = path.stat().st_size
        for version in range(1, 7):  # pages of a big state go to the log first
            await store.save(_changed(table, "9" * 20_000), version)
        if store._checkpoints._running is not None:
            await store._checkpoints._running
        assert (path.stat().st_size > before) is copied
    finally:
        await store.close()
    assert (await _reopened_state(path)) == '{"v": ' + "9" * 20_000 + "}"


async def _reopened_state(path):
    store = await SqliteStore.open(path)
    try:
        return (await store.get_table(5)).state
    finally:
        await store.close()


async def test_saves_being_written_when_the_writer_is_stopped_are_cancelled_not_left_waiting(store):
    tables = await _tables(store)
    saves = [asyncio.ensure_future(store.save(_changed(t, 2), 1)) for t in tables]
    await asyncio.sleep(0)  # all queued
    await asyncio.sleep(0)  # the writer has taken them to the database thread
    store._saves._writer.cancel()  # what the loop does to a running task when it shuts down
    results = await asyncio.wait_for(asyncio.gather(*saves, return_exceptions=True), timeout=5)
    assert all(isinstance(r, asyncio.CancelledError) for r in results)
    # the batch itself may or may not have reached the database; the store goes on working
    current = (await store.get_table(tables[0].channel_id)).version
    assert (await store.save(_changed(tables[0], 3), current)).version == current + 1


async def test_saves_queued_for_a_writer_stopped_before_it_began_are_cancelled(store):
    tables = await _tables(store)
    saves = [asyncio.ensure_future(store.save(_changed(t, 2), 1)) for t in tables]
    await asyncio.sleep(0)  # all queued; the writer task is made but has not run yet
    store._saves._writer.cancel()
    results = await asyncio.wait_for(asyncio.gather(*saves, return_exceptions=True), timeout=5)
    assert all(isinstance(r, asyncio.CancelledError) for r in results)
    assert (await store.get_table(tables[0].channel_id)).version == 1  # nothing was written
    again = await store.save(_changed(tables[0], 3), 1)
    assert again.version == 2
