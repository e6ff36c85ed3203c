"""Turn notices sent by DM over a restart of the bot (bot/discord/private.py), end to end
with SimCord and the tiny test game "Envoys": the notice a player's DMs hold is kept in
the front end's rows, so a restarted bot still removes it once the player answers, edits
it to say "Decided" once a deadline's default takes it, and replaces it with the next
one: never left asking, never two live.
"""

from __future__ import annotations

import pytest

from bot.discord.private import NOTICE_GRACE

from .conftest import BotConfig
from .reading import shown
from .test_discord_e2e import _started

pytestmark = pytest.mark.simcord

DAY = 24 * 3600.0  # the tables' phase length in these tests (conftest.py)


def _notices(table, name: str) -> list:
    """The turn notices in the member's DMs: each opens with the game's name in bold (struck
    through once decided); reminders and private events do not."""
    dm = table[name].user.dm_channel
    return [m for m in dm.history() if m.content.startswith(("**Envoys", "~~**Envoys"))] if dm else []


async def _restarted(env, make_bot) -> None:
    await env.bot.close()  # SimCord's restart_bot detaches without closing; a real stop closes
    await env.restart_bot(make_bot(BotConfig()))


async def _noticed(env, service, make_bot):
    """A table where bob's commit notice went by DM, then the bot restarted."""
    table = await _started(env, service, "alice", "bob")
    await env.advance_time(NOTICE_GRACE)
    (notice,) = _notices(table, "bob")
    assert "Commit 1, 2 or 3" in notice.content and "**Decided**" not in notice.content
    await _restarted(env, make_bot)
    return table


async def test_the_notice_a_player_answers_after_a_restart_goes(env, service, make_bot):
    table = await _noticed(env, service, make_bot)
    await table["bob"].slash(table.channel, "envoys commit", value=2)
    await env.advance_time(1)
    assert _notices(table, "bob") == []


async def test_a_deadline_s_default_after_a_restart_says_decided_in_the_notice(env, service, make_bot):
    table = await _noticed(env, service, make_bot)
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    await env.advance_time(DAY)  # past the deadline: bob's default commit is played
    assert "round 1, press" in shown(table.status())
    (notice,) = _notices(table, "bob")
    assert "**Decided**" in notice.content and "~~" in notice.content
    assert notice.components == [] and not notice.attachments


async def test_the_next_notice_after_two_restarts_replaces_the_decided_one(env, service, make_bot):
    table = await _noticed(env, service, make_bot)
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    await env.advance_time(DAY)
    assert "**Decided**" in _notices(table, "bob")[0].content
    await _restarted(env, make_bot)
    await table["alice"].slash(table.channel, "envoys press")  # bob owes "ready" now
    await env.advance_time(NOTICE_GRACE)
    (notice,) = _notices(table, "bob")
    assert "Negotiate, then say ready" in notice.content and "**Decided**" not in notice.content
