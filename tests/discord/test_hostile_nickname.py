"""A member whose display name is written to break a message (a mention, markdown, a
spoiler, a masked link, @everyone) appears in the channel exactly as typed: escaped in the
lobby card, the status message and the final standings, pinging nobody (bot.render.escape)."""

from __future__ import annotations

import pytest

from bot.render import escape
from tests.discord.test_discord_e2e import Table, shown
from tests.discord.test_long_games import _play_to_the_end

pytestmark = pytest.mark.simcord

HOSTILE = "<@123> **bold** ||spoiler|| [x](https://evil.example) @everyone"
LIVE = ("<@123>", "**bold**", "||spoiler||", "[x](", "@everyone")


def _channel_text(table: Table) -> str:
    return "\n".join(shown(m) for m in table.channel.history())


async def test_a_hostile_display_name_is_shown_as_typed_in_the_channel(env, service):
    table = Table(env, "alice", HOSTILE)
    await table.open("alice", HOSTILE)
    lobby = shown(table.status())
    assert escape(HOSTILE) in lobby
    started = await table["alice"].slash(table.channel, "game start")
    assert started.response.content.startswith("The game has started")
    await _play_to_the_end(env, service, table)
    text = _channel_text(table)
    assert escape(HOSTILE) in text and "Final standings" in text
    for live in LIVE:
        assert live not in lobby and live not in text, live
