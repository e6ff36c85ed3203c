"""One save of the table per acknowledged action in a whole game through SimCord
(docs/architecture.md §3, "The path of one action").

What Discord answered while the actions were delivered (the status message, the phase
threads, where each round summary starts) is kept in the front end's own rows
(bot/service/front_rows.py), never as a new version of the table: every save counted
here records exactly one action, and the lobby adds one save per join and one for the
start. A Crisis: 1914 game of two players opens and archives a thread every Week and
moves its status message below each finished summary, so each of those would show here
as a save with no action.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.discord import create_bot
from bot.service.front_rows import SUMMARY

from .conftest import BotConfig
from .whole_crisis import GAME, MAX_ACTIONS, PLAYERS, next_action, started

pytestmark = pytest.mark.simcord

@pytest.fixture
def simcord_bot(service):
    return create_bot(BotConfig(), service)  # the real registry (conftest narrows it to a test game)


@pytest.fixture
def draw_pictures() -> bool:
    return False  # saves are counted, not pictures: a picture per status change only slows it


async def test_a_whole_crisis_game_saves_the_table_once_per_action(env, store, service, monkeypatch, capsys):
    saved: list[int] = []  # per save of the table: how many actions it recorded
    real_save = store.save

    async def counted(table: Any, expected_version: int, **rows: Any) -> Any:
        saved.append(len(rows.get("actions", ())))
        return await real_save(table, expected_version, **rows)

    monkeypatch.setattr(store, "save", counted)
    channel, _ = await started(env, service)
    lobby = len(saved)
    rng, turns, threads = random.Random(7), 0, set()
    while turns < MAX_ACTIONS and (row := await store.get_table(channel.id)).status == "running":
        user, action = await next_action(service, store, channel.id, rng)
        outbox = await service.act(channel.id, user, action)
        with env.time_context():
            env.bot.delivery.seen(channel.id, user)
            await env.bot.delivery.deliver(outbox, caller_id=user)
        threads.add((await service.table_info(channel.id)).thread_id)
        turns += 1

    actions = len(await store.get_actions(channel.id))
    played = saved[lobby:]
    with capsys.disabled():
        print(
            f"\n{GAME}, {PLAYERS} players: {actions} actions recorded, {len(saved)} saves of the table "
            f"({lobby} in the lobby and the start, {len(played)} after it)"
        )
    assert row.status == "finished"
    assert lobby == PLAYERS  # each join after the host's /game new, and the start
    assert played.count(1) == len(played) == actions  # every save after the start is one action's
    # what the saves no longer carry was kept all the same: the Weeks' threads, the status
    # message that now holds the last summary, and where that summary starts
    info = await service.table_info(channel.id)
    front = await service.posts.front.of(await service.access.load(channel.id))
    assert len(threads - {None}) >= 3 and info.thread_id is None  # the last one archived at the end
    assert info.status_message_id is not None and front.summary is not None
    assert front.summary["message"] == info.status_message_id
    assert any(m.id == info.status_message_id for m in channel.history())
    assert (await store.get_table(channel.id)).meta[SUMMARY]["message"] is None  # the start's, untouched
