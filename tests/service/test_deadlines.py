"""Deadlines and reminders: per-table settings, expiry policies, restarts, the loop."""

from __future__ import annotations

import asyncio
import time

import pytest
from pydantic import ValidationError

from bot.discord.markup import markup
from bot.service.scheduler import Scheduler
from bot.service.tables import Settings, TableError, TableService
from bot.store import open_store

from .conftest import ALICE, BOB, CAROL, CHANNEL, Clock, seated

HOUR = 3600.0


async def test_reminders_go_only_to_seats_still_owing_with_the_deadline(service, clock):
    await seated(service, "alice", "bob", "carol")
    start = clock.now
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    assert await service.deadlines.next_wakeup() == start + 12 * HOUR
    clock.advance(12 * HOUR)
    (out,) = await service.deadlines.tick()
    reminders = [p for p in out.posts if p.kind == "reminder"]
    assert sorted((p.seat, p.user_id, p.dm) for p in reminders) == [("s2", BOB, True), ("s3", CAROL, True)]
    assert all(f"<t:{int(start + 24 * HOUR)}:R>" in markup(p.text) for p in reminders)
    assert out.public() == []  # a reminder is nobody else's business
    assert await service.deadlines.tick() == []  # sent once
    assert await service.deadlines.next_wakeup() == start + 23 * HOUR


async def test_overdue_reminders_collapse_into_one(service, clock):
    await seated(service, "alice", "bob")
    clock.advance(23.5 * HOUR)
    (out,) = await service.deadlines.tick()
    assert len([p for p in out.posts if p.kind == "reminder"]) == 2  # one each for alice and bob


async def test_on_expiry_default_gives_each_owing_seat_its_default_order(service, clock):
    await seated(service, "alice", "bob", "carol")
    await service.command(CHANNEL, ALICE, "commit", {"value": "3"})
    clock.advance(24 * HOUR)
    (out,) = await service.deadlines.tick()
    assert out.posts[0].text.startswith(
        "Time is up. Played for those who still owed: bob (the default order), carol (the default order)."
    )
    assert any("Commits: s1=3, s2=1, s3=1" in p.text for p in out.public())  # Envoys' default is 1
    actions = await service.store.get_actions(CHANNEL)
    assert [(a.seat, a.user_id) for a in actions] == [("s1", ALICE), ("s2", None), ("s3", None)]
    assert "press" in markup(out.status)  # the next phase has begun, with its own deadline
    assert await service.deadlines.next_wakeup() == clock.now + 12 * HOUR


async def test_a_phase_with_its_own_setting_uses_it(service, clock):
    await seated(service, "alice", "bob")
    await service.settings(CHANNEL, ALICE, {"diplomacy_minutes": "10", "reminders_hours": "none"})
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    await service.command(CHANNEL, ALICE, "press", {})
    (diplomacy,) = [d for d in await service.store.get_deadlines(CHANNEL) if d.phase == "r1/diplomacy"]
    assert diplomacy.due_at == clock.now + 600 and diplomacy.thread == "Round 1 diplomacy"
    clock.advance(600)
    (out,) = await service.deadlines.tick()
    assert out.close_thread and "round 2, commit" in markup(out.status)


async def test_on_expiry_extend_pushes_once_then_defaults(service, clock):
    await seated(service, "alice", "bob")
    await service.settings(CHANNEL, ALICE, {"on_expiry": "extend"})
    clock.advance(24 * HOUR)
    (out,) = await service.deadlines.tick()
    due = int(clock.now + 24 * HOUR)
    assert f"extended once, to <t:{due}:R>" in markup(out.posts[0].text) and out.posts[0].to == "channel"
    assert await service.store.get_actions(CHANNEL) == []
    clock.advance(24 * HOUR)
    (out,) = await service.deadlines.tick()
    assert out.posts[0].text.startswith(
        "Time is up. Played for those who still owed: alice (the default order), bob (the default order)."
    )


async def test_on_expiry_pause_pauses_until_the_host_resumes(service, clock):
    await seated(service, "alice", "bob")
    await service.settings(CHANNEL, ALICE, {"on_expiry": "pause"})
    clock.advance(25 * HOUR)
    (out,) = await service.deadlines.tick()
    assert "the game is paused" in out.posts[0].text
    assert (await service.table_info(CHANNEL)).status == "paused"
    with pytest.raises(TableError, match="The game is paused."):
        await service.command(CHANNEL, BOB, "commit", {"value": "1"})
    assert await service.deadlines.next_wakeup() is None  # a paused table's deadlines do not run
    vote = await service.controls.resume(CHANNEL, BOB)  # one of two seated: a vote, not yet a majority
    assert "1 more needed" in vote.reply
    assert (await service.table_info(CHANNEL)).status == "paused"
    await service.controls.resume(CHANNEL, ALICE)
    # paused because time ran out: a fresh full phase (24 h), its 12 h reminder first
    assert await service.deadlines.next_wakeup() == clock.now + 12 * HOUR
    await service.command(CHANNEL, BOB, "commit", {"value": "1"})


async def test_deadlines_that_passed_while_the_bot_was_down_are_processed_at_start_up(tmp_path):
    clock = Clock()
    path = tmp_path / "bot.sqlite3"
    store = await open_store(path)
    await seated(TableService(store, clock=clock), "alice", "bob")
    await store.close()
    clock.advance(3 * 24 * HOUR)  # down for three days
    store = await open_store(path)
    try:
        service = TableService(store, clock=clock)
        assert await service.deadlines.next_wakeup() < clock.now
        outs = await service.deadlines.tick()
        assert [o.channel_id for o in outs] == [CHANNEL]
        assert any(p.text.startswith("Time is up. Played for those who still owed") for p in outs[0].posts)
        assert len(await store.get_actions(CHANNEL)) == 2
    finally:
        await store.close()


async def test_settings_are_shown_to_anyone_and_changed_only_by_the_host_or_a_manager(service):
    await seated(service, "alice", "bob")
    shown = await service.settings(CHANNEL, BOB, {})
    assert "phase_hours: 24" in shown.reply and "on_expiry: default" in shown.reply
    with pytest.raises(TableError, match="Only the host"):
        await service.settings(CHANNEL, BOB, {"phase_hours": "48"})
    out = await service.settings(CHANNEL, BOB, {"phase_hours": "48"}, admin=True)
    assert "phase_hours: 48" in out.reply
    with pytest.raises(TableError, match="on_expiry must be default, extend, pause or autopilot."):
        await service.settings(CHANNEL, ALICE, {"on_expiry": "explode"})
    with pytest.raises(TableError, match="There is no setting 'colour'"):
        await service.settings(CHANNEL, ALICE, {"colour": "red"})
    with pytest.raises(TableError, match="phase_hours must be a number"):
        await service.settings(CHANNEL, ALICE, {"phase_hours": "soon"})
    stored = Settings.from_json((await service.store.get_table(CHANNEL)).settings)
    assert stored.phase_hours == 48


def test_settings_convert_game_specific_lengths():
    s = Settings().changed("crisis_minutes", "30", ("crisis_minutes",)).changed("reminders_hours", "1, 6")
    assert s.seconds_for("crisis_minutes") == 1800
    assert s.seconds_for("diplomacy_minutes") == 1440 * 60
    assert s.seconds_for(None) == s.seconds_for("unknown_minutes") == 24 * HOUR
    assert s.reminders_hours == [6.0, 1.0]
    assert Settings.from_json(s.to_json()) == s


async def test_the_service_takes_default_settings_from_the_config(store, clock):
    service = TableService(store, clock=clock, default_settings={"phase_hours": 2, "reminders_hours": [1]})
    await seated(service, "alice", "bob")
    assert await service.deadlines.next_wakeup() == clock.now + HOUR


async def test_the_scheduler_loop_delivers_due_deadlines_and_sleeps_until_the_next(service, clock):
    await seated(service, "alice", "bob")
    scheduler = Scheduler(service, max_sleep=6 * HOUR)
    delivered, sleeps = [], []

    async def deliver(out):
        delivered.append(out)

    async def sleep(seconds):
        sleeps.append(seconds)
        clock.advance(seconds)
        if len(sleeps) == 6:
            scheduler.stop()

    await scheduler.run(deliver, sleep=sleep)
    # 6 h, 6 h (reminder at 12 h), 6 h, 5 h (reminder at 23 h), 1 h (expiry)...
    assert sleeps[:5] == [6 * HOUR, 6 * HOUR, 6 * HOUR, 5 * HOUR, 1 * HOUR]
    kinds = [p.kind for out in delivered for p in out.posts]
    assert kinds.count("reminder") == 4 and "Time is up" in delivered[-1].posts[0].text


async def test_a_default_order_the_engine_cannot_carry_out_pauses_the_table(service, clock, monkeypatch):
    await seated(service, "alice", "bob")
    game = service.access.cache[CHANNEL].game
    monkeypatch.setattr(game, "default_action", lambda state, seat: {"kind": "commit", "value": 9})
    clock.advance(24 * HOUR)
    (out,) = await service.deadlines.tick()
    assert (
        "The default order for alice failed (an error in the game's program; the details are in the "
        "bot's log); the game is paused."
        in out.posts[-1].text
    )
    assert (await service.table_info(CHANNEL)).status == "paused"
    assert await service.deadlines.tick() == [] and await service.deadlines.next_wakeup() is None


async def test_the_scheduler_backs_off_from_a_table_that_keeps_failing(service, clock, monkeypatch):
    await seated(service, "alice", "bob")
    clock.advance(25 * HOUR)

    async def broken(t, now):
        raise RuntimeError("a bug")

    monkeypatch.setattr(service.deadlines, "_tick_table", broken)
    scheduler = Scheduler(service, max_sleep=60, stuck_sleep=30)
    assert await scheduler.run_once(lambda out: None) == 30  # not a busy loop at min_sleep


async def test_a_closed_dm_is_remembered_across_restarts(tmp_path, clock):
    store = await open_store(tmp_path / "bot.sqlite3")
    service = TableService(store, clock=clock)
    assert not await service.notifications.dm_closed(ALICE)
    await service.notifications.mark_dm_closed(ALICE)
    await service.notifications.mark_dm_closed(ALICE)  # idempotent
    await store.close()
    store = await open_store(tmp_path / "bot.sqlite3")
    try:
        again = TableService(store, clock=clock)
        assert await again.notifications.dm_closed(ALICE) and not await again.notifications.dm_closed(BOB)
    finally:
        await store.close()


async def test_the_scheduler_in_real_time_fires_a_short_deadline(store):
    service = TableService(
        store, clock=time.time, default_settings={"phase_hours": 0.0001, "reminders_hours": []}
    )
    await seated(service, "alice", "bob")  # due in 0.36 s
    scheduler = Scheduler(service, max_sleep=5)
    fired = asyncio.Event()

    async def deliver(out):
        if any(p.text.startswith("Time is up") for p in out.posts):
            fired.set()

    task = asyncio.create_task(scheduler.run(deliver))
    try:
        await asyncio.wait_for(fired.wait(), 3)  # well before max_sleep: it slept until the deadline
    finally:
        scheduler.stop()
        await asyncio.wait_for(task, 1)


def test_a_length_the_game_does_not_name_is_refused_not_stored():
    """Any key ending in _minutes or _hours was stored, so a typo was silently kept."""
    with pytest.raises(TableError, match="There is no setting 'phase_hour'. Did you mean phase_hours?"):
        Settings().changed("phase_hour", "3")
    with pytest.raises(TableError, match="There is no setting 'crisis_minutes'"):
        Settings().changed("crisis_minutes", "30")
    for bad in ("inf", "nan", "-1", "0", "1e9"):
        with pytest.raises(TableError, match="phase_hours must be"):
            Settings().changed("phase_hours", bad)
    with pytest.raises(TableError, match="at most 8,760 hours"):
        Settings().changed("reminders_hours", "1e12")
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Settings.model_validate({"phase_hours": 2, "phase_hour": 3})


def test_settings_stored_before_the_check_still_load():
    old = {"phase_hours": 6, "typo_minutes": 5, "reminders_hours": [2]}
    assert Settings.from_json(old).extra == {"typo_minutes": 5.0}
