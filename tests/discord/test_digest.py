"""The daily digest end to end with SimCord: `/game notify digest:` in a channel, the turn
notice it holds back, and the one DM at the chosen time, which reaches the member alone."""

from __future__ import annotations

import pytest

from bot.discord.private import NOTICE_GRACE

from .test_discord_e2e import Table

pytestmark = pytest.mark.simcord

HOUR = 3600.0
# SimCord's clock starts at Thursday 1 January 2026, 00:00 UTC; a phase lasts 24 hours


async def test_the_digest_dm_reaches_only_its_member_and_holds_back_the_notices(env, service):
    table = Table(env, "alice", "bob", "carol")
    await table.open("alice", "bob")
    bad = await table["bob"].slash(table.channel, "game notify", digest="noon")
    assert bad.ephemeral and "Give the digest time as HH:MM, e.g. 08:00" in bad.response.content
    asked = await table["bob"].slash(table.channel, "game notify", timezone="Europe/Vienna", digest="13:00")
    assert asked.ephemeral
    assert "Your digest comes daily at 13:00 Europe/Vienna" in asked.response.content
    started = await table["alice"].slash(table.channel, "game start")
    assert started.response.content.startswith("The game has started")

    await env.advance_time(NOTICE_GRACE)
    assert table.dms("bob") == []  # due tomorrow 00:00, after today's 13:00 digest: it waits
    assert table.dms("alice") == [] and not any("Commit" in m for m in table.dms("carol"))

    await env.advance_time(12 * HOUR)  # 12:01 UTC, 13:01 in Vienna
    (digest,) = table.dms("bob")
    assert digest.startswith("**Your daily digest** (13:00 Europe/Vienna), 1 table:")
    link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}"
    assert f"**Envoys (test game)** in <#{table.channel.id}> ({link}), as " in digest
    assert "- You owe commit, due Friday 2 January, 01:00." in digest  # midnight UTC, in Vienna
    assert table.dms("alice") == [] and table.dms("carol") == []  # nobody else hears of it
    assert "daily digest" not in table.public_text()

    await env.advance_time(6 * HOUR)  # the same day again: no second digest
    assert len([m for m in table.dms("bob") if "daily digest" in m]) == 1
