"""The Join buttons end to end with SimCord (bot/discord/join_view.py): a member taps Join on
a table's lobby-channel entry and is seated, at once where no nation can be asked for, after
choosing a nation where one can; a member who cannot open the table's channel is refused;
the directory's buttons seat the caller too; a watcher's mention, the entry's first line,
goes with the entry when the table starts; and the buttons survive a restart."""

from __future__ import annotations

import discord
import pytest

from tests import tinygame
from tests.community.discord.test_signups import _entries, _lobby, _set_lobby

pytestmark = pytest.mark.simcord


@pytest.fixture(autouse=True)
def taps_never_fail(caplog):
    """No test here passes because a tap or an entry failed quietly."""
    yield
    failed = [
        r.getMessage() for r in caplog.records if r.name.startswith("bot.discord") and r.levelname != "INFO"
    ]
    assert not failed, failed


@pytest.fixture
def dealt_at_random(monkeypatch):
    """The tiny game deals its seats at random, as Origins does: no nation to ask for."""
    monkeypatch.setattr(tinygame.GAME, "nation_choice", "random")


def _entry(lobby) -> discord.Message:
    (message,) = list(lobby.history())
    return message


def _labels(message) -> list[str]:
    """The labels of a message's buttons (a response's components are raw dicts)."""
    out = []
    for row in message.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        out += [c.get("label") if isinstance(c, dict) else c.label for c in children]
    return out


async def _seated(service, channel_id: int) -> dict[str, str | None]:
    """Who sits at the table, with the nation each asked for."""
    t = await service.load(channel_id)
    return {s.name: s.preference for s in t.seats}


async def test_one_tap_on_the_lobby_entry_seats_a_member_when_no_nation_can_be_asked_for(
    env, service, dealt_at_random
):
    table, lobby = _lobby(env, "alice", "bob")
    await _set_lobby(table, lobby)
    await table.open("alice")
    assert _labels(_entry(lobby)) == ["Join"]

    tapped = await table["bob"].click(_entry(lobby), label="Join")
    assert tapped.ephemeral
    assert tapped.response.content.startswith("You are seated.")
    assert f"Your table: <#{table.channel.id}>" in tapped.response.content
    assert await _seated(service, table.channel.id) == {"alice": None, "bob": None}
    assert "2 of 4 seated (alice, bob)" in _entry(lobby).content  # the entry followed
    assert "preference:" not in _entry(lobby).content  # no nation to ask for: no hint

    again = await table["bob"].click(_entry(lobby), label="Join")
    assert "You are already seated at this table" in again.response.content
    assert len(await _seated(service, table.channel.id)) == 2


async def test_where_a_nation_can_be_asked_for_the_tap_offers_the_nations_first(env, service):
    table, lobby = _lobby(env, "alice", "bob", "carol")
    await _set_lobby(table, lobby)
    await table.open("alice")
    assert "(add preference: and a nation to ask for one)" in _entry(lobby).content

    offered = await table["bob"].click(_entry(lobby), label="Join")
    assert offered.ephemeral and "which nation would you like?" in offered.response.content
    assert _labels(offered.response) == ["s1", "s2", "Any nation"]
    assert await _seated(service, table.channel.id) == {"alice": None}  # not yet seated

    chose = await table["bob"].click(offered.response, label="s2")
    assert chose.response.content.startswith("You are seated. Your preference “s2” is noted.")
    assert await _seated(service, table.channel.id) == {"alice": None, "bob": "s2"}

    offered = await table["carol"].click(_entry(lobby), label="Join")
    anyone = await table["carol"].click(offered.response, label="Any nation")
    assert anyone.response.content.startswith("You are seated.")
    assert await _seated(service, table.channel.id) == {"alice": None, "bob": "s2", "carol": None}


async def test_a_member_who_cannot_open_the_tables_channel_is_refused(env, service, dealt_at_random):
    table, lobby = _lobby(env, "alice", "erin")
    await _set_lobby(table, lobby)
    await table.open("alice")
    entry = _entry(lobby)
    # the table's channel is closed to erin after its entry was posted
    guild = env.bot.get_guild(table.guild.id)
    erin = await guild.fetch_member(table["erin"].id)
    await guild.get_channel(table.channel.id).set_permissions(erin, overwrite=discord.PermissionOverwrite(view_channel=False))
    refused = await table["erin"].click(entry, label="Join")
    assert refused.ephemeral and "You cannot open that table's channel" in refused.response.content
    assert f"{table.channel.id}" not in refused.response.content
    assert await _seated(service, table.channel.id) == {"alice": None}


async def test_the_directory_offers_a_join_button_for_each_table_with_a_free_seat(env, service, dealt_at_random):
    table, lobby = _lobby(env, "alice", "bob")
    await table.open("alice")
    listed = await table["bob"].slash(lobby, "community tables")
    assert "hosted by alice" in listed.response.content and "gathering players" in listed.response.content
    assert _labels(listed.response) == ["Join Envoys (test game) #envoys"]

    await table["bob"].click(listed.response, label="Join Envoys (test game) #envoys")
    assert "bob" in await _seated(service, table.channel.id)
    mine = await table["bob"].slash(lobby, "community tables")
    assert "You are seated." in mine.response.content and "/game join" not in mine.response.content
    assert not mine.response.components  # nothing to join for the one already seated


async def test_a_watchers_mention_goes_with_the_entry_when_the_table_starts(env, service, dealt_at_random):
    table, lobby = _lobby(env, "alice", "bob", "carol")
    await _set_lobby(table, lobby)
    await table["carol"].slash(table.channel, "community watch", game="envoys")
    await table["carol"].slash(table.channel, "game notify", mode="mention")
    await table.open("alice")
    assert _entry(lobby).content.startswith(f"{table['carol'].mention}: a table of **Envoys (test game)**")

    await table["bob"].click(_entry(lobby), label="Join")
    await table["alice"].slash(table.channel, "game start")
    assert _entries(lobby) == []  # entry and mention gone: no link left to the channel's next table
    assert not any(table["carol"].mention in m.content for m in lobby.history())


async def test_the_join_button_works_after_a_restart(env, service, make_bot, dealt_at_random):
    table, lobby = _lobby(env, "alice", "bob")
    await _set_lobby(table, lobby)
    await table.open("alice")
    await env.restart_bot(make_bot())
    tapped = await table["bob"].click(_entry(lobby), label="Join")
    assert tapped.response.content.startswith("You are seated.")
    assert "bob" in await _seated(service, table.channel.id)


async def test_a_watchers_dm_carries_a_join_button_that_seats_them_from_the_dm(env, service, dealt_at_random):
    table, lobby = _lobby(env, "alice", "bob")
    await table["bob"].slash(table.channel, "community watch", game="envoys")
    await table.open("alice")  # no lobby channel: the DM is all bob gets
    (notice,) = [m for m in table["bob"].user.dm_channel.history() if "is open" in m.content]
    assert "tap Join below or use /game join in" in notice.content and _labels(notice) == ["Join"]
    tapped = await table["bob"].user.click(notice, label="Join")
    link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}"
    assert tapped.response.content.startswith("You are seated.") and f"Your table: {link}" in tapped.response.content
    assert "bob" in await _seated(service, table.channel.id)


async def test_a_full_tables_entry_has_no_join_button(env, service, dealt_at_random):
    table, lobby = _lobby(env, "alice", "bob", "carol", "erin")
    await _set_lobby(table, lobby)
    await table.open("alice", "bob", "carol")
    assert _labels(_entry(lobby)) == ["Join"]
    await table["erin"].click(_entry(lobby), label="Join")
    assert "Full: waiting for alice" in _entry(lobby).content and _labels(_entry(lobby)) == []
