"""Issue 11, secret checks on the Discord side: what a member typed never pings anyone,
and a join preference names a nation of the game."""

from __future__ import annotations

from .test_discord_e2e import Table, _started


async def test_no_reply_that_echoes_a_members_text_pings_anyone(env, service):
    assert env.bot.allowed_mentions.everyone is False
    assert env.bot.allowed_mentions.roles is False and env.bot.allowed_mentions.users is False
    table = await _started(env, service, "alice", "bob")
    echoed = await table["alice"].slash(table.channel, "game settings", key="@everyone", value="x")
    assert "@everyone" in echoed.response.content  # the text is echoed...
    assert echoed.response.message.mention_everyone is False  # ...and pings nobody


async def test_a_join_preference_that_names_no_nation_is_refused(env, service):
    table = Table(env, "alice", "bob")
    await table.open("alice")
    refused = await table["bob"].slash(table.channel, "game join", preference="@everyone")
    assert refused.ephemeral and "has no nation or seat called" in refused.response.content
    assert "Choose one of: s1, s2, s3, s4" in refused.response.content
    assert refused.response.message.mention_everyone is False
    assert "@everyone" not in table.status().content and "bob" not in table.status().content
    joined = await table["bob"].slash(table.channel, "game join", preference="s2")
    assert joined.ephemeral and "bob" in table.status().content
