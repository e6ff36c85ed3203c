"""The outbox rows on both databases (bot/service/deliveries.py, docs/reliability.md): stored
with the save that asked for them and never without it, claimed one channel at a time
in order, leased so no other delivery takes them, kept over a failure with a growing
wait, and deleted once said; turn notices kept and dropped."""

from __future__ import annotations

import pytest

from bot.service.deliveries import retry_wait
from bot.service.outbox import LEASE, Outbox, Post, outbox_row
from bot.service.tables import TableService
from bot.store import NoticeRow, StaleWrite, TableRow


async def make_table(store, channel_id: int) -> None:
    await store.create_table(TableRow(channel_id=channel_id, game="envoys", host_id=1, status="lobby"))


async def _saved_with(store, channel_id: int, text: str, clock, service: TableService) -> Outbox:
    """A save of the table in `channel_id` that asks for one public line."""
    t = await service.access.load(channel_id)
    out = Outbox(channel_id, posts=[Post(to="channel", kind="notice", text=text)])
    await service.access.save(t, outbox=out)
    return out


async def test_a_save_stores_its_posts_with_it_and_a_stale_save_stores_none(store, clock, service):
    await make_table(store, 11)
    out = await _saved_with(store, 11, "first", clock, service)
    assert len(out.kept_ids) == 1 and out.unkept() is None  # stored, nothing left to store

    row = await store.get_table(11)
    late = Outbox(11, posts=[Post(to="channel", text="from a writer that lost the race")])
    with pytest.raises(StaleWrite):
        await store.save(row, row.version - 1, outbox=[outbox_row(late, clock())])
    count, _, channels, _ = await store.outbox_waiting()
    assert (count, channels) == (1, {11})


async def test_rows_are_claimed_per_channel_in_order_leased_retried_and_deleted(store, clock, service):
    await make_table(store, 21)
    await make_table(store, 22)
    for text in ("a", "b", "c"):
        await _saved_with(store, 21, text, clock, service)
    await _saved_with(store, 22, "other", clock, service)

    assert await service.deliveries.due() == []  # leased to the process saving them
    clock.advance(LEASE + 1)  # that process died: the lease ran out
    due = {d.channel_id: d for d in await service.deliveries.due()}
    assert set(due) == {21, 22}
    texts = [p.text for _, out in due[21].parts for p in out.posts]
    assert texts == ["a", "b", "c"] and len(due[21].parts) == 1  # in order, folded
    assert await service.deliveries.due() == []  # claimed: nobody else takes them meanwhile

    wait = await service.deliveries.failed(due[21].ids, 1, retry_after=90.0)
    assert wait == 90.0 > retry_wait(1)  # a rate limit's wait wins over the first step's
    await service.deliveries.done(due[22].ids)
    clock.advance(LEASE + 1)  # channel 22's were said; channel 21's wait 90 s, already over
    again = await service.deliveries.due()
    assert [d.channel_id for d in again] == [21] and again[0].attempts == 1
    await service.deliveries.done(again[0].ids)
    count, _, _, _ = await store.outbox_waiting()
    assert count == 0


async def test_a_channel_is_not_said_while_one_of_its_rows_waits(store, clock, service):
    await make_table(store, 31)
    first = await _saved_with(store, 31, "older", clock, service)
    await service.deliveries.failed(first.kept_ids, 3)  # waits retry_wait(3) seconds
    later = await _saved_with(store, 31, "newer", clock, service)
    await service.deliveries.release(later.kept_ids)  # due now, but behind the older one
    assert await service.deliveries.due() == []
    clock.advance(retry_wait(3) + 1)
    (waiting,) = await service.deliveries.due()
    assert [p.text for _, out in waiting.parts for p in out.posts] == ["older", "newer"]


async def test_turn_notices_are_kept_with_the_delivery_and_dropped(store, clock, service):
    await make_table(store, 41)
    out = await _saved_with(store, 41, "x", clock, service)
    notice = NoticeRow(41, 7, clock() + 60, '{"texts": ["Your turn."], "mention": null, "fallback": null}')
    await service.deliveries.done(out.kept_ids, [notice])
    assert await service.deliveries.notices() == [notice]
    await service.deliveries.drop_notices([(41, 7)])
    assert await service.deliveries.notices() == []
    count, _, _, _ = await store.outbox_waiting()
    assert count == 0


async def test_a_forgotten_member_s_waiting_turn_notices_are_deleted(store, clock, service):
    await make_table(store, 51)
    out = await _saved_with(store, 51, "x", clock, service)
    body = '{"texts": ["Your turn: your Hand holds Conrad."], "mention": null, "fallback": null}'
    await service.deliveries.done(out.kept_ids, [NoticeRow(51, 7, clock() + 60, body), NoticeRow(51, 8, clock(), body)])
    await store.community.forget_member(7, "a former member")
    assert [(n.channel_id, n.user_id) for n in await service.deliveries.notices()] == [(51, 8)]
