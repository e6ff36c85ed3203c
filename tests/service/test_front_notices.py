"""The turn notice each member's DMs hold live for a table is kept in the front end's rows
(bot/store/front_rows.py `LiveNotice`, migration 0009), on both backends, never as a new
version of the table: a restarted bot reads it back to edit or replace it
(bot/discord/private.py)."""

from __future__ import annotations

from dataclasses import replace

from bot.service.tables import TableService
from bot.store.front_rows import LiveNotice

from .conftest import ALICE, BOB, CHANNEL, seated

ASKING = LiveNotice(CHANNEL, BOB, dm_id=900, message_id=901, text="**Envoys**: Commit 1, 2 or 3.", seat="s2")


async def test_a_sent_notice_is_kept_read_back_and_marked_decided(service, store, clock):
    await seated(service, "alice", "bob")
    version = await store.table_version(CHANNEL)
    front = service.posts.front
    await front.keep_notice(ASKING)
    await front.keep_notice(replace(ASKING, user_id=ALICE, dm_id=800, message_id=801, seat="s1"))
    again = TableService(store, clock=clock).posts.front  # a restarted bot
    assert [n.user_id for n in await again.notices(CHANNEL)] == [ALICE, BOB]
    assert (await again.notices(CHANNEL))[1] == ASKING
    await again.notice_decided(ASKING)
    assert (await front.notices(CHANNEL))[1] == replace(ASKING, decided=True)
    assert await front.notices(CHANNEL + 1) == []
    assert await store.table_version(CHANNEL) == version


async def test_the_next_notice_takes_the_last_one_s_place(service, store):
    await seated(service, "alice", "bob")
    front = service.posts.front
    await front.keep_notice(replace(ASKING, decided=True))
    newer = replace(ASKING, message_id=902, text="**Envoys**: Negotiate, then say ready.")
    await front.keep_notice(newer)
    assert await front.notices(CHANNEL) == [newer]  # one per member per table, not decided
    # what is done to the last one (that message) leaves the newer one alone
    await front.notice_decided(ASKING)
    await front.notice_gone(ASKING)
    assert await front.notices(CHANNEL) == [newer]
    await front.notice_gone(newer)
    assert await front.notices(CHANNEL) == []
