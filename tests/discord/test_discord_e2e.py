"""End to end with SimCord (docs/architecture.md §6): the real bot, a simulated Discord,
a real table service over a temporary SQLite file. Played with the tiny test game "Envoys"."""

from __future__ import annotations

import discord
import pytest

from bot.discord.markup import markup
from bot.discord.private import NOTICE_GRACE
from bot.discord.views import CUSTOM_ID, LABEL

from .conftest import BotConfig
from .reading import layout_texts, shown

pytestmark = pytest.mark.simcord


class Table:
    """A guild channel with players, and ways to read what each of them can see."""

    def __init__(self, env, *names: str) -> None:
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("envoys")
        self.players = {n: self.guild.add_member(env.create_user(n)) for n in names}

    def __getitem__(self, name: str):
        return self.players[name]

    async def open(self, host: str = "alice", *others: str) -> None:
        result = await self[host].slash(self.channel, "game new", game="envoys")
        assert result.ephemeral, result.response
        for name in others:
            result = await self[name].slash(self.channel, "game join")
            assert result.ephemeral and "error" not in result.response.content.lower()

    def status(self) -> discord.Message:
        wanted = CUSTOM_ID.format(channel_id=self.channel.id)
        found = [
            m
            for m in self.channel.history()
            if any(getattr(c, "custom_id", None) == wanted for row in m.components for c in getattr(row, "children", []))
        ]
        assert len(found) == 1, f"expected one status message, found {len(found)}"
        return found[0]

    def dms(self, name: str) -> list[str]:
        return [m.content for m in self[name].user.dm_channel.history()]

    def public_text(self) -> str:
        texts = [shown(m) for m in self.channel.history()]
        for thread in self.channel.threads:
            texts += [shown(m) for m in thread.history()]
        return "\n".join(texts)


async def _started(env, service, *names: str) -> Table:
    table = Table(env, *names)
    await table.open(names[0], *names[1:])
    result = await table[names[0]].slash(table.channel, "game start")
    assert result.response.content.startswith("The game has started"), result.response.content
    return table


async def test_create_join_and_start_a_table_in_a_guild_channel(env, service):
    table = Table(env, "alice", "bob")
    await table.open("alice")
    assert "Envoys" in shown(table.status()) and "alice" in shown(table.status())

    joined = await table["bob"].slash(table.channel, "game join")
    assert joined.ephemeral
    assert "bob" in shown(table.status())

    started = await table["alice"].slash(table.channel, "game start")
    assert started.ephemeral and started.response.content.startswith("The game has started")
    info = await service.table_info(table.channel.id)
    assert info.status == "running"
    assert {s.user_id for s in info.seats} == {table["alice"].id, table["bob"].id}
    assert "round 1, commit" in shown(table.status())
    assert any("Envoys (test game)** begins" in shown(m) for m in table.channel.history())


async def test_a_secret_prompt_arrives_by_dm(env, service):
    table = await _started(env, service, "alice", "bob")
    assert table.dms("bob") == []  # a turn notice waits a little for the player to act
    await env.advance_time(NOTICE_GRACE)
    bob_dms = table.dms("bob")
    assert len(bob_dms) == 1 and "secret" in bob_dms[0] and "Commit 1, 2 or 3" in bob_dms[0]

    # The host's own prompt came in their ephemeral reply instead: they are looking at it.
    assert table.dms("alice") == []

    committed = await table["bob"].slash(table.channel, "envoys commit", value=3)
    assert committed.ephemeral and "You committed 3" in committed.response.content
    assert "You committed" not in table.public_text()
    assert "bob has committed" in shown(table.status()) or "s2 has committed" in shown(table.status())


async def test_a_member_with_closed_dms_gets_every_later_notice_by_mention(env, service):
    """After a DM fails, turn notices and reminders come as channel
    mentions naming no secret; the member is told once how to fix it; no DM is retried
    until they ask for DMs again with /game notify."""
    table = Table(env, "alice", "bob")
    bob = table["bob"]
    bob_dm = bob.user.dm_channel
    env.inject_error(
        "POST",
        f"/channels/{bob_dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )

    def dm_tries() -> int:
        return sum(1 for r in env.http_requests if r.method == "POST" and r.path == f"/channels/{bob_dm.id}/messages")

    def pings() -> list[str]:
        return [m.content for m in table.channel.history() if bob.mention in m.content]

    await table.open("alice", "bob")
    await table["alice"].slash(table.channel, "game start")
    await env.advance_time(NOTICE_GRACE)

    assert await service.notifications.dm_closed(bob.id)
    told = pings()
    assert len(told) == 1, told
    assert "/game notify mode:dm" in told[0] and "/game me" in told[0]
    assert "your turn in Envoys (test game): commit" in told[0]  # the failed notice rides along
    assert "Commit 1, 2 or 3" not in told[0]  # the secret prompt's own text stays private

    # Later notices: mentions, never a DM attempt, never the explanation again.
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    await table["bob"].slash(table.channel, "envoys commit", value=2)  # bob's own reply is ephemeral
    await table["alice"].slash(table.channel, "envoys press")
    await env.advance_time(NOTICE_GRACE)  # the diplomacy notice
    assert len(pings()) == 2 and "ready" in pings()[-1], pings()
    await env.advance_time(23 * 3600)  # the reminder an hour before the deadline falls due
    assert len(pings()) == 3 and "reminder" in pings()[-1], pings()
    assert dm_tries() == 1
    assert sum("/game notify" in text for text in pings()) == 1
    assert not any("You committed" in text or "Commit 1" in text for text in pings())

    # Asking for DMs again makes the bot try once more.
    asked = await bob.slash(table.channel, "game notify", mode="dm")
    assert "try direct messages again" in asked.response.content
    assert not await service.notifications.dm_closed(bob.id)
    await bob.slash(table.channel, "envoys ready")
    await table["alice"].slash(table.channel, "envoys ready")  # round 2: a commit notice for bob
    await env.advance_time(NOTICE_GRACE)
    assert dm_tries() == 2


async def test_the_persistent_button_still_answers_after_restart(env, service, make_bot):
    table = await _started(env, service, "alice", "bob")
    await table["bob"].slash(table.channel, "envoys commit", value=2)

    await env.restart_bot(make_bot())
    mine = await table["bob"].click(table.status(), label=LABEL)
    assert mine.ephemeral
    assert "Your commit: 2" in mine.response.content

    stranger = table.guild.add_member(env.create_user("carol"))
    refused = await stranger.click(table.status(), label=LABEL)
    assert refused.ephemeral and refused.response.content == "You are not seated at this table."

    # After the restart the same status message is found again and edited, not reposted.
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    assert "press" in shown(table.status())


async def test_a_deadline_fires_under_advance_time(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    assert "commit" in shown(table.status())

    await env.advance_time(23.5 * 3600)  # the one-hour reminder is due; the deadline is not
    assert any("Reminder" in text for text in table.dms("bob"))
    assert not any("Reminder" in text for text in table.dms("alice"))  # alice owes nothing
    assert "round 1, commit" in shown(table.status())

    await env.advance_time(3600)  # past the 24-hour deadline: bob's default commit is applied
    status = shown(table.status())
    assert "round 1, press" in status, status
    assert "Commits:" in table.public_text()


async def test_a_strangers_action_is_refused_privately_and_changes_nothing(env, service, store):
    table = await _started(env, service, "alice", "bob")
    carol = table.guild.add_member(env.create_user("carol"))
    before_status = shown(table.status())
    before_row = await store.get_table(table.channel.id)
    before_messages = len(table.channel.history())
    calls = len(env.http_requests)

    refused = await carol.slash(table.channel, "envoys commit", value=2)

    assert refused.ephemeral and refused.response.content == "You are not seated at this table."
    after_row = await store.get_table(table.channel.id)
    assert after_row.version == before_row.version and after_row.state == before_row.state
    assert shown(table.status()) == before_status
    assert len(table.channel.history()) == before_messages
    made = [r.path for r in env.http_requests[calls:]]
    assert len(made) == 1 and made[0].startswith("/interactions/"), made  # the private answer only


async def test_an_illegal_move_is_refused_with_the_engines_words(env, service):
    table = await _started(env, service, "alice", "bob")
    refused = await table["alice"].slash(table.channel, "envoys press")
    assert refused.ephemeral
    assert refused.response.content == "It is not the press phase."


async def test_only_the_host_or_manage_server_may_change_settings_or_abandon(env, service):
    table = Table(env, "alice", "bob", "dora")
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    table.players["dora"] = table.guild.add_member(env.create_user("dora2"), roles=[admins])
    await table.open("alice", "bob")

    refused = await table["bob"].slash(table.channel, "game settings", key="phase_hours", value="2")
    assert refused.ephemeral and "host" in refused.response.content.lower()
    shown = await table["bob"].slash(table.channel, "game settings")
    assert shown.ephemeral and "24" in shown.response.content

    changed = await table["dora"].slash(table.channel, "game settings", key="phase_hours", value="2")
    assert changed.ephemeral and "host" not in changed.response.content.lower()

    refused = await table["bob"].slash(table.channel, "game abandon")
    assert refused.ephemeral and (await service.table_info(table.channel.id)).status == "lobby"
    await table["dora"].slash(table.channel, "game abandon")
    assert (await service.table_info(table.channel.id)).status == "abandoned"


async def test_the_diplomacy_thread_opens_and_is_archived(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    await table["bob"].slash(table.channel, "envoys commit", value=2)
    await table["alice"].slash(table.channel, "envoys press")  # alice is round 1's first seat

    threads = table.channel.threads
    assert [t.name for t in threads] == ["Round 1 diplomacy"]
    due = int(env.now().timestamp()) + 24 * 3600  # diplomacy_minutes defaults to a day
    assert f"<t:{due}:F>" in threads[0].history()[-1].content
    info = await service.table_info(table.channel.id)
    assert info.thread_id == threads[0].id

    # A command typed in the thread acts on the table of its channel.
    await table["alice"].slash(threads[0], "envoys ready")
    await table["bob"].slash(threads[0], "envoys ready")
    thread = env.bot.get_channel(threads[0].id) or await env.bot.fetch_channel(threads[0].id)
    assert thread.archived
    assert (await service.table_info(table.channel.id)).thread_id is None
    assert "round 2, commit" in shown(table.status())


async def test_autocomplete_offers_the_games_choices(env, service):
    table = await _started(env, service, "alice", "bob")
    offered = await table["alice"].autocomplete(table.channel, "envoys commit", "value", "")
    assert [c["value"] for c in offered] == [1, 2, 3]
    games_offered = await table["alice"].autocomplete(table.channel, "game new", "game", "env")
    assert [c["value"] for c in games_offered] == ["envoys"]


async def test_commands_are_synced_to_the_dev_guild_when_configured(env, make_bot):
    guild = env.create_guild()
    await env.restart_bot(make_bot(BotConfig(dev_guild_id=guild.id)))
    paths = [r.path for r in env.http_requests if r.method == "PUT"]
    assert paths[-1].endswith(f"/guilds/{guild.id}/commands")


async def test_a_turn_notice_is_dropped_when_the_player_acts_within_the_grace(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["bob"].slash(table.channel, "envoys commit", value=2)
    await env.advance_time(NOTICE_GRACE)
    assert table.dms("bob") == []  # bob was playing: no DM for a turn he already took

    await table["alice"].slash(table.channel, "envoys commit", value=1)  # now alice owes press
    shown = await table["alice"].click(table.status(), label=LABEL)  # she looks at her view
    assert "**You owe**: Press or yield." in shown.response.content
    await env.advance_time(NOTICE_GRACE)
    assert table.dms("alice") == []


async def test_turn_notices_still_in_their_grace_wait_over_a_restart(env, service, make_bot):
    table = await _started(env, service, "alice", "bob")
    assert table.dms("bob") == []
    await env.bot.close()  # SimCord's restart_bot detaches without closing; a real stop closes
    assert table.dms("bob") == []  # not sent early: kept in the database
    await env.restart_bot(make_bot(BotConfig()))
    await env.advance_time(NOTICE_GRACE)
    assert len(table.dms("bob")) == 1  # sent once, when its grace was over


async def test_a_slow_answer_is_deferred_then_followed_up(env, service, monkeypatch):
    import asyncio

    from bot.discord import interact

    table = await _started(env, service, "alice", "bob")
    monkeypatch.setattr(interact, "DEFER_AFTER", 0.01)
    real_me = service.me

    async def slow_me(channel_id, user_id):
        await asyncio.sleep(30)  # a slow disk
        return await real_me(channel_id, user_id)

    monkeypatch.setattr(service, "me", slow_me)
    shown = await table["bob"].slash(table.channel, "game me")
    assert shown.deferred and shown.ephemeral and shown.followups == []
    await env.advance_time(30)
    assert "round 1, commit" in shown.response.content  # the follow-up fills the deferred answer


async def test_an_unexpected_failure_is_answered_with_an_apology(env, service, monkeypatch, caplog):
    from bot.discord.interact import APOLOGY

    table = await _started(env, service, "alice", "bob")

    async def broken(channel_id, reader=None):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(service, "status", broken)
    answered = await table["bob"].slash(table.channel, "game status")
    assert answered.ephemeral and answered.response.content == APOLOGY
    assert "database on fire" in caplog.text


async def test_a_failure_after_the_save_does_not_claim_the_table_is_unchanged(env, service, monkeypatch):
    from bot.discord.interact import APOLOGY, APOLOGY_SAVED

    table = await _started(env, service, "alice", "bob")

    async def broken(*args, **kwargs):
        raise RuntimeError("the automatic moves failed")

    monkeypatch.setattr(service.play, "autoplay", broken)  # runs after the action's save
    answered = await table["alice"].slash(table.channel, "envoys commit", value=2)
    assert answered.ephemeral and answered.response.content == APOLOGY_SAVED != APOLOGY
    assert [a.seat for a in await service.store.get_actions(table.channel.id)] == ["s1"]  # it stands


async def test_deadlines_that_passed_while_the_bot_was_down_are_processed_at_start_up(env, service, make_bot):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    env.bot._ticker_task.cancel()  # the bot is down: nothing watches the clock
    await env.advance_time(25 * 3600)
    assert "round 1, commit" in shown(table.status())

    await env.restart_bot(make_bot())
    assert "round 1, press" in shown(table.status())


async def test_a_late_delivery_never_shows_an_older_status(env, service):
    table = await _started(env, service, "alice", "bob")
    older = await service.command(table.channel.id, table["alice"].id, "commit", {"value": 1})
    await table["bob"].slash(table.channel, "envoys commit", value=2)  # the table moves on
    assert "round 1, press" in shown(table.status())

    with env.time_context():
        await env.bot.delivery.deliver(older)  # the first action's delivery finishes last
    assert "round 1, press" in shown(table.status())


async def test_no_private_line_ever_reaches_the_channel_or_a_thread(env, service, monkeypatch):
    from .test_api_budget import _play_whole_game

    table = await _started(env, service, "alice", "bob", "carol")
    private: list[str] = []
    deliver = env.bot.delivery.deliver

    async def recording(outbox, **kwargs):
        private.extend(markup(p.text) for p in outbox.posts if p.to == "seat")  # as a DM would say it
        if outbox.reply:
            private.append(markup(outbox.reply))
        await deliver(outbox, **kwargs)

    monkeypatch.setattr(env.bot.delivery, "deliver", recording)
    await _play_whole_game(env, service, table)

    public = table.public_text()
    assert any("You committed" in text for text in private)  # the game did have secrets
    leaked = [text for text in private if text.strip() and text in public]
    assert leaked == []


async def test_only_the_callers_own_commands_work_in_a_dm(env):
    stranger = env.create_user("dave")
    offered = stranger.available_commands()
    assert not any(name.startswith("envoys") for name in offered)
    assert {"game mine", "game notify"} <= set(offered)  # Discord offers the whole group there...
    refused = await stranger.slash("game status")  # ...so the table verbs refuse in a DM
    assert refused.ephemeral and "server channels" in refused.response.content
    assert [type(e).__name__ for e in env.errors] == ["NoPrivateMessage"]  # a refusal, not a crash


async def test_no_public_message_is_cut_what_does_not_fit_goes_on_in_another(env, service, store):
    """An action whose public events fill more than a message (a
    Congress's results at a full table) is never cut at 2,000 characters: its round
    summary goes on in further messages, each event whole."""
    from bot.service.outbox import Outbox, Post
    from bot.store import EventRow

    table = await _started(env, service, "alice", "bob")
    events = [f"Congress result {i}: Reparation {i} goes to nation {i % 6} " + "with details " * 6 for i in range(40)]
    thread_lines = [f"Thread line {i}: " + "words " * 20 for i in range(30)]
    row = await store.get_table(table.channel.id)
    await store.save(
        row, row.version, events=[EventRow(row.channel_id, None, None, "congress", e, 0.0) for e in events]
    )
    out = Outbox(
        channel_id=table.channel.id,
        posts=[Post(to="channel", text=e) for e in events] + [Post(to="thread", text=x) for x in thread_lines],
        status=lambda: "unused",
    )
    assert sum(len(e) for e in events) > 2 * 2000
    first = len(env.http_requests)
    await env.bot.delivery.deliver(out)

    # each message's text: plain, or the text displays of the status message's layout
    sent = [
        text
        for r in env.http_requests[first:]
        if r.method in ("POST", "PATCH") and isinstance(r.json, dict)
        for text in [r.json.get("content") or "", *layout_texts(r.json.get("components") or [])]
        if text
    ]
    assert all(len(text) <= 2000 for text in sent)
    everything = "\n".join(sent)
    for line in events + thread_lines:
        assert line.strip() in everything, line  # whole, not cut
    assert "round 1, commit" in shown(table.status())  # the status message is still the status
