"""At service level: notification preferences, quiet hours, /game mine, outages,
round threads, the stored status message and the join-preference suggestions."""

from __future__ import annotations

import pytest

from bot.discord.markup import markup
from bot.service.tables import TableError, TableService
from bot.store import open_store
from engine import games
from tests.tinygame import Envoys

from .conftest import ALICE, BOB, CHANNEL, Clock, seated

HOUR = 3600.0
# the conftest clock starts at 1_800_000_000: 2027-01-15 08:00 UTC


async def test_notify_validates_and_describes_the_preferences(service):
    text = await service.notifications.set_notify(BOB, mode="mention", timezone="Europe/Vienna", quiet_hours="22-07")
    assert "mention" in text and "Europe/Vienna" in text and "22-07" in text
    with pytest.raises(TableError, match="dm or mention"):
        await service.notifications.set_notify(BOB, mode="pigeon")
    with pytest.raises(TableError, match="not a timezone"):
        await service.notifications.set_notify(BOB, timezone="Mars/Olympus")
    with pytest.raises(TableError, match="Quiet hours look like"):
        await service.notifications.set_notify(BOB, quiet_hours="late")
    assert "no quiet hours" in await service.notifications.set_notify(BOB, quiet_hours="off")


async def test_a_member_who_chose_mentions_is_pinged_in_the_channel_without_the_secret(service):
    await service.notifications.set_notify(BOB, mode="mention")
    await seated(service, "alice", "bob", start=False)
    out = await service.lobby.start(CHANNEL, ALICE, seed=7)
    pings = [p for p in out.posts if p.to == "channel" and p.user_id == BOB]
    assert len(pings) == 1
    ping = markup(pings[0].text)
    assert ping.startswith(f"<@{BOB}>") and "Commit" not in ping
    assert not any(p.to == "seat" and p.user_id == BOB and p.dm for p in out.posts)
    assert any(p.to == "seat" and p.user_id == ALICE and p.dm for p in out.posts)  # alice keeps DMs


async def test_a_reminder_inside_quiet_hours_waits_for_their_end(service, clock):
    # bob's quiet hours cover the 12-hour reminder (20:00 UTC); alice has none
    await service.notifications.set_notify(BOB, timezone="UTC", quiet_hours="19-23")
    await seated(service, "alice", "bob")
    clock.advance(12 * HOUR)
    (out,) = await service.deadlines.tick()
    assert {p.user_id for p in out.posts if p.kind == "reminder"} == {ALICE}
    assert await service.deadlines.next_wakeup() == pytest.approx(clock.now + 3 * HOUR)  # 23:00 UTC
    clock.advance(3 * HOUR)
    (out,) = await service.deadlines.tick()
    assert {p.user_id for p in out.posts if p.kind == "reminder"} == {BOB}


async def test_a_quiet_reminder_goes_a_minute_before_a_deadline_that_comes_first(service, clock):
    await service.notifications.set_notify(BOB, timezone="UTC", quiet_hours="07-12")  # 08:00 now; deadline 10:00
    await seated(service, "alice", "bob", start=False)
    await service.settings(CHANNEL, ALICE, {"phase_hours": "2", "reminders_hours": "1"})
    await service.lobby.start(CHANNEL, ALICE, seed=7)
    clock.advance(HOUR)
    (out,) = await service.deadlines.tick()
    assert {p.user_id for p in out.posts if p.kind == "reminder"} == {ALICE}
    assert await service.deadlines.next_wakeup() == pytest.approx(clock.now + HOUR - 60)


async def test_mine_lists_every_table_with_what_is_owed_and_when(service, clock):
    await seated(service, "alice", "bob")
    await service.lobby.create(CHANNEL + 1, 9, "envoys", BOB, "bob")
    await service.command(CHANNEL, BOB, "commit", {"value": "1"})
    text = markup(await service.notifications.mine(BOB))
    assert f"<#{CHANNEL}> Envoys (test game) as s2: you owe nothing right now." in text
    assert f"<#{CHANNEL + 1}> Envoys (test game): in the lobby" in text
    owed = markup(await service.notifications.mine(ALICE))
    assert f"you owe commit, due <t:{int(clock.now + 24 * HOUR)}:R>" in owed
    assert markup(await service.notifications.mine(99)) == "You are not seated at any open table."


async def test_after_an_outage_running_tables_are_told_and_their_deadlines_extended(tmp_path):
    clock = Clock()
    store = await open_store(tmp_path / "bot.sqlite3")
    service = TableService(store, clock=clock)
    await seated(service, "alice", "bob")
    await service.lobby.create(CHANNEL + 1, 9, "envoys", ALICE, "alice")  # a lobby: nothing to say
    await service.deadlines.heartbeat()
    due = min(d.due_at for d in await store.get_deadlines(CHANNEL))
    await store.close()

    clock.advance(5 * HOUR)  # the bot is down
    store = await open_store(tmp_path / "bot.sqlite3")
    service = TableService(store, clock=clock)
    (out,) = await service.deadlines.recover()
    told = markup(out.posts[0].text)
    assert out.channel_id == CHANNEL and "offline" in told and "5 h" in told
    assert min(d.due_at for d in await store.get_deadlines(CHANNEL)) == due + 5 * HOUR
    assert await service.deadlines.recover() == []  # the heartbeat was renewed: no second outage
    await store.close()


async def test_a_deadline_opened_after_the_restart_is_not_extended_for_the_outage(service, clock, store):
    await seated(service, "alice", "bob")
    await service.deadlines.heartbeat()
    clock.advance(5 * HOUR)
    outage = await service.deadlines.outage()  # before the bot connects
    assert outage is not None and outage.end - outage.start == 5 * HOUR
    # once connected, players act before the outage work reaches their table
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    await service.command(CHANNEL, BOB, "commit", {"value": "3"})
    (opened,) = await store.get_deadlines(CHANNEL)
    assert opened.started_at == clock.now  # the commit phase closed; a new phase opened now
    (out,) = await service.deadlines.recover(outage)
    assert "offline" in markup(out.posts[0].text)
    assert await store.get_deadlines(CHANNEL) == [opened]  # it lost nothing to the outage


async def test_on_outage_ignore_tells_but_keeps_the_deadlines(service, clock, store):
    await seated(service, "alice", "bob")
    await service.settings(CHANNEL, ALICE, {"on_outage": "ignore"})
    await service.deadlines.heartbeat()
    clock.advance(HOUR)
    due = min(d.due_at for d in await store.get_deadlines(CHANNEL))
    (out,) = await service.deadlines.recover()
    assert "extended" not in markup(out.posts[0].text)
    assert min(d.due_at for d in await store.get_deadlines(CHANNEL)) == due


class Rounds(Envoys):
    """Envoys whose rounds are Weeks, for the round_threads setting."""

    id = "rounds"
    title = "Rounds"

    def round_label(self, state):
        return f"Week {state.round}"


async def test_round_threads_open_each_week_and_archive_the_last(service):
    games.register(Rounds())
    await service.lobby.create(CHANNEL, 9, "rounds", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.settings(CHANNEL, ALICE, {"round_threads": "on"})
    out = await service.lobby.start(CHANNEL, ALICE, seed=7)
    assert out.open_thread == "Week 1"
    changed = None
    for _ in range(20):
        t = await service.load(CHANNEL)
        seat = t.prompts[0].seat
        step = await service.act(CHANNEL, t.holder(seat).user_id, t.game.default_action(t.state, seat))
        if step.open_thread == "Week 2":
            changed = step
            break
    assert changed is not None and changed.close_thread


async def test_status_message_dm_flag_and_join_suggestions(service):
    await service.lobby.create(CHANNEL, 9, "origins", ALICE, "alice")
    await service.set_status_message(CHANNEL, 555)
    assert (await service.table_info(CHANNEL)).status_message_id == 555
    await service.notifications.mark_dm_closed(BOB)
    await service.notifications.mark_dm_open(BOB)
    assert not await service.notifications.dm_closed(BOB)
    # two players in Origins: the Triple Alliance against the Triple Entente
    labels = [c.label for c in await service.suggest(CHANNEL, BOB, "join", "preference", {}, "")]
    g = games.get("origins")
    state = g.setup(["s1", "s2"], g.Options(), 0)
    assert labels == [g.seat_label(state, "s1"), g.seat_label(state, "s2")]
    assert await service.suggest(CHANNEL, BOB, "join", "preference", {}, "zzz") == []


async def test_a_held_back_reminder_is_dropped_when_its_phase_ends(service, clock, store):
    await service.notifications.set_notify(BOB, timezone="UTC", quiet_hours="19-23")
    await seated(service, "alice", "bob")
    clock.advance(12 * HOUR)
    await service.deadlines.tick()
    (held,) = (await store.get_table(CHANNEL)).meta["deferred"].values()
    assert list(held) == ["s2"]
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    assert (await store.get_table(CHANNEL)).meta["deferred"] == {}


async def test_a_reminder_for_a_member_who_chose_mentions_is_a_ping_in_the_channel(service, clock):
    await service.notifications.set_notify(BOB, mode="mention")
    await seated(service, "alice", "bob")
    clock.advance(12 * HOUR)
    (out,) = await service.deadlines.tick()
    (ping,) = [p for p in out.posts if p.kind == "reminder" and p.to == "channel"]
    assert ping.user_id == BOB and markup(ping.text).startswith(f"<@{BOB}> reminder: you owe commit")
    assert "Commit 1, 2 or 3" not in markup(ping.text)  # the prompt's own words stay private
    assert [p.user_id for p in out.posts if p.kind == "reminder" and p.dm] == [ALICE]


@pytest.mark.parametrize(
    ("game_id", "players", "first", "second"),
    [
        ("crisis1914", 3, "Week 1", "Week 2"),
        ("schonbrunn", 3, "Round 1", "Round 2"),
    ],
)
async def test_round_threads_follow_a_real_games_weeks_and_rounds(service, game_id, players, first, second):
    """A public diplomacy thread at the start of each Crisis Week and
    each Schönbrunn round, archived when the Week or round ends."""
    await service.lobby.create(CHANNEL, 9, game_id, ALICE, "alice")
    for uid in range(2, players + 1):
        await service.lobby.join(CHANNEL, uid, f"p{uid}")
    await service.settings(CHANNEL, ALICE, {"round_threads": "on"})
    out = await service.lobby.start(CHANNEL, ALICE, seed=11)
    assert out.open_thread == first
    for _ in range(2000):
        out = await service.auto(CHANNEL)
        assert out is not None, "the game ended before its second round"
        if out.open_thread == second:
            assert out.close_thread
            break
    else:
        raise AssertionError(f"{second} never began")
