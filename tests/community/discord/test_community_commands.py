"""/community end to end with SimCord: history, leaderboard, profile, mydata, forget,
the table directory and what a stranger sees of it, rated tables."""

from __future__ import annotations

import json
from datetime import UTC

import discord
import pytest

from tests.discord.test_discord_e2e import Table, _started
from tests.discord.test_long_games import _play_to_the_end

pytestmark = pytest.mark.simcord


def _attached(env, result) -> bytes:
    (attachment,) = result.response.attachments
    return env.backend.cdn.get(attachment.url)


async def _finished(env, service, *names: str) -> Table:
    table = await _started(env, service, *names)
    await _play_to_the_end(env, service, table)
    return table


async def test_history_lists_the_finished_game_and_one_game_comes_with_its_record(env, service):
    table = await _finished(env, service, "alice", "bob")
    listed = await table["bob"].slash(table.channel, "community history")
    text = listed.response.content
    assert listed.ephemeral and "Envoys (test game)" in text and "Won by" in text
    assert "alice" in text and "bob" in text and f"/channels/{table.guild.id}/{table.channel.id}" in text
    assert "#1" in text and "/community history id: and its number, e.g. id:1" in text

    one = await table["bob"].slash(table.channel, "community history", id=1)
    assert " as s1: " in one.response.content and "replay page is attached" in one.response.content
    (attachment,) = one.response.attachments
    day = f"{env.now().astimezone(UTC):%Y-%m-%d}"  # the game ended just now
    assert attachment.filename == f"Envoys (test game) #envoys {day}.html"
    assert b"<html" in _attached(env, one).lower()  # the page, as /game export format:html makes it

    await table["alice"].slash(table.channel, "game new", game="envoys")  # the channel's next table
    later = await table["bob"].slash(table.channel, "community history", id=1)
    assert "archive's record (JSON) is attached" in later.response.content
    (attachment,) = later.response.attachments
    assert attachment.filename.endswith(".json") and "#envoys" in attachment.filename
    record = json.loads(_attached(env, later))
    assert record["format"] == "chancellery-finished-game/1"
    assert {s["player"] for s in record["seats"]} == {"alice", "bob"}

    mine = await table["bob"].slash(table.channel, "community history", member=table["alice"])
    assert "#1" in mine.response.content
    other = await table["bob"].slash(table.channel, "community history", game="envoys", page=2)
    assert "No finished games" in other.response.content


async def test_the_leaderboard_ranks_both_players_and_a_hidden_profile_leaves_it(env, service):
    table = await _finished(env, service, "alice", "bob")
    board = await table["alice"].slash(table.channel, "community leaderboard", game="envoys")
    text = board.response.content
    assert "Envoys (test game) leaderboard" in text and " · 1 game" in text
    assert "\n\n-# A rating starts at 0" in text  # the footnote is not part of the list above it
    assert "alice" in text and "bob" in text

    hid = await table["alice"].slash(table.channel, "community profile", hidden=True)
    assert "hidden" in hid.response.content
    board = await table["bob"].slash(table.channel, "community leaderboard", game="envoys")
    assert "alice" not in board.response.content and "bob" in board.response.content


async def test_a_profile_counts_games_and_says_what_a_member_owes_now(env, service):
    table = await _finished(env, service, "alice", "bob")
    second = table.guild.create_text_channel("second")
    await table["alice"].slash(second, "game new", game="envoys")
    await table["bob"].slash(second, "game join")
    await table["alice"].slash(second, "game start")

    seen = await table["bob"].slash(table.channel, "community profile", member=table["alice"])
    text = seen.response.content
    assert "**alice**" in text and "**Envoys (test game)**: 1 finished" in text and "1 played" not in text
    assert "Answer time: not enough data yet." in text  # SimCord's clock stood still through the game
    assert f"<#{second.id}>" in text and "owes commit" in text
    assert "Your commit" not in text  # nothing private


async def test_mydata_gives_a_file_and_forget_anonymises_the_finished_game(env, service, store):
    table = await _finished(env, service, "alice", "bob")
    data = await table["alice"].slash(table.channel, "community mydata")
    mine = json.loads(_attached(env, data))
    assert mine["format"] == "chancellery-member-data/1" and len(mine["finished_games"]) == 1
    assert mine["finished_games"][0]["name"] == "alice"

    refused = await table["alice"].slash(table.channel, "community forget", confirm="yes")
    assert "Nothing was removed" in refused.response.content
    done = await table["alice"].slash(table.channel, "community forget", confirm="me")
    assert "a former member" in done.response.content
    listed = await table["bob"].slash(table.channel, "community history")
    assert "alice" not in listed.response.content and "a former member" in listed.response.content
    again = json.loads(_attached(env, await table["alice"].slash(table.channel, "community mydata")))
    assert again["finished_games"] == [] and again["ratings"] == []


async def test_forget_keeps_a_running_seat_under_a_former_member(env, service):
    table = await _started(env, service, "alice", "bob")
    await table["alice"].slash(table.channel, "community forget", confirm="me")
    info = await service.table_info(table.channel.id)
    assert {s.name for s in info.seats} == {"a former member", "bob"}
    played = await table["alice"].slash(table.channel, "envoys commit", value=2)
    assert "You committed 2" in played.response.content  # the seat is still theirs to play


async def test_the_directory_lists_what_a_member_may_see_and_no_private_table(env, service):
    table = Table(env, "alice", "bob", "carol")
    everyone = table.guild.default_role
    private = table.guild.create_text_channel(
        "secret-table",
        overwrites={
            everyone: discord.PermissionOverwrite(view_channel=False),
            table.guild.me: discord.PermissionOverwrite(view_channel=True),  # the bot plays there
            table["alice"]: discord.PermissionOverwrite(view_channel=True),
            table["bob"]: discord.PermissionOverwrite(view_channel=True),
        },
    )
    await table.open("alice")  # the open table, one seat taken
    await table["alice"].slash(private, "game new", game="envoys")
    await table["bob"].slash(private, "game join")
    await table["alice"].slash(private, "game start")

    seen = (await table["bob"].slash(table.channel, "community tables")).response.content
    assert f"<#{table.channel.id}>" in seen and "gathering players, 1 of 4 seated. 3 open: /game join" in seen
    assert "hosted by alice" in seen and "You play s2." in seen  # bob sits at the private table
    assert f"<#{private.id}>" in seen and "waiting for" in seen

    stranger = (await table["carol"].slash(table.channel, "community tables")).response.content
    assert f"<#{table.channel.id}>" in stranger and f"<#{private.id}>" not in stranger
    assert "secret" not in stranger and "bob" not in stranger
    profile = (await table["carol"].slash(table.channel, "community profile", member=table["bob"])).response.content
    assert f"<#{private.id}>" not in profile

    only_open = (await table["bob"].slash(table.channel, "community tables", open_seat=True)).response.content
    assert f"<#{table.channel.id}>" in only_open and f"<#{private.id}>" not in only_open


async def test_only_the_host_marks_a_table_not_rated_before_it_starts(env, service, store):
    table = Table(env, "alice", "bob")
    await table.open("alice", "bob")
    refused = await table["bob"].slash(table.channel, "community rated", rated=False)
    assert "Only the host" in refused.response.content
    done = await table["alice"].slash(table.channel, "community rated", rated=False)
    assert "not rated" in done.response.content
    listed = (await table["bob"].slash(table.channel, "community tables")).response.content
    assert "Not rated" in listed
    await table["alice"].slash(table.channel, "game start")
    await _play_to_the_end(env, service, table)
    board = await table["alice"].slash(table.channel, "community leaderboard", game="envoys")
    assert "Nobody has a rating" in board.response.content
    history = await table["alice"].slash(table.channel, "community history")
    assert "· not rated" in history.response.content


async def test_server_commands_are_refused_in_a_dm_and_mydata_works_there(env, service):
    stranger = env.create_user("dave")
    refused = await stranger.slash("community leaderboard", game="envoys")
    assert refused.ephemeral and "use it there" in refused.response.content
    assert [type(e).__name__ for e in env.errors] == ["NoPrivateMessage"]  # a refusal, not a crash
    data = await stranger.slash("community mydata")
    assert json.loads(_attached(env, data))["finished_games"] == []
    tables = await stranger.slash("community tables")  # every server they share with the bot: none
    assert "You share no server with tables with me" in tables.response.content
