"""The daily digest at service level, on both stores: `/game notify digest:`, the one DM a
day across a member's tables, the turn notices it holds back, restarts, and forgetting."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.discord.markup import markup
from bot.service import digest as digest_module
from bot.service.digest import next_digest
from bot.service.scheduler import Scheduler
from bot.service.tables import TableError, TableService
from bot.store import NotifyPrefs

from .conftest import ALICE, BOB, CHANNEL, seated

HOUR = 3600.0
DAY = 24 * HOUR
OTHER = CHANNEL + 1
# the conftest clock starts at 1_800_000_000: Friday 15 January 2027, 08:00 UTC


def digests_to(outs, user_id):
    return [p for out in outs for p in out.posts if p.kind == "digest" and p.user_id == user_id]


def notified(outs, kind):
    """Who a turn notice or reminder reaches: by DM, or by a mention in the channel."""
    return {p.user_id for out in outs for p in out.posts if p.kind == kind and (p.dm or p.to == "channel")}


async def test_a_bad_digest_time_is_refused_in_words(service):
    for bad in ("8am", "25:00", "08:75", "0800"):
        with pytest.raises(TableError, match=r"Give the digest time as HH:MM, e\.g\. 08:00"):
            await service.notifications.set_notify(BOB, digest=bad)
    assert (await service.store.get_notify(BOB)).digest is None


async def test_the_digest_is_confirmed_in_words_and_turned_off(service, clock):
    said = await service.notifications.set_notify(BOB, timezone="Europe/Vienna", digest="8:00")
    assert (
        "Your digest comes daily at 08:00 Europe/Vienna; turn notices now come only for decisions "
        "due before the next digest." in said
    )
    prefs = await service.store.get_notify(BOB)
    assert prefs.digest == "08:00"
    assert prefs.digest_due == clock.now + DAY - HOUR  # 08:00 in Vienna is 07:00 UTC, tomorrow
    said = await service.notifications.set_notify(BOB, digest="off")
    assert "The daily digest is off" in said and "Your digest comes" not in said
    prefs = await service.store.get_notify(BOB)
    assert prefs.digest is None and prefs.digest_due is None
    assert await service.store.due_digests(clock.now + 2 * DAY) == []


async def test_a_digest_in_quiet_hours_comes_when_they_end(service):
    said = await service.notifications.set_notify(BOB, quiet_hours="22-07", digest="06:00")
    assert "06:00 falls in your quiet hours (22-07), so your digest comes when they end, at 07:00." in said
    assert (await service.store.get_notify(BOB)).digest == "07:00"
    # quiet hours set later that cover the digest move it too
    said = await service.notifications.set_notify(BOB, quiet_hours="06-09")
    assert "07:00 falls in your quiet hours (06-09)" in said
    assert (await service.store.get_notify(BOB)).digest == "09:00"


async def test_turn_notices_due_after_the_next_digest_wait_for_it(service):
    # the digest at 20:00 UTC today comes before the deadline (tomorrow 08:00): bob's notice waits
    await service.notifications.set_notify(BOB, digest="20:00")
    await seated(service, "alice", "bob", start=False)
    out = await service.lobby.start(CHANNEL, ALICE, seed=7)
    assert notified([out], "prompt") == {ALICE}
    # bob's line is still his, where he looks (his own answer, /game me), but no DM or mention
    (held,) = [p for p in out.posts if p.kind == "prompt" and p.user_id == BOB]
    assert held.to == "seat" and not held.dm and held.public is None


async def test_turn_notices_due_before_the_next_digest_still_come(service):
    await service.notifications.set_notify(BOB, digest="20:00")
    await seated(service, "alice", "bob", start=False)
    await service.settings(CHANNEL, ALICE, {"phase_hours": "2"})  # due 10:00, before the digest
    out = await service.lobby.start(CHANNEL, ALICE, seed=7)
    assert notified([out], "prompt") == {ALICE, BOB}


async def test_reminders_for_decisions_due_after_the_digest_wait_for_it(service, clock):
    await service.notifications.set_notify(BOB, digest="21:00")
    await seated(service, "alice", "bob")  # due tomorrow 08:00; reminders at 20:00 and 07:00
    clock.advance(12 * HOUR)  # 20:00: the deadline comes after the 21:00 digest
    outs = await service.deadlines.tick()
    assert notified(outs, "reminder") == {ALICE}
    clock.advance(11 * HOUR)  # 07:00 next day: now the deadline (08:00) comes before the digest
    outs = await service.deadlines.tick()
    assert notified(outs, "reminder") == {ALICE, BOB}


async def test_one_digest_a_day_across_every_table(service, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")
    await service.lobby.create(OTHER, 9, "envoys", BOB, "bob")
    await service.lobby.join(OTHER, ALICE, "alice")
    await service.lobby.start(OTHER, BOB, seed=3)
    assert await service.digest.next_due() == clock.now + HOUR
    assert await service.digest.tick() == []  # not yet
    clock.advance(HOUR)
    outs = await service.digest.tick()
    (post,) = digests_to(outs, BOB)
    assert digests_to(outs, ALICE) == []  # alice asked for none
    assert post.to == "seat" and post.dm and f"<@{BOB}>" in markup(post.public or "")
    text = markup(post.text)
    assert text.startswith("**Your daily digest** (09:00 UTC), 2 tables:")
    for channel in (CHANNEL, OTHER):
        assert f"**Envoys (test game)** in <#{channel}> (https://discord.com/channels/9/{channel}), as s" in text
    assert text.count("- You owe commit, due Saturday 16 January, 08:00.") == 2
    assert "Turn notices now come only for decisions due before your next digest, Saturday 16 January, 09:00." in text
    assert await service.digest.tick() == []  # said once
    stored = await service.store.get_notify(BOB)
    assert stored.digest_sent == clock.now and stored.digest_due == clock.now + DAY
    clock.advance(DAY)
    assert len(digests_to(await service.digest.tick(), BOB)) == 1  # the next day's


async def test_the_digest_tells_what_happened_since_the_members_last_move(service, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    await service.command(CHANNEL, ALICE, "commit", {"value": "3"})
    clock.advance(HOUR)
    (post,) = digests_to(await service.digest.tick(), BOB)
    text = markup(post.text)
    assert "- Since your last move here:" in text
    assert "s1 has committed." in text
    assert "You committed 2." not in text  # bob's own move is not news to him
    assert "You committed 3." not in text  # alice's secret line is hers alone
    log = await service.history.log(CHANNEL)
    assert "s1 has committed." in log  # the line shown is the public log's


async def test_a_long_log_is_cut_to_the_newest_lines(service, clock, monkeypatch):
    monkeypatch.setattr(digest_module, "SHOWN", 1)
    await service.notifications.set_notify(ALICE, digest="09:00")
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "3"})
    await service.command(CHANNEL, BOB, "commit", {"value": "1"})  # bob's line, then the reveal
    clock.advance(HOUR)
    (post,) = digests_to(await service.digest.tick(), ALICE)
    since = markup(post.text).split("- Since your last move here:\n")[1].split("\n\n")[0].splitlines()
    assert since[0].startswith("  … and ") and since[0].endswith(" earlier (`/game log` in the channel shows them)")
    assert len(since) == 2  # the count, then the one newest line
    assert "s2 has committed." not in since[1]  # older than the newest line


async def test_no_digest_without_a_running_table_but_the_day_counts(service, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob", start=False)  # a lobby only
    clock.advance(HOUR)
    assert await service.digest.tick() == []
    assert (await service.store.get_notify(BOB)).digest_due == clock.now + DAY


async def test_a_restart_neither_repeats_nor_skips_the_days_digest(service, store, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")
    clock.advance(HOUR)
    assert len(digests_to(await service.digest.tick(), BOB)) == 1
    restarted = TableService(store, clock=clock)
    assert await restarted.digest.tick() == []  # the day's digest went before the restart
    # down over the next digest time: sent once when back, and the next at its time
    clock.advance(DAY + 5 * HOUR)
    again = TableService(store, clock=clock)
    assert len(digests_to(await again.digest.tick(), BOB)) == 1
    assert await again.digest.tick() == []
    assert await again.digest.next_due() == clock.now - 5 * HOUR + DAY


async def test_a_digest_is_kept_as_an_outbox_row_until_it_is_said(service, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")
    for waiting in await service.deliveries.due(everything=True):  # the start's posts, said
        await service.deliveries.done(waiting.ids)
    clock.advance(HOUR)
    (out,) = await service.digest.tick()
    assert out.kept_ids  # stored with the claim: a process that dies now says it at its start
    waiting = await service.deliveries.due(everything=True)
    kept = [p for w in waiting for _, o in w.parts for p in o.posts if p.kind == "digest"]
    assert [p.text for p in kept] == [p.text for p in out.posts]
    await service.deliveries.done(out.kept_ids)
    assert await service.deliveries.due(everything=True) == []


async def test_two_claims_of_one_digest_send_it_once(service, store, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")
    clock.advance(HOUR)
    other = TableService(store, clock=clock)
    both = await asyncio.gather(service.digest.tick(), other.digest.tick())
    assert len(digests_to([o for outs in both for o in outs], BOB)) == 1


async def test_forgetting_a_member_erases_their_digest(service, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")
    clock.advance(HOUR)
    await service.digest.tick()
    await service.community.forget(BOB, confirm="me")
    prefs = await service.store.get_notify(BOB)
    assert (prefs.digest, prefs.digest_due, prefs.digest_sent) == (None, None, None)
    assert await service.store.due_digests(clock.now + 2 * DAY) == []
    assert service.notifications.prefs_of(BOB).digest is None


async def test_the_digest_names_pacts_that_end_with_the_week_in_play(service, clock):
    carol = 3
    await service.notifications.set_notify(BOB, digest="09:00")
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.join(CHANNEL, carol, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=5)
    for text, until, party in (("Quiet on the Danube", "Week 1", BOB), ("No fleet in the Aegean", "Week 2", BOB),
                               ("Not bob's", "Week 1", carol)):
        await service.diplomacy.pact(CHANNEL, ALICE, text=text, parties=[(party, "x")], until=until)
    for n, party in ((1, BOB), (2, BOB), (3, carol)):
        await service.diplomacy.pact(CHANNEL, party, confirm=n)
    clock.advance(HOUR)
    (post,) = digests_to(await service.digest.tick(), BOB)
    text = markup(post.text)
    assert "“Quiet on the Danube”, expires at the end of Week 1, the Week now in play." in text
    assert "Your pact with alice" in text
    assert "No fleet in the Aegean" not in text  # ends later
    assert "Not bob's" not in text  # not his


async def test_mydata_lists_the_digest_and_its_bookkeeping(service, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")
    clock.advance(HOUR)
    await service.digest.tick()
    prefs = (await service.community.mydata(BOB))["notification_preferences"]
    assert (prefs["digest"], prefs["digest_sent"], prefs["digest_due"]) == ("09:00", clock.now, clock.now + DAY)


def test_the_digest_keeps_its_local_time_across_a_change_of_summer_time():
    vienna = NotifyPrefs(BOB, timezone="Europe/Vienna", digest="08:00")
    saturday = datetime(2027, 3, 27, 12, 0, tzinfo=UTC).timestamp()  # summer time begins on Sunday 28 March
    sunday = next_digest(vienna, saturday)
    assert sunday == datetime(2027, 3, 28, 6, 0, tzinfo=UTC).timestamp()  # 08:00 CEST
    assert next_digest(vienna, sunday) == sunday + 24 * HOUR
    assert next_digest(vienna, saturday - 24 * HOUR) == datetime(2027, 3, 27, 7, 0, tzinfo=UTC).timestamp()  # CET
    assert next_digest(NotifyPrefs(BOB), saturday) is None  # no digest


async def test_the_deadline_loop_sends_the_digest_and_sleeps_until_what_comes_next(service, clock):
    scheduler = Scheduler(service, max_sleep=10 * DAY)
    said = []

    async def deliver(out):
        said.append(out)

    await service.notifications.set_notify(BOB, digest="09:00")
    await seated(service, "alice", "bob")  # due tomorrow 08:00, the first reminder at 20:00
    assert await scheduler.run_once(deliver) == pytest.approx(HOUR)  # the digest comes first
    assert said == []
    clock.advance(HOUR)
    assert await scheduler.run_once(deliver) == pytest.approx(11 * HOUR)  # then the reminder
    assert len(digests_to(said, BOB)) == 1


async def test_a_new_time_zone_or_time_moves_the_next_digest_but_never_twice_in_half_a_day(service, clock):
    await service.notifications.set_notify(BOB, digest="09:00")
    assert (await service.store.get_notify(BOB)).digest_due == clock.now + HOUR  # 09:00 UTC today
    await service.notifications.set_notify(BOB, timezone="Asia/Tokyo")
    assert (await service.store.get_notify(BOB)).digest_due == clock.now + 16 * HOUR  # 09:00 in Tokyo
    await service.notifications.set_notify(BOB, timezone="UTC")
    await seated(service, "alice", "bob")
    clock.advance(HOUR)
    assert len(digests_to(await service.digest.tick(), BOB)) == 1  # 09:00
    await service.notifications.set_notify(BOB, digest="10:00")  # within the hour: not again today
    assert (await service.store.get_notify(BOB)).digest_due == clock.now + DAY + HOUR
