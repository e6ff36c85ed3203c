"""Several bot processes on one PostgreSQL database.

Each `TableService` here stands for one process: its own connection pool, its own cache
and locks, sharing only the database. What must hold: no cache serves a stale table, each
deadline fires once, each outage is noted once per table, and a process serves only the
tables of its shards.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.discord.markup import markup
from bot.service.tables import TableError, TableService
from bot.store import Shards, open_store
from engine.crisis1914 import GAME

from .conftest import ALICE, BOB, CHANNEL, Clock, seated

HOUR = 3600.0
SHARD_1_GUILD = 1 << 22  # (guild_id >> 22) % 2 == 1


async def _owing_user(service: TableService) -> int:
    step, _ = await service.choices(CHANNEL, 1)
    state = GAME.load_state((await service.store.get_table(CHANNEL)).state)
    seat = GAME.prompts(state)[0].seat
    return next(s.user_id for s in await service.store.get_seats(CHANNEL) if s.seat == seat)


async def test_a_table_another_process_changed_is_never_served_from_a_stale_cache(two_processes):
    (a, b), _ = two_processes
    await a.lobby.create(CHANNEL, 9, "crisis1914", 1, "anna")
    await a.lobby.join(CHANNEL, 2, "boris")
    await a.lobby.start(CHANNEL, 1, seed=1914)
    first = await _owing_user(a)
    step, _ = await b.choices(CHANNEL, first)  # b caches the table at this step
    await a.act_choice(CHANNEL, first, step, 0)  # a plays; b's cached copy is now old
    following = await _owing_user(a)
    step_after, choices = await b.choices(CHANNEL, following)
    assert step_after == step + 1 and choices  # b sees a's action, not its cached copy
    await b.act_choice(CHANNEL, following, step_after, 0)  # no "That choice has expired"
    assert len(await b.store.get_actions(CHANNEL)) == 2


async def test_an_action_refused_by_a_stale_cache_is_played_on_the_stored_table(two_processes):
    """A cached table is checked after the action, not before (one read fewer per action):
    a refusal that came from a stale copy is not given; the action runs on fresh rows."""
    (a, b), _ = two_processes
    await seated(a, "alice", "bob")
    await b.status(CHANNEL)  # b caches the table while both still owe their commit
    await a.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    await a.act(CHANNEL, BOB, {"kind": "commit", "value": 2})  # now alice owes press or yield
    out = await b.act(CHANNEL, ALICE, {"kind": "press"})  # b's copy says she owes a commit
    assert out.reply and len(await b.store.get_actions(CHANNEL)) == 3
    with pytest.raises(TableError, match="not the press phase"):
        await b.act(CHANNEL, BOB, {"kind": "press"})  # the stored table's own refusal stands


async def test_a_query_answered_from_a_stale_cache_is_answered_again_from_the_stored_table(two_processes):
    (a, b), _ = two_processes
    await seated(a, "alice", "bob")
    assert "phase_hours: 24" in (await b.settings(CHANNEL, ALICE, {})).reply  # b caches the table
    await a.settings(CHANNEL, ALICE, {"phase_hours": "30"})
    assert "phase_hours: 30" in (await b.settings(CHANNEL, ALICE, {})).reply


async def test_an_action_on_a_current_cached_table_reads_no_version_first(two_processes, monkeypatch):
    (a, _), _ = two_processes
    await seated(a, "alice", "bob")
    await a.status(CHANNEL)
    reads = []
    version = a.store.table_version

    async def counted(channel_id):
        reads.append(channel_id)
        return await version(channel_id)

    monkeypatch.setattr(a.store, "table_version", counted)
    await a.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})  # its save checks the version
    assert reads == []
    with pytest.raises(TableError):
        await a.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})  # a refusal is checked
    assert reads == [CHANNEL]


async def test_a_deadline_fires_once_when_two_processes_tick_together(two_processes):
    (a, b), clock = two_processes
    await seated(a, "alice", "bob")
    clock.advance(24 * HOUR)
    outs_a, outs_b = await asyncio.gather(a.deadlines.tick(), b.deadlines.tick())
    fired = [p for o in outs_a + outs_b for p in o.posts if markup(p.text).startswith("Time is up")]
    assert len(fired) == 1
    assert [(x.seat, x.user_id) for x in await a.store.get_actions(CHANNEL)] == [("s1", None), ("s2", None)]


async def test_an_outage_is_noted_once_per_table_when_two_processes_recover_together(two_processes):
    (a, b), clock = two_processes
    await seated(a, "alice", "bob")
    await a.deadlines.heartbeat()
    due = min(d.due_at for d in await a.store.get_deadlines(CHANNEL))
    clock.advance(2 * HOUR)
    outs_a, outs_b = await asyncio.gather(a.deadlines.recover(), b.deadlines.recover())
    assert len(outs_a + outs_b) == 1
    assert min(d.due_at for d in await a.store.get_deadlines(CHANNEL)) == due + 2 * HOUR


async def test_each_process_serves_the_deadlines_of_its_own_shards(postgres_server):
    url = postgres_server.new_database()
    clock = Clock()
    first, second = await open_store(url), await open_store(url)
    try:
        shard0 = TableService(first, clock=clock, shards=Shards(2, (0,)))
        shard1 = TableService(second, clock=clock, shards=Shards(2, (1,)))
        await seated(shard0, "alice", "bob")  # guild 9: shard 0
        await shard1.lobby.create(CHANNEL + 1, SHARD_1_GUILD, "envoys", ALICE, "alice")
        await shard1.lobby.join(CHANNEL + 1, BOB, "bob")
        await shard1.lobby.start(CHANNEL + 1, ALICE, seed=3)
        clock.advance(24 * HOUR)
        assert [o.channel_id for o in await shard0.deadlines.tick()] == [CHANNEL]
        assert [o.channel_id for o in await shard1.deadlines.tick()] == [CHANNEL + 1]
        assert await shard0.deadlines.tick() == [] and await shard1.deadlines.tick() == []
    finally:
        await first.close()
        await second.close()


def test_shards_follow_discords_formula_and_refuse_impossible_ids():
    assert Shards(4, (1,)).owns(5 << 22) and not Shards(4, (1,)).owns(6 << 22)
    assert Shards(2, (0,)).owns(None) and not Shards(2, (1,)).owns(None)  # a console table: shard 0
    assert Shards().everything and Shards().key == "" and Shards(2, (1, 0)).key == ""
    assert Shards(4, (3, 1)).key == "4:1,3"
    with pytest.raises(ValueError, match="between 0 and 1"):
        Shards(2, (2,))


async def test_a_full_cache_evicting_a_table_while_its_version_is_checked_loses_nothing(postgres_server):
    """With more tables acting than the cache holds, a table may be evicted while its
    cached version is being checked against the database (bench/scale.py found a KeyError)."""
    store = await open_store(postgres_server.new_database())
    service = TableService(store, clock=Clock(), cache_size=2)
    channels = range(100, 106)
    for channel in channels:
        await service.lobby.create(channel, 9, "crisis1914", 1, "anna")
        await service.lobby.join(channel, 2, "boris")
        await service.lobby.start(channel, 1, seed=channel)
    for _ in range(4):
        answers = await asyncio.gather(*(service.choices(c, 1) for c in channels))
        assert len(answers) == len(channels)
    assert len(service.access.cache) <= 2
    await store.close()
