"""Sign-ups end to end with SimCord: the lobby channel (Manage Server), a lobby table's entry
there through its life (posted, edited as seats fill, removed on start and on abandon),
watchers told (by DM, by mention, never about a table they cannot see), the directory
from a DM, and abandoned games in profiles."""

from __future__ import annotations

import discord
import pytest

from tests.discord.test_discord_e2e import Table

pytestmark = pytest.mark.simcord


@pytest.fixture(autouse=True)
def entries_never_fail(caplog):
    """No test here passes because an entry or a notice failed quietly."""
    yield
    failed = [
        r.getMessage() for r in caplog.records if r.name.startswith("bot.discord") and r.levelname != "INFO"
    ]
    assert not failed, failed


def _lobby(env, *names: str, admin: str = "dora"):
    """A server with a table channel, a lobby channel and members; `admin` manages it."""
    table = Table(env, *names)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    table.players[admin] = table.guild.add_member(env.create_user(admin), roles=[admins])
    lobby = table.guild.create_text_channel("lobby")
    return table, lobby


def _private(table, name: str, *members: str):
    """A channel only `members` (and the bot) may see."""
    overwrites = {table.guild.default_role: discord.PermissionOverwrite(view_channel=False)}
    overwrites[table.guild.me] = discord.PermissionOverwrite(view_channel=True)
    for member in members:
        overwrites[table[member]] = discord.PermissionOverwrite(view_channel=True)
    return table.guild.create_text_channel(name, overwrites=overwrites)


def _entries(lobby) -> list[str]:
    return [m.content for m in lobby.history()]


async def _set_lobby(table, lobby, who: str = "dora") -> str:
    done = await table[who].slash(table.channel, "community lobby", channel=lobby)
    return done.response.content


async def test_only_manage_server_chooses_the_lobby_channel(env, service):
    table, lobby = _lobby(env, "alice")
    refused = await table["alice"].slash(table.channel, "community lobby", channel=lobby)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    said = await _set_lobby(table, lobby)
    assert f"<#{lobby.id}>" in said
    stopped = await table["dora"].slash(table.channel, "community lobby")
    assert "no longer announced" in stopped.response.content
    closed = table.guild.create_text_channel(
        "closed", overwrites={table.guild.me: discord.PermissionOverwrite(send_messages=False)}
    )
    refused = await table["dora"].slash(table.channel, "community lobby", channel=closed)
    assert "I cannot post in" in refused.response.content
    assert await service.store.community.get_lobby(table.guild.id) is None


async def test_an_entry_is_posted_edited_as_seats_fill_and_removed_at_the_start(env, service):
    table, lobby = _lobby(env, "alice", "bob", "carol")
    await _set_lobby(table, lobby)
    await table.open("alice")
    (entry,) = _entries(lobby)
    assert "**Envoys (test game)**, hosted by alice: 1 of 4 seated (alice)" in entry
    assert "3 seats open. To take one, tap Join or use /game join in" in entry
    assert f"/game join in <#{table.channel.id}>" in entry
    assert "It can start with 2 players" in entry

    await table["bob"].slash(table.channel, "game join")
    (entry,) = _entries(lobby)  # the same message, edited
    assert "2 of 4 seated (alice, bob)" in entry and "2 seats open" in entry
    assert "It can start" not in entry
    await table["bob"].slash(table.channel, "game leave")
    (entry,) = _entries(lobby)
    assert "1 of 4 seated (alice)" in entry
    await table["carol"].slash(table.channel, "game join")

    await table["alice"].slash(table.channel, "game start")
    assert _entries(lobby) == []


async def test_an_abandoned_lobby_takes_its_entry_with_it_and_a_full_table_says_so(env, service):
    table, lobby = _lobby(env, "alice", "bob", "carol", "erin")
    await _set_lobby(table, lobby)
    await table.open("alice", "bob", "carol", "erin")
    (entry,) = _entries(lobby)
    assert "4 of 4 seated" in entry and "Full: waiting for alice to begin with /game start" in entry
    await table["alice"].slash(table.channel, "community rated", rated=False)
    assert "Not rated: its result moves no rating." in _entries(lobby)[0]
    await table["alice"].slash(table.channel, "game abandon")
    assert _entries(lobby) == []


async def test_a_table_in_a_private_channel_is_not_announced(env, service):
    table, lobby = _lobby(env, "alice", "bob")
    await _set_lobby(table, lobby)
    private = _private(table, "private-table", "alice")
    await table["alice"].slash(private, "game new", game="envoys")
    assert _entries(lobby) == []
    await table.open("bob")  # a public one is
    assert len(_entries(lobby)) == 1 and "hosted by bob" in _entries(lobby)[0]


async def test_setting_the_lobby_channel_announces_the_open_tables_and_clearing_it_removes_them(env, service):
    table, lobby = _lobby(env, "alice")
    await table.open("alice")
    assert _entries(lobby) == []
    await _set_lobby(table, lobby)
    assert len(_entries(lobby)) == 1
    await table["dora"].slash(table.channel, "community lobby")
    assert _entries(lobby) == []


async def test_a_watcher_is_told_once_by_dm_and_unwatch_stops_it(env, service):
    table, lobby = _lobby(env, "alice", "bob", "carol")
    await _set_lobby(table, lobby)
    watched = await table["bob"].slash(table.channel, "community watch", game="envoys")
    assert watched.ephemeral and "/community unwatch game:envoys" in watched.response.content
    await table["alice"].slash(table.channel, "community watch", game="envoys")  # the host herself

    await table.open("alice")
    told = [text for text in table.dms("bob") if "is open" in text]
    assert len(told) == 1, told
    assert "A table of **Envoys (test game)** is open on **" in told[0] and "hosted by alice" in told[0]
    assert f"/channels/{table.guild.id}/{table.channel.id}" in told[0] and "/game join" in told[0]
    assert not any("is open" in text for text in table.dms("alice"))  # the host is not told
    await table["carol"].slash(table.channel, "game join")  # a seat fills: nobody is told again
    assert len([text for text in table.dms("bob") if "is open" in text]) == 1

    await table["bob"].slash(table.channel, "community unwatch", game="envoys")
    second = table.guild.create_text_channel("second")
    await table["alice"].slash(second, "game new", game="envoys")
    assert len([text for text in table.dms("bob") if "is open" in text]) == 1


async def test_a_watcher_who_asked_for_mentions_is_mentioned_in_the_lobby_channel(env, service):
    table, lobby = _lobby(env, "alice", "bob")
    await _set_lobby(table, lobby)
    await table["bob"].slash(table.channel, "community watch", game="envoys")
    await table["bob"].slash(table.channel, "game notify", mode="mention")
    await table.open("alice")
    pings = [m.content for m in lobby.history() if table["bob"].mention in m.content]
    assert len(pings) == 1 and "a table of **Envoys (test game)**, a game you watch, is open" in pings[0]
    assert "hosted by alice" in pings[0]  # the ping is the entry's first line
    assert not any("is open" in text for text in table.dms("bob"))
    await table["alice"].slash(table.channel, "game abandon")
    assert _entries(lobby) == []  # the ping went with its entry: no stale link is left behind


async def test_a_watcher_with_no_lobby_channel_is_told_and_one_who_cannot_see_the_table_is_not(env, service):
    table = Table(env, "alice", "bob", "carol")
    for name in ("bob", "carol"):
        await table[name].slash(table.channel, "community watch", game="envoys")
    private = _private(table, "private-table", "alice", "bob")
    await table["alice"].slash(private, "game new", game="envoys")
    assert len([text for text in table.dms("bob") if "is open" in text]) == 1
    assert not any("is open" in text for text in table.dms("carol"))  # carol cannot open it
    assert not any("private-table" in text or str(private.id) in text for text in table.dms("carol"))


async def test_the_directory_from_a_dm_lists_every_shared_server_and_no_private_table(env, service):
    table = Table(env, "alice", "bob", "carol")
    other = env.create_guild("Other server")
    elsewhere = other.create_text_channel("elsewhere")
    other.add_member(table["alice"].user)
    private = _private(table, "private-table", "alice")
    await table.open("alice")
    await table["alice"].slash(private, "game new", game="envoys")
    frank = other.add_member(env.create_user("frank"))
    await frank.slash(elsewhere, "game new", game="envoys")

    mine = (await table["alice"].user.slash("community tables")).response.content
    assert "__Other server__" in mine and f"<#{elsewhere.id}>" in mine
    assert f"<#{table.channel.id}>" in mine and f"<#{private.id}>" in mine

    stranger = (await table["carol"].user.slash("community tables")).response.content
    assert f"<#{table.channel.id}>" in stranger
    assert f"<#{private.id}>" not in stranger and f"<#{elsewhere.id}>" not in stranger
    assert "Other server" not in stranger


async def test_a_profile_counts_an_abandoned_game_after_the_channel_has_a_new_table(env, service):
    table = Table(env, "alice", "bob")
    await table.open("alice", "bob")
    await table["alice"].slash(table.channel, "game start")
    await table["alice"].slash(table.channel, "game abandon")
    await table["alice"].slash(table.channel, "game new", game="envoys")  # the abandoned row is replaced
    seen = (
        await table["bob"].slash(table.channel, "community profile", member=table["alice"])
    ).response.content
    assert "**Envoys (test game)**: 1 abandoned." in seen and "0 " not in seen
    board = await table["bob"].slash(table.channel, "community leaderboard", game="envoys")
    assert "Nobody has a rating" in board.response.content


async def test_a_watcher_whose_dms_are_closed_is_mentioned_in_the_lobby_instead(env, service):
    table, lobby = _lobby(env, "alice", "bob")
    await _set_lobby(table, lobby)
    await table["bob"].slash(table.channel, "community watch", game="envoys")
    await service.notifications.mark_dm_closed(table["bob"].id)  # known from an earlier table
    await table.open("alice")
    pings = [m.content for m in lobby.history() if table["bob"].mention in m.content]
    assert len(pings) == 1 and "/game join in" in pings[0]
    assert not any("is open" in text for text in table.dms("bob"))


async def test_after_a_restart_the_same_entry_is_edited(env, service, make_bot):
    table, lobby = _lobby(env, "alice", "bob")
    await _set_lobby(table, lobby)
    await table.open("alice")
    (first,) = lobby.history()
    await env.restart_bot(make_bot())
    await table["bob"].slash(table.channel, "game join")
    (entry,) = lobby.history()
    assert entry.id == first.id and "2 of 4 seated (alice, bob)" in entry.content
