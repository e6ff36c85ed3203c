"""Turn notices a player acts on (docs/rulings.md, Discord adapter 29), end to end with
SimCord and the tiny test game "Envoys":

- a notice names the game, the channel and the server in words, with a link to the table;
- once the player acts the notice goes (their answer says what they did); a decision taken
  without them (a default, a standing order, an automatic seat) is edited into the
  notice, its buttons gone;
- the next decision's notice replaces the last one: one notice per table in the DMs;
- a notice whose decision was taken without the player before it went is never sent.
"""

from __future__ import annotations

import pytest

from bot.discord.private import NOTICE_GRACE

from .test_discord_e2e import _started

pytestmark = pytest.mark.simcord


def _link(table) -> str:
    return f"https://discord.com/channels/{table.guild.id}/{table.channel.id}"


def _notices(table, name: str) -> list:
    dm = table[name].user.dm_channel
    return [m for m in dm.history() if "Commit 1, 2 or 3" in m.content] if dm is not None else []


async def test_a_notice_names_its_table_and_goes_once_the_player_acts(env, service):
    table = await _started(env, service, "alice", "bob")
    await env.advance_time(NOTICE_GRACE)
    (notice,) = _notices(table, "bob")
    assert f"Envoys (test game) in #{table.channel.name} on {table.guild.name}" in notice.content
    assert _link(table) in notice.content and "<#" not in notice.content

    await table["bob"].slash(table.channel, "envoys commit", value=2)  # his answer says what he did
    await env.advance_time(1)
    assert _notices(table, "bob") == []


async def test_a_notice_taken_without_the_player_says_it_was_decided(env, service):
    table = await _started(env, service, "alice", "bob")
    await env.advance_time(NOTICE_GRACE)
    assert len(_notices(table, "bob")) == 1
    # the host hands bob's seat to the automatic player, which commits for him
    await table["alice"].slash(table.channel, "game bot", on=True, seat="s2")
    await env.advance_time(1)
    (notice,) = _notices(table, "bob")
    assert "**Decided**" in notice.content and "~~" in notice.content
    assert notice.components == [] and not notice.attachments
    assert _link(table) in notice.content  # the table it was about is still named


async def test_the_next_decision_replaces_the_last_notice(env, service):
    table = await _started(env, service, "alice", "bob")
    await env.advance_time(NOTICE_GRACE)
    assert len(_notices(table, "bob")) == 1
    await table["bob"].slash(table.channel, "envoys commit", value=1)
    await table["alice"].slash(table.channel, "envoys commit", value=3)
    await table["alice"].slash(table.channel, "envoys press")  # the round's first seat
    await env.advance_time(NOTICE_GRACE)  # diplomacy: bob owes "ready" now
    dm = table["bob"].user.dm_channel
    notices = [m for m in dm.history() if _link(table) in m.content]
    assert len(notices) == 1, [n.content for n in notices]
    assert "Negotiate, then say ready" in notices[0].content and "**Decided**" not in notices[0].content


async def test_a_notice_for_a_decision_taken_meanwhile_is_not_sent(env, service, store):
    table = await _started(env, service, "alice", "bob")
    # bob's decision is taken for him before the notice's grace is over: an automatic
    # seat (as a deadline's default or a standing order would) plays it
    await table["alice"].slash(table.channel, "game bot", on=True, seat="s2")
    await env.advance_time(NOTICE_GRACE)
    assert _notices(table, "bob") == []
