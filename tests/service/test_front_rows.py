"""What Discord answered (the status message, the phase thread, where the round summary
starts) is kept in the front end's own rows, on both backends, never as a new version of
the table (bot/service/front_rows.py, bot/store/front_rows.py)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.render.summary import Part
from bot.service.community import FORMER_MEMBER
from bot.service.front_rows import SUMMARY
from bot.service.tables import TableService

from .conftest import CHANNEL, seated


async def test_what_discord_answered_is_kept_with_no_new_version_of_the_table(service, store, clock):
    await seated(service, "alice", "bob")
    version = await store.table_version(CHANNEL)
    await service.set_status_message(CHANNEL, 555)
    await service.set_thread(CHANNEL, 777)
    await service.posts.summary_moved(CHANNEL, 556, Part(since=2, heading="**Week 1**", name="Week 1"))
    assert await store.table_version(CHANNEL) == version
    info = await service.table_info(CHANNEL)
    assert (info.thread_id, info.status_message_id) == (777, 556)
    # a restarted bot reads them back: its summary goes on in that message from there
    again = TableService(store, clock=clock)
    info = await again.table_info(CHANNEL)
    assert (info.thread_id, info.status_message_id) == (777, 556)
    summary = await again.posts.round_summary(CHANNEL)
    assert summary is not None and summary.held_by == 556 and summary.parts[0].heading == "**Week 1**"
    await again.set_thread(CHANNEL, None)  # archived: only the thread changes
    info = await service.table_info(CHANNEL)
    assert (info.thread_id, info.status_message_id) == (None, 556)
    assert await store.table_version(CHANNEL) == version


async def test_a_table_kept_by_an_older_bot_is_read_from_its_row_and_meta(service, store):
    """An older bot kept these in the table row and its meta: read from there, and carried
    whole into the front end's row at its first keep."""
    await seated(service, "alice", "bob")
    t = await service.access.load(CHANNEL)
    older = {"since": 1, "heading": "*Week 1, continued*", "name": "Week 1", "message": 43}
    row = replace(t.row, thread_id=42, status_message_id=43, meta={**t.row.meta, SUMMARY: older})
    await service.access.save(t, row=row)
    info = await service.table_info(CHANNEL)
    assert (info.thread_id, info.status_message_id) == (42, 43)
    assert (await service.posts.round_summary(CHANNEL)).held_by == 43
    await service.set_thread(CHANNEL, None)
    stored = await store.get_front(CHANNEL)
    assert (stored.thread_id, stored.status_message_id, stored.summary) == (None, 43, older)
    assert (await service.table_info(CHANNEL)).thread_id is None


async def test_a_summary_kept_in_the_lobby_gives_way_to_the_one_the_start_sets(service, store):
    await seated(service, "alice", "bob", start=False)
    await service.posts.front.keep(CHANNEL, summary={"since": 0, "message": 9}, status_message_id=9)
    await service.lobby.start(CHANNEL, 1, seed=7)
    summary = await service.posts.round_summary(CHANNEL)
    assert summary is not None and summary.held_by is None  # the start's: no message holds it yet
    assert "begins" in summary.parts[0].heading
    assert (await service.table_info(CHANNEL)).status_message_id == 9  # the lobby's, to give way


async def test_the_channels_next_table_starts_with_nothing_of_the_last_ones(service, store):
    await seated(service, "alice", "bob")
    await service.set_thread(CHANNEL, 777)
    await service.posts.summary_moved(CHANNEL, 556, Part(since=0))
    await service.abandon(CHANNEL, 1)
    assert (await service.table_info(CHANNEL)).status_message_id == 556  # the abandoned card edits it
    await service.lobby.create(CHANNEL, 9, "envoys", 1, "alice")
    assert await store.get_front(CHANNEL) is None
    info = await service.table_info(CHANNEL)
    assert (info.thread_id, info.status_message_id) == (None, None)


async def test_forgetting_a_member_takes_their_name_out_of_the_summary_kept(service, store):
    await seated(service, "alice", "bob")
    await service.posts.summary_moved(CHANNEL, 556, Part(since=0, heading="alice and bob sit down"))
    await service.community.forget(1, confirm="me")
    heading = (await store.get_front(CHANNEL)).summary["heading"]
    assert "alice" not in heading and FORMER_MEMBER in heading and "bob" in heading


async def test_two_processes_keeping_at_once_keep_what_each_was_answered(two_processes, monkeypatch):
    """Two bot processes on one PostgreSQL database, each keeping one thing of the same
    table at the same moment, the table's row not there yet: neither undoes the other."""
    (first, second), _ = two_processes
    await seated(first, "alice", "bob")
    version = await first.store.table_version(CHANNEL)
    both_read = asyncio.Event()  # each process writes only once both found no row
    reads = []

    def held(store):
        real = store.get_front

        async def get_front(channel_id):
            row = await real(channel_id)
            reads.append(row)
            if len(reads) >= 2:
                both_read.set()
            await asyncio.wait_for(both_read.wait(), 5)
            return row

        monkeypatch.setattr(store, "get_front", get_front)

    held(first.store)
    held(second.store)
    await asyncio.gather(first.set_status_message(CHANNEL, 555), second.set_thread(CHANNEL, 777))
    assert reads == [None, None]
    for service in (first, second):
        info = await service.table_info(CHANNEL)
        assert (info.thread_id, info.status_message_id) == (777, 555)
    assert await first.store.table_version(CHANNEL) == version
