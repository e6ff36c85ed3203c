"""/community end to end with SimCord: a game finished in a channel a member cannot open is
nowhere in what that member reads (bot/service/audience.py), and all of it is there for a
member who can open it."""

from __future__ import annotations

import discord
import pytest

from tests.discord.test_discord_e2e import Table
from tests.discord.test_long_games import _play_to_the_end

pytestmark = pytest.mark.simcord


async def test_a_game_finished_in_a_private_channel_is_nowhere_in_what_carol_reads(env, service):
    table = Table(env, "alice", "bob", "carol")
    lounge, guild = table.channel, table.guild
    table.channel = guild.create_text_channel(
        "secret-table",
        overwrites={
            guild.default_role: discord.PermissionOverwrite(view_channel=False),
            guild.me: discord.PermissionOverwrite(view_channel=True),
            table["alice"]: discord.PermissionOverwrite(view_channel=True),
            table["bob"]: discord.PermissionOverwrite(view_channel=True),
        },
    )
    await table.open("alice", "bob")
    started = await table["alice"].slash(table.channel, "game start")
    assert started.response.content.startswith("The game has started"), started.response.content
    await _play_to_the_end(env, service, table)
    carol, bob = table["carol"], table["bob"]

    listed = (await bob.slash(lounge, "community history")).response.content
    assert "**#1 " in listed and f"/{table.channel.id}" in listed and "alice" in listed

    async def carol_reads(command: str, **options) -> discord.Message:
        result = await carol.slash(lounge, command, **options)
        assert result.ephemeral
        return result.response

    assert "No finished games yet." in (await carol_reads("community history")).content
    assert "No finished games yet." in (await carol_reads("community history", member=bob)).content
    one = await carol_reads("community history", id=1)
    assert "no finished game #1" in one.content and not one.attachments
    board = (await carol_reads("community leaderboard", game="envoys")).content
    assert "Nobody has a rating" in board and "alice" not in board
    profile = (await carol_reads("community profile", member=bob)).content
    assert "No finished or abandoned games" in profile and f"{table.channel.id}" not in profile
    tables = (await carol_reads("community tables")).content
    assert f"{table.channel.id}" not in tables

    record = await bob.slash(lounge, "community history", id=1)
    assert "alice as s" in record.response.content and record.response.attachments
