"""Secret checks on the Discord side: what a member typed never pings anyone,
and a join preference names a nation of the game."""

from __future__ import annotations

import pytest

from .reading import shown
from .test_discord_e2e import Table, _started

pytestmark = pytest.mark.simcord


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
    assert "@everyone" not in shown(table.status()) and "bob" not in shown(table.status())
    joined = await table["bob"].slash(table.channel, "game join", preference="s2")
    assert joined.ephemeral and "bob" in shown(table.status())


async def test_discords_request_bodies_stay_out_of_the_log(env, service, caplog):
    import io
    import logging

    from bot.process.logsafe import protect

    stream = io.StringIO()
    handler = protect(logging.StreamHandler(stream))
    handler.setLevel(logging.DEBUG)
    caplog.set_level(logging.DEBUG)  # every logger at DEBUG, as log_level = "DEBUG" would
    caplog.set_level(logging.DEBUG, logger="discord")  # even were the cap on its level lifted
    logging.getLogger().addHandler(handler)
    try:
        table = await _started(env, service, "alice", "bob")
        committed = await table["alice"].slash(table.channel, "envoys commit", value=3)
        secret = "Your commit: 3"
        assert secret in committed.response.content or "You committed 3" in committed.response.content
    finally:
        logging.getLogger().removeHandler(handler)
    assert "You committed 3" not in stream.getvalue() and secret not in stream.getvalue()
    assert "You committed 3" in caplog.text  # without the filter it is there: the check is not vacuous


async def test_an_abandoned_game_is_exported_privately_and_without_its_secrets(env, service):
    import json

    table = await _started(env, service, "alice", "bob")
    await table["bob"].slash(table.channel, "envoys commit", value=2)
    seed = (await service.store.get_table(table.channel.id)).seed
    await table["alice"].slash(table.channel, "game abandon")
    exported = await table["bob"].slash(table.channel, "game export")
    assert exported.ephemeral and "abandoned" in exported.response.content
    (attachment,) = exported.response.attachments
    data = env.backend.cdn.get(attachment.url).decode()
    assert json.loads(data)["format"] == "chancellery-public-record/1"
    assert str(seed) not in data and "You committed 2" not in data
    assert str(seed) not in table.public_text()
