"""`/game export format:html` in a simulated Discord (SimCord): the page is attached for the
channel after the end, and refused privately before it."""

from __future__ import annotations

import re

import pytest

from bot.discord import create_bot
from bot.service.tables import TableService
from bot.store import open_store
from tests.discord.conftest import BotConfig, SimClock

pytestmark = pytest.mark.simcord


@pytest.fixture
def clock() -> SimClock:
    return SimClock()


@pytest.fixture
async def service(tmp_path, clock):
    store = await open_store(tmp_path / "tables.sqlite3")
    yield TableService(store, clock=clock, draw_pictures=False)
    await store.close()


@pytest.fixture
def simcord_bot(service):
    return create_bot(BotConfig(), service)


@pytest.fixture
def env(simcord_env, clock):
    clock.env = simcord_env
    return simcord_env


@pytest.mark.parametrize("defer_after", [30.0, 0.0], ids=["answered-at-once", "deferred"])
async def test_game_export_format_html_attaches_the_page_once_the_game_is_over(
    env, service, monkeypatch, defer_after
):
    guild = env.create_guild()
    channel = guild.create_text_channel("crisis")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))  # watches the channel, seated nowhere
    await service.lobby.create(channel.id, guild.id, "crisis1914", alice.id, "alice")
    for _ in range(2):
        await service.controls.set_automatic(channel.id, alice.id, None, True)
    await service.lobby.start(channel.id, alice.id, seed=5)

    monkeypatch.setattr("bot.discord.interact.DEFER_AFTER", defer_after)
    early = await alice.slash(channel, "game export", format="html")
    assert early.ephemeral and "The replay page comes when the game ends" in early.response.content
    assert not early.response.attachments

    await service.controls.set_automatic(channel.id, alice.id, "alice", True)  # played to the end
    assert (await service.table_info(channel.id)).status == "finished"
    await alice.slash(channel, "game export", format="html")
    # for everyone in the channel, whether the answer came at once or after a deferral
    (attachment,) = [
        a for m in channel.history(viewer=bob) for a in m.attachments if a.filename.endswith(".html")
    ]
    assert re.fullmatch(r"Crisis-1914 #crisis \d{4}-\d{2}-\d{2}\.html", attachment.filename)  # named for people
    data = env.backend.cdn.get(attachment.url)
    assert data.startswith(b"<!DOCTYPE html>") and b"alice" in data

    record = await alice.slash(channel, "game export")  # JSON stays the default
    (attachment,) = record.response.attachments
    assert attachment.filename.endswith(".json")
