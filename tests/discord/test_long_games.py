"""Long games end to end with SimCord (pause, substitutes, automatic
seats, undo, history and export, verifiable seeds, notifications, outages, spectators,
talks). The real bot over a real table service, played with the tiny test game "Envoys"."""

from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest
from simcord import SetupError

from bot.discord.client import HEARTBEAT
from bot.discord.markup import markup
from bot.discord.private import NOTICE_GRACE
from engine import games
from engine.core import seed_commitment
from tests import tinygame

from .conftest import BotConfig
from .reading import shown
from .test_discord_e2e import Table, _started

pytestmark = pytest.mark.simcord

HOUR = 3600.0


async def _deadline(store, channel_id: int) -> float:
    (row,) = await store.get_deadlines(channel_id)
    return row.due_at


async def _play_to_the_end(env, service, table: Table) -> None:
    """Every seated player does what they owe (commit 2, yield, ready) until the game ends."""
    for _ in range(200):
        info = await service.table_info(table.channel.id)
        if info.status != "running":
            return
        t = await service.load(table.channel.id)
        prompts = t.prompts
        assert prompts, "a running game owes something"
        p = prompts[0]
        user = next(s.user_id for s in info.seats if s.seat == p.seat)
        player = next(m for m in table.players.values() if m.id == user)
        command = {"commit": "envoys commit", "press": "envoys yield", "ready": "envoys ready"}[p.kind]
        options = {"value": 2} if p.kind == "commit" else {}
        where = table.channel
        if p.kind == "ready" and table.channel.threads:
            where = table.channel.threads[-1]
        result = await player.slash(where, command, **options)
        assert result.ephemeral, result.response.content
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- 1. pause and resume


async def test_pause_freezes_the_deadline_and_resume_gives_back_its_remaining_time(env, service, store):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    await env.advance_time(10 * HOUR)  # 14 hours of bob's day are left

    paused = await table["alice"].slash(table.channel, "game pause")
    assert paused.ephemeral and "paused" in paused.response.content.lower()
    assert (await service.table_info(table.channel.id)).status == "paused"
    assert any("paused" in text for text in table.dms("bob"))  # everyone seated is told
    assert "paused" in table.public_text()

    await env.advance_time(30 * HOUR)  # past the old deadline: nothing expires
    assert "round 1, commit" in shown(table.status())
    assert not any("Reminder" in text for text in table.dms("bob"))

    resumed = await table["alice"].slash(table.channel, "game resume")
    assert resumed.ephemeral and "resumes" in resumed.response.content
    assert any("resumes" in text for text in table.dms("bob"))
    left = await _deadline(store, table.channel.id) - env.now().timestamp()
    assert abs(left - 14 * HOUR) < 60, left / HOUR

    await env.advance_time(14 * HOUR - 120)
    assert "round 1, commit" in shown(table.status())
    await env.advance_time(240)
    assert "round 1, press" in shown(table.status())  # bob's default commit, on time


async def test_a_majority_of_seated_players_pauses_and_resumes(env, service):
    table = await _started(env, service, "alice", "bob", "carol")
    voted = await table["bob"].slash(table.channel, "game pause")
    assert "vote" in voted.response.content.lower()
    assert (await service.table_info(table.channel.id)).status == "running"
    await table["carol"].slash(table.channel, "game pause")  # 2 of 3
    assert (await service.table_info(table.channel.id)).status == "paused"
    assert any("paused" in text for text in table.dms("alice"))

    await table["bob"].slash(table.channel, "game resume")
    assert (await service.table_info(table.channel.id)).status == "paused"
    await table["carol"].slash(table.channel, "game resume")
    assert (await service.table_info(table.channel.id)).status == "running"


# ---------------------------------------------------------------- 2. substitutes


async def test_a_substitute_gets_a_private_briefing_and_the_history_records_the_change(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["bob"].slash(table.channel, "envoys commit", value=2)
    dave = table.players["dave"] = table.guild.add_member(env.create_user("dave"))

    offered = await table["alice"].autocomplete(table.channel, "game substitute", "seat", "bob")
    assert [c["value"] for c in offered] == ["s2"] and "bob" in offered[0]["name"]

    handed = await table["alice"].slash(table.channel, "game substitute", member=dave, seat="s2")
    assert handed.ephemeral and "dave" in handed.response.content
    (briefing,) = table.dms("dave")
    assert "Your commit: 2" in briefing  # their orders in progress, privately
    assert "Your commit: 2" not in table.public_text()
    assert "dave takes over" in table.public_text()

    refused = await table["bob"].slash(table.channel, "envoys commit", value=1)
    assert refused.response.content == "You are not seated at this table."
    me = await dave.slash(table.channel, "game me")
    assert "Your commit: 2" in me.response.content

    record = await service.history.export(table.channel.id)
    players = [(h["seat"], h["name"]) for h in record["seats_over_time"] if h["seat"] == "s2"]
    assert players == [("s2", "bob"), ("s2", "dave")]


async def test_a_seated_player_asks_for_a_substitute_and_the_host_is_told(env, service):
    table = await _started(env, service, "alice", "bob")
    asked = await table["bob"].slash(table.channel, "game substitute")
    assert asked.ephemeral and "host" in asked.response.content
    assert any("bob" in text for text in table.dms("alice"))


async def test_a_newcomer_without_dms_is_told_in_the_channel_to_use_game_me(env, service):
    table = await _started(env, service, "alice", "bob", "carol")
    dave = table.guild.add_member(env.create_user("dave"))
    erin = table.guild.add_member(env.create_user("erin"))
    env.inject_error(
        "POST",
        f"/channels/{dave.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await service.notifications.mark_dm_closed(erin.id)  # known from an earlier table: not even tried

    for member, seat in ((dave, "s2"), (erin, "s3")):
        await table["alice"].slash(table.channel, "game substitute", member=member, seat=seat)
        told = [m.content for m in table.channel.history() if member.mention in m.content]
        assert len(told) == 1 and "/game me" in told[0], told  # told once, either way
        assert "Commit 1, 2 or 3" not in told[0]  # the briefing itself stays private
    assert erin.user.dm_channel.history() == []


# ---------------------------------------------------------------- 3. automatic seats


async def test_an_automatic_seat_plays_and_never_posts_its_private_lines(env, service, monkeypatch):
    table = await _started(env, service, "alice", "bob")
    seen: list = []
    deliver = env.bot.delivery.deliver

    async def recording(outbox, **kwargs):
        seen.append(outbox)
        await deliver(outbox, **kwargs)

    monkeypatch.setattr(env.bot.delivery, "deliver", recording)
    turned = await table["alice"].slash(table.channel, "game bot", seat="s2", on=True)
    assert turned.ephemeral, turned.response.content
    dms_before = len(table.dms("bob"))

    await _play_to_the_end(env, service, table)  # only alice is ever asked to act

    assert (await service.table_info(table.channel.id)).status == "finished"
    assert not [p for o in seen for p in o.posts if p.to == "seat" and p.seat == "s2"]
    assert len(table.dms("bob")) == dms_before
    assert "You committed" not in table.public_text()


async def test_an_automatic_seat_fills_the_lobby(env, service):
    table = Table(env, "alice")
    await table.open("alice")
    added = await table["alice"].slash(table.channel, "game bot")
    assert added.ephemeral, added.response.content
    started = await table["alice"].slash(table.channel, "game start")
    assert started.response.content.startswith("The game has started"), started.response.content
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    assert "round 1, press" in shown(table.status())  # the automatic seat committed at once


async def test_an_expired_deadline_hands_the_seat_to_autopilot(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "game settings", key="on_expiry", value="autopilot")
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    await env.advance_time(25 * HOUR)  # bob never answers
    info = await service.table_info(table.channel.id)
    t = await service.load(table.channel.id)
    assert t.holder("s2").automatic, info
    assert "round 1, press" in shown(table.status()) or "round 1, diplomacy" in shown(table.status())


# ---------------------------------------------------------------- 4. undo


async def test_undo_takes_back_a_quiet_action_and_refuses_one_that_rolled_dice(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=3)

    refused = await table["bob"].slash(table.channel, "game undo")
    assert refused.ephemeral and "host" in refused.response.content
    undone = await table["alice"].slash(table.channel, "game undo")
    assert undone.ephemeral and "Undone" in undone.response.content, undone.response.content
    assert "undo" in table.public_text().lower() or "took back" in table.public_text().lower()
    me = await table["alice"].slash(table.channel, "game me")
    assert "Your commit" not in me.response.content and "Commit 1, 2 or 3" in me.response.content

    await table["alice"].slash(table.channel, "envoys commit", value=3)
    await table["bob"].slash(table.channel, "envoys commit", value=1)  # reveals and rolls the die
    refused = await table["alice"].slash(table.channel, "game undo")
    assert refused.ephemeral and "dice" in refused.response.content
    assert "round 1, press" in shown(table.status())


# ---------------------------------------------------------------- 5. history and export


async def test_the_log_pages_with_buttons_that_survive_a_restart(env, service, make_bot):
    table = await _started(env, service, "alice", "bob", "carol")
    await _play_to_the_end(env, service, table)
    shown = await table["bob"].slash(table.channel, "game log")
    assert shown.ephemeral and "page 1 of " in shown.response.content
    pages = int(re.search(r"page 1 of (\d+)", shown.response.content)[1])
    assert pages >= 2

    older = await table["bob"].click(shown.response.message, label="Older")
    assert older.acknowledged
    assert "page 2 of" in table.channel.history(viewer=table["bob"])[-1].content  # edited in place

    await env.restart_bot(make_bot())
    message = table.channel.history(viewer=table["bob"])[-1]
    assert "page 2 of" in message.content
    newer = await table["bob"].click(message, label="Newer")
    assert newer.acknowledged
    assert "page 1 of" in table.channel.history(viewer=table["bob"])[-1].content

    typed = await table["bob"].slash(table.channel, "game log", page=2)
    assert "page 2 of" in typed.response.content


def _attached(env, result) -> bytes:
    (attachment,) = result.response.attachments
    return env.backend.cdn.get(attachment.url)


async def test_a_seated_host_exporting_mid_game_gets_the_public_record_and_cannot_import_it(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    seed = (await service.store.get_table(table.channel.id)).seed

    for who in ("alice", "bob"):  # the host is no different from any other player
        exported = await table[who].slash(table.channel, "game export")
        assert exported.ephemeral and "public record" in exported.response.content
        data = _attached(env, exported)
        record = json.loads(data)
        assert record["format"] == "chancellery-public-record/1"
        assert "seed" not in record and "actions" not in record
        assert str(seed) not in data.decode() and "committed 3" not in data.decode()

    other = table.guild.create_text_channel("envoys-elsewhere")
    refused = await table["alice"].slash(other, "game import", record=("envoys.json", data))
    assert refused.ephemeral and "cannot be replayed or continued" in refused.response.content
    assert await service.table_info(other.id) is None


async def test_the_operators_record_moves_a_table_to_another_channel(env, service, store):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    await table["bob"].slash(table.channel, "envoys commit", value=1)
    # `chancellery export --channel` on the machine that runs the bot
    data = json.dumps(await service.history.operator_export(table.channel.id)).encode()
    record = json.loads(data)
    assert record["game"] == "envoys" and len(record["actions"]) == 2

    other = table.guild.create_text_channel("envoys-2")
    imported = await table["alice"].slash(other, "game import", record=("envoys.json", data))
    assert imported.ephemeral, imported.response.content
    old_state = (await store.get_table(table.channel.id)).state
    assert (await store.get_table(other.id)).state == old_state  # replayed to the same state

    await table["alice"].slash(other, "game join", preference="s1")
    await table["bob"].slash(other, "game join", preference="s2")
    await table["alice"].slash(other, "game resume")
    pressed = await table["alice"].slash(other, "envoys press")
    assert pressed.ephemeral and "round 1, diplomacy" in markup(await service.status(other.id))


async def test_a_file_that_is_no_record_is_refused(env, service):
    table = Table(env, "alice")
    refused = await table["alice"].slash(table.channel, "game import", record=("notes.json", b"hello"))
    assert refused.ephemeral and "not a JSON game record" in refused.response.content
    assert await service.table_info(table.channel.id) is None


# ---------------------------------------------------------------- 6. verifiable randomness


async def test_the_seed_hash_is_posted_at_start_and_the_seed_revealed_at_the_end(
    env, service, store, tmp_path
):
    from bot.__main__ import main

    table = await _started(env, service, "alice", "bob")
    posted = re.search(r"Seed commitment: `([0-9a-f]{64})`", table.public_text())
    assert posted is not None
    seed = (await store.get_table(table.channel.id)).seed
    assert str(seed) not in table.public_text()

    await _play_to_the_end(env, service, table)
    revealed = re.search(r"Seed: `(\d+)`", table.public_text())
    assert revealed is not None
    # What any player can check: the revealed seed is the one committed to at the start...
    assert seed_commitment(int(revealed[1])) == posted[1]

    # ...and the exported record replays every roll from it.
    exported = await table["bob"].slash(table.channel, "game export")  # anyone, after the end
    assert not exported.ephemeral
    path = tmp_path / "game.json"
    path.write_bytes(_attached(env, exported))
    assert json.loads(path.read_text())["seed"] == int(revealed[1])
    out = io.StringIO()
    assert main(["replay", str(path)], stdout=out) == 0, out.getvalue()


# ---------------------------------------------------------------- 7. notifications


async def test_a_player_who_chose_mentions_is_pinged_in_the_channel_not_dmed(env, service):
    table = Table(env, "alice", "bob")
    chosen = await table["bob"].slash(table.channel, "game notify", mode="mention")
    assert chosen.ephemeral and "mention" in chosen.response.content
    await table.open("alice", "bob")
    await table["alice"].slash(table.channel, "game start")
    await env.advance_time(NOTICE_GRACE)
    assert table.dms("bob") == []
    pings = [m for m in table.channel.history() if table["bob"].mention in m.content]
    assert len(pings) == 1 and "Commit 1, 2 or 3" not in pings[0].content  # a ping names no secret

    await table["alice"].slash(table.channel, "envoys commit", value=3)
    await env.advance_time(23 * HOUR)  # the one-hour reminder
    pings = [m for m in table.channel.history() if table["bob"].mention in m.content]
    assert len(pings) == 2 and table.dms("bob") == []


async def test_reminders_wait_for_the_end_of_quiet_hours(env, service):
    table = Table(env, "alice", "bob", "carol")
    zones = await table["carol"].autocomplete(table.channel, "game notify", "timezone", "vienna")
    assert [c["value"] for c in zones] == ["Europe/Vienna"]
    await table["carol"].slash(table.channel, "game notify", timezone="UTC", quiet_hours="22-07")
    await table.open("alice", "bob", "carol")
    await table["alice"].slash(table.channel, "game settings", key="phase_hours", value="48")
    await table["alice"].slash(table.channel, "game settings", key="reminders_hours", value="26")
    await table["alice"].slash(table.channel, "game start")
    start = env.now()
    assert start.hour == 0  # SimCord's clock starts at midnight UTC: the reminder falls at 22:00
    await table["alice"].slash(table.channel, "envoys commit", value=1)

    await env.advance_time(22.5 * HOUR)
    assert any("Reminder" in text for text in table.dms("bob"))
    assert not any("Reminder" in text for text in table.dms("carol"))  # 22:30, her quiet hours
    await env.advance_time(9 * HOUR)  # 07:30 the next morning
    assert any("Reminder" in text for text in table.dms("carol"))


async def test_game_mine_lists_every_table_and_works_in_a_dm(env, service):
    first = await _started(env, service, "alice", "bob")
    second_channel = first.guild.create_text_channel("envoys-b")
    await first["bob"].slash(second_channel, "game new", game="envoys")
    await first["alice"].slash(second_channel, "game join")
    await first["bob"].slash(second_channel, "game start")
    await first["bob"].slash(second_channel, "envoys commit", value=1)

    shown = await first["bob"].user.slash("game mine")
    assert shown.ephemeral
    text = shown.response.content
    assert first.channel.mention in text and second_channel.mention in text
    assert "commit" in text and re.search(r"<t:\d+:R>", text)
    assert "nothing" in text  # at the second table bob has committed and owes nothing


# ---------------------------------------------------------------- 8. outages


async def test_after_an_outage_the_downtime_is_posted_and_the_deadline_extended(
    env, service, store, make_bot
):
    await env.restart_bot(make_bot(BotConfig(heartbeat_seconds=HEARTBEAT)))  # the real interval
    table = await _started(env, service, "alice", "bob")
    await env.advance_time(120)  # heartbeats are recorded while the bot runs
    due = await _deadline(store, table.channel.id)
    env.bot._ticker_task.cancel()
    env.bot._heartbeat_task.cancel()  # the bot is down
    await env.advance_time(5 * HOUR)

    await env.restart_bot(make_bot())
    notices = [m.content for m in table.channel.history() if "offline" in m.content]
    assert len(notices) == 1 and "(5 h)" in notices[0], notices
    extended = await _deadline(store, table.channel.id)
    assert 5 * HOUR - 120 <= extended - due <= 5 * HOUR + 120
    assert "round 1, commit" in shown(table.status())


async def test_a_deadline_the_outage_passed_is_shifted_before_the_deadline_loop_runs(
    env, service, store, make_bot, monkeypatch
):
    await env.restart_bot(make_bot(BotConfig(heartbeat_seconds=HEARTBEAT)))
    table = await _started(env, service, "alice", "bob")
    await env.advance_time(120)
    due = await _deadline(store, table.channel.id)
    env.bot._ticker_task.cancel()
    env.bot._heartbeat_task.cancel()
    await env.advance_time(30 * HOUR)  # longer than the 24-hour deadline: it passed while down

    calls = []

    def spied(name):
        real = getattr(service.deadlines, name)

        async def call(*args):
            calls.append(f"{name} starts")
            result = await real(*args)
            calls.append(f"{name} ends")
            return result

        return call

    for name in ("recover", "tick"):
        monkeypatch.setattr(service.deadlines, name, spied(name))
    await env.restart_bot(make_bot())
    await env.advance_time(60)  # the outage work and the deadline loop both had their turn
    assert calls[:3] == ["recover starts", "recover ends", "tick starts"], calls
    text = table.public_text()
    assert "offline" in text and "Time is up" not in text, text
    assert await _deadline(store, table.channel.id) - due >= 30 * HOUR - 120


# ---------------------------------------------------------------- 9. spectators


async def test_the_full_history_is_published_only_after_the_end(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    refused = await table["alice"].slash(table.channel, "game publish")
    assert refused.ephemeral and "after the game ends" in refused.response.content
    assert "You committed" not in table.public_text()

    stranger = table.guild.add_member(env.create_user("erin"))
    status = await stranger.slash(table.channel, "game status")  # anyone reads the public status
    assert "round 1, commit" in status.response.content

    await _play_to_the_end(env, service, table)
    assert "You committed" not in table.public_text()
    refused = await table["bob"].slash(table.channel, "game publish")
    assert "host" in refused.response.content
    await table["alice"].slash(table.channel, "game publish")
    assert "You committed 3" in table.public_text()  # alice's first secret order, now public


# ---------------------------------------------------------------- 10. talks


async def test_a_talk_is_a_private_thread_with_only_the_named_players(env, service):
    table = await _started(env, service, "alice", "bob", "carol")
    opened = await table["alice"].slash(table.channel, "game talk", player1=table["bob"])
    assert opened.ephemeral, opened.response.content
    (thread,) = [t for t in table.channel.threads if t.name.startswith("Talk")]
    stored = env.backend.channels[thread.id]
    assert stored.type == 12  # a private thread
    humans = {uid for uid in stored.thread_members if uid != env.bot.user.id}
    assert humans == {table["alice"].id, table["bob"].id}
    assert thread.history(viewer=table["bob"]) is not None
    with pytest.raises(SetupError):
        thread.history(viewer=table["carol"])

    dave = table.guild.add_member(env.create_user("dave"))
    refused = await table["alice"].slash(table.channel, "game talk", player1=dave)
    assert refused.ephemeral and "not seated" in refused.response.content
    assert len([t for t in table.channel.threads if t.name.startswith("Talk")]) == 1


class _RoundEnvoys(tinygame.Envoys):
    """Envoys with a round label and no phase thread of its own, like Crisis: 1914's Weeks."""

    def prompts(self, state):
        return [dataclasses.replace(p, thread=None) for p in super().prompts(state)]

    def round_label(self, state):
        return f"Round {state.round} diplomacy"


async def test_round_threads_open_each_round_and_are_archived_when_it_ends(
    env, service, make_bot, monkeypatch
):
    monkeypatch.setitem(games._GAMES, "envoys", _RoundEnvoys())
    await env.restart_bot(make_bot())
    table = Table(env, "alice", "bob")
    await table.open("alice", "bob")
    await table["alice"].slash(table.channel, "game settings", key="round_threads", value="on")
    await table["alice"].slash(table.channel, "game start")
    (first,) = table.channel.threads
    assert first.name == "Round 1 diplomacy"

    for value in (1, 2):
        await table["alice" if value == 1 else "bob"].slash(table.channel, "envoys commit", value=value)
    await table["alice"].slash(table.channel, "envoys yield")
    await table["alice"].slash(table.channel, "envoys ready")
    await table["bob"].slash(table.channel, "envoys ready")  # round 2 begins

    names = sorted(t.name for t in table.channel.threads)
    assert names == ["Round 1 diplomacy", "Round 2 diplomacy"]
    old = env.bot.get_channel(first.id) or await env.bot.fetch_channel(first.id)
    assert old.archived
    assert (await service.table_info(table.channel.id)).thread_id != first.id


async def test_no_thread_opens_after_the_game_has_ended(env, service):
    """Automatic seats playing several phases in one command open no
    phase thread once the game is over (they used to archive it and open the next)."""
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "game bot", seat="s2", on=True)
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    await table["alice"].slash(table.channel, "envoys yield")  # round 1's diplomacy thread opens
    assert [t.name for t in table.channel.threads] == ["Round 1 diplomacy"]
    played = await table["alice"].slash(table.channel, "game bot", seat="s1", on=True)  # to the end
    assert played.ephemeral, played.response.content

    assert (await service.table_info(table.channel.id)).status == "finished"
    names = [t.name for t in table.channel.threads]
    assert "Round 3 diplomacy" not in names, names  # the last round's ended within the command
    for thread in table.channel.threads:
        assert await _archived(env, thread.id), f"{thread.name} was left open after the end"
    assert (await service.table_info(table.channel.id)).thread_id is None


async def _archived(env, thread_id: int) -> bool:
    thread = env.bot.get_channel(thread_id) or await env.bot.fetch_channel(thread_id)
    return thread.archived


async def test_a_human_substitute_takes_a_seat_back_from_the_automatic_player(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "game bot", seat="s2", on=True)
    await table["alice"].slash(table.channel, "envoys commit", value=3)  # s2 commits by itself
    assert "round 1, press" in shown(table.status())

    dave = table.players["dave"] = table.guild.add_member(env.create_user("dave"))
    await table["alice"].slash(table.channel, "game substitute", member=dave, seat="s2")
    assert not (await service.load(table.channel.id)).holder("s2").automatic
    await table["alice"].slash(table.channel, "envoys yield")
    await table["alice"].slash(table.channel, "envoys ready")
    assert "round 1, diplomacy" in shown(table.status())  # s2 no longer answers by itself
    done = await dave.slash(table.channel.threads[-1], "envoys ready")
    assert done.ephemeral and "round 2, commit" in shown(table.status())


async def test_after_a_restart_the_stored_status_message_is_edited_without_searching(env, service, make_bot):
    table = await _started(env, service, "alice", "bob")
    status_id = table.status().id
    assert (await service.table_info(table.channel.id)).status_message_id == status_id

    await env.restart_bot(make_bot())
    calls = len(env.http_requests)
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    made = [(r.method, r.path) for r in env.http_requests[calls:]]
    assert ("GET", f"/channels/{table.channel.id}/messages") not in made, made  # no history scan
    assert ("PATCH", f"/channels/{table.channel.id}/messages/{status_id}") in made


async def test_the_settings_key_offers_the_long_game_settings(env, service):
    table = Table(env, "alice")
    await table.open("alice")
    offered = [
        c["value"] for c in await table["alice"].autocomplete(table.channel, "game settings", "key", "")
    ]
    assert {"on_expiry", "on_outage", "round_threads"} <= set(offered) and "extra" not in offered


async def test_the_host_moves_the_deadline_nudges_and_ends_the_phase(env, service, store):
    """The host's tools for a running game (/deadline)."""
    table = await _started(env, service, "alice", "bob", "carol")
    await table["alice"].slash(table.channel, "envoys commit", value=3)

    refused = await table["bob"].slash(table.channel, "deadline", hours=2)
    assert refused.ephemeral and "Only the host" in refused.response.content
    moved = await table["alice"].slash(table.channel, "deadline", hours=2)
    assert moved.ephemeral, moved.response.content
    assert await _deadline(store, table.channel.id) == env.now().timestamp() + 2 * HOUR
    assert any("The host moved the deadline" in m.content for m in table.channel.history())

    before = len(table.channel.history())
    nudged = await table["alice"].slash(table.channel, "deadline", nudge=True)
    assert "Nudged 2 players" in nudged.response.content
    pings = [m.content for m in table.channel.history()[before:]]
    for name in ("bob", "carol"):
        mine = [text for text in pings if table[name].mention in text]
        assert len(mine) == 1 and "commit" in mine[0], pings  # one mention each
    assert not any(table["alice"].mention in text for text in pings)
    assert not any("Commit 1, 2 or 3" in text for text in pings)  # the prompt's own words stay private

    ended = await table["alice"].slash(table.channel, "deadline", end_now=True)
    assert ended.ephemeral, ended.response.content
    assert "round 1, press" in shown(table.status())  # bob and carol got their default orders
    said = "\n".join(m.content for m in table.channel.history())
    assert "The host ended the phase now." in said and "Played for those who still owed: bob" in said
