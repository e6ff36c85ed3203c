"""The PostgreSQL store's grouped saves and reads (bot/store/postgres_saves.py,
postgres_reads.py): saves arriving together go in one statement, each still version-checked
and atomic with its outbox row; a save the database refuses fails only its own caller;
lookups arriving together are one query, each answered with its own rows."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import (
    ActionRow,
    DeadlineRow,
    EventRow,
    NotifyPrefs,
    OutboxRow,
    StaleWrite,
    StoreError,
    TableRow,
)
from bot.store.postgres import SAVE_LANES, PostgresStore


@pytest.fixture
async def pg(postgres_server):
    store = await PostgresStore.open(postgres_server.new_database())
    yield store
    await store.close()


async def _tables(store: PostgresStore, *channels: int) -> list[TableRow]:
    return [
        await store.create_table(TableRow(channel_id=c, game="envoys", host_id=1, status="running", state="{}"))
        for c in channels
    ]


def _changed(t: TableRow, state: str) -> TableRow:
    return TableRow(**{**vars(t), "state": state})


def _outbox(channel: int, row_id: int) -> OutboxRow:
    return OutboxRow(row_id, channel, 1.0, '{"posts":[]}', 0, 2.0)


@pytest.fixture
def sent(monkeypatch) -> list[str]:
    """Every query the stores fetch rows with from now on, recorded."""
    queries: list[str] = []
    original = asyncpg.connection.Connection.fetch

    async def fetch(self, query, *args, **kwargs):
        queries.append(query)
        return await original(self, query, *args, **kwargs)

    monkeypatch.setattr(asyncpg.connection.Connection, "fetch", fetch)
    return queries


async def test_saves_arriving_together_go_in_one_statement_and_a_stale_one_changes_nothing(pg, sent):
    one, two, three = (k * SAVE_LANES for k in (1, 2, 3))  # tables whose saves go in the same batches
    a, b, c = await _tables(pg, one, two, three)
    await pg.save(_changed(b, '{"b": 1}'), 1)  # b is at version 2 now: a save from version 1 is stale
    sent.clear()
    results = await asyncio.gather(
        pg.save(_changed(a, '{"a": 2}'), 1, actions=[ActionRow(one, 0, "s1", 1, "{}", 1.0)], outbox=[_outbox(one, 11)]),
        pg.save(_changed(b, '{"b": 2}'), 1, actions=[ActionRow(two, 0, "s1", 1, "{}", 1.0)], outbox=[_outbox(two, 12)]),
        pg.save(_changed(c, '{"c": 2}'), 1, events=[EventRow(three, 0, None, "x", "seen", 1.0)]),
        return_exceptions=True,
    )
    assert [type(r) for r in results] == [TableRow, StaleWrite, TableRow]
    assert 1 <= len([q for q in sent if "unnest" in q]) <= 2  # the first alone, the two behind it together
    assert ((await pg.get_table(one)).state, (await pg.get_table(one)).version) == ('{"a": 2}', 2)
    assert ((await pg.get_table(two)).state, (await pg.get_table(two)).version) == ('{"b": 1}', 2)
    assert [x.idx for x in await pg.get_actions(one)] == [0]
    assert await pg.get_actions(two) == []  # the stale save wrote neither its action…
    assert [o.channel_id for o in await pg.claim_outbox(10.0, 1.0, everything=True)] == [one]  # …nor its outbox row
    assert [e.text for e in await pg.get_all_events(three)] == ["seen"]


async def test_a_save_the_database_refuses_fails_alone_and_its_outbox_row_is_not_kept(pg):
    a, b = await _tables(pg, 1, 2)
    await pg.save(_changed(a, '{"a": 1}'), 1, actions=[ActionRow(1, 0, "s1", 1, "{}", 1.0)])
    results = await asyncio.gather(
        # action 0 of table 1 is stored already: the database refuses this save
        pg.save(_changed(a, '{"a": 2}'), 2, actions=[ActionRow(1, 0, "s1", 1, "{}", 2.0)], outbox=[_outbox(1, 21)]),
        pg.save(_changed(b, '{"b": 2}'), 1, actions=[ActionRow(2, 0, "s1", 1, "{}", 2.0)], outbox=[_outbox(2, 22)]),
        return_exceptions=True,
    )
    assert isinstance(results[0], StoreError) and not isinstance(results[0], StaleWrite)
    assert isinstance(results[1], TableRow)
    assert ((await pg.get_table(1)).state, (await pg.get_table(1)).version) == ('{"a": 1}', 2)
    assert ((await pg.get_table(2)).state, (await pg.get_table(2)).version) == ('{"b": 2}', 2)
    assert [o.id for o in await pg.claim_outbox(10.0, 1.0, everything=True)] == [22]


async def test_two_saves_of_one_table_in_a_batch_are_written_in_order(pg):
    (a,) = await _tables(pg, 1)
    first = pg.save(_changed(a, '{"v": 2}'), 1, actions=[ActionRow(1, 0, "s1", 1, "{}", 1.0)])
    second = pg.save(_changed(a, '{"v": 3}'), 2, actions=[ActionRow(1, 1, "s1", 1, "{}", 2.0)])
    await asyncio.gather(first, second)
    stored = await pg.get_table(1)
    assert (stored.state, stored.version) == ('{"v": 3}', 3)
    assert [x.idx for x in await pg.get_actions(1)] == [0, 1]


async def test_deadlines_replaced_in_a_batch_keep_each_tables_own(pg):
    a, b = await _tables(pg, 1, 2)
    await asyncio.gather(
        pg.save(a, 1, deadlines=[DeadlineRow(1, "p1", 0.0, 10.0), DeadlineRow(1, "p2", 0.0, 20.0)]),
        pg.save(b, 1, deadlines=[DeadlineRow(2, "p1", 0.0, 30.0)]),
    )
    await asyncio.gather(
        pg.save(a, 2, deadlines=[DeadlineRow(1, "p2", 0.0, 25.0, [5.0])]),  # p1 closed, p2 moved
        pg.save(b, 2),  # deadlines not named: kept
    )
    assert [(d.phase, d.due_at, d.reminders) for d in await pg.get_deadlines(1)] == [("p2", 25.0, [5.0])]
    assert [(d.phase, d.due_at) for d in await pg.get_deadlines(2)] == [("p1", 30.0)]


async def test_a_save_naming_its_columns_leaves_the_others_in_a_batch(pg):
    a, b = await _tables(pg, 1, 2)
    await asyncio.gather(
        pg.save(TableRow(**{**vars(a), "state": '{"a": 2}', "host_id": 99}), 1, columns=["state"]),
        pg.save(TableRow(**{**vars(b), "status": "paused", "host_id": 77}), 1),
    )
    one, two = await pg.get_table(1), await pg.get_table(2)
    assert (one.state, one.host_id, one.status) == ('{"a": 2}', 1, "running")
    assert (two.state, two.host_id, two.status) == ("{}", 77, "paused")


async def test_lookups_arriving_together_are_one_query_each_answered_with_its_own_rows(pg, sent):
    await _tables(pg, 1, 2, 3)
    await pg.save((await pg.get_table(2)), 1, deadlines=[DeadlineRow(2, "p", 0.0, 5.0)])
    sent.clear()
    tables = await asyncio.gather(*(pg.get_table(c) for c in (1, 2, 3, 4, 2)))
    deadlines = await asyncio.gather(*(pg.get_deadlines(c) for c in (1, 2, 3)))
    assert [t.channel_id if t else None for t in tables] == [1, 2, 3, None, 2]
    assert [[d.phase for d in ds] for ds in deadlines] == [[], ["p"], []]
    assert 1 <= len([q for q in sent if "FROM tables" in q]) <= 2  # the first alone, the rest together
    # a lookup asked after a save sees it
    await pg.save(_changed(tables[0], '{"x": 1}'), 1)
    assert (await pg.get_table(1)).state == '{"x": 1}'


async def test_members_preferences_looked_up_together_are_each_their_own(pg, sent):
    await pg.set_notify(NotifyPrefs(1, "mention", "Europe/Vienna", "22-07"), 1.0)
    await pg.set_notify(NotifyPrefs(2, "dm", "UTC", None, "08:00", 50.0), 1.0)
    sent.clear()
    found = await asyncio.gather(*(pg.get_notify(u) for u in (1, 2, 3)))
    assert found == [
        NotifyPrefs(1, "mention", "Europe/Vienna", "22-07"),
        NotifyPrefs(2, "dm", "UTC", None, "08:00", 50.0),
        NotifyPrefs(3),  # never set: the defaults
    ]
    assert 1 <= len([q for q in sent if "FROM notify_prefs" in q]) <= 2


async def test_two_processes_saving_the_same_tables_at_once_in_batches_store_exactly_one_save_each(
    postgres_server,
):
    """Two processes' batches over the same tables, in opposite orders: of two saves from
    the same version exactly one is stored and the other is told it is stale; no batch
    fails (the rows are locked in channel order, so neither waits for the other in a cycle)."""
    url = postgres_server.new_database()
    first, second = await PostgresStore.open(url), await PostgresStore.open(url)
    try:
        channels = [k * SAVE_LANES for k in range(1, 31)]  # one lane: each process's saves in one batch
        tables = await _tables(first, *channels)
        for version in (1, 2, 3):
            results = await asyncio.gather(
                *(first.save(_changed(t, f'{{"first": {version}}}'), version) for t in tables),
                *(second.save(_changed(t, f'{{"second": {version}}}'), version) for t in reversed(tables)),
                return_exceptions=True,
            )
            mine, theirs = results[: len(tables)], results[len(tables) :][::-1]
            for a, b in zip(mine, theirs, strict=True):
                assert {type(a), type(b)} == {TableRow, StaleWrite}, (a, b)
            assert {(await first.get_table(c)).version for c in channels} == {version + 1}
    finally:
        await first.close()
        await second.close()
