"""The real Discord bot in a process of its own, over SimCord instead of Discord's gateway,
for tests/operations/test_shutdown_discord.py to stop with a real signal.

`python -m tests.operations.discord_child DB GRACE` builds the bot as `run_discord` does
(`create_bot` over a `TableService` on the SQLite file DB) and installs the same signal
handling (`stop_on_signals`); only the gateway is SimCord's. It then plays this story and
prints one JSON line per step on standard output for the test to follow:

1. alice and bob start a table of the tiny test game; `{"step": "started"}`.
2. alice's `/envoys commit value:1` is held inside the service, before its save, at a gate
   this script opens: `{"step": "in flight"}`. The test now sends the signal.
3. Once the bot is stopping, bob's `/envoys commit value:2` arrives:
   `{"step": "refused", "text": <bob's reply>}`.
4. The gate opens; alice's command finishes; the bot closes by itself (its shutdown waited
   for alice's command): `{"step": "closed", "text": <alice's reply>}`.
5. The automatic players' workers and the database are closed as `run_discord` closes
   them, and the process exits 0.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import simcord

from bot.discord.client import create_bot, stop_on_signals
from bot.service.tables import TableService
from bot.store import open_store
from engine import games
from tests import tinygame

POLL = 0.01  # seconds between looks at the bot while waiting for the signal or the close


@dataclass
class ChildConfig:
    shutdown_grace_seconds: float
    dev_guild_id: int | None = None
    heartbeat_seconds: float = 3600.0


def say(step: str, text: str | None = None) -> None:
    print(json.dumps({"step": step, "text": text}), flush=True)


def only_tinygame() -> None:
    """The registry narrowed to the tiny test game, as tests/discord/conftest.py does."""
    games._GAMES = {}
    games._ALIASES = {}
    games._loaded = True
    games.register(tinygame.GAME)


def content(result: simcord.InteractionResult) -> str | None:
    response = result.response
    return None if response is None else response.content


async def play(env: simcord.Env, bot, service: TableService) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("envoys")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "game new", game="envoys")
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")
    say("started")

    gate = asyncio.Event()
    command = service.command

    async def held(*args, **kwargs):
        # a declared wait: SimCord's settling does not wait for the gate to open
        await env.external_wait(gate.wait(), reason="the test holds this command in flight")
        return await command(*args, **kwargs)

    service.command = held  # type: ignore[method-assign]
    in_flight = await alice.slash(channel, "envoys commit", value=1)
    say("in flight")

    while not bot.stopping:  # the test's signal
        await asyncio.sleep(POLL)
    refused = await bob.slash(channel, "envoys commit", value=2)
    say("refused", content(refused))

    gate.set()
    while not bot.is_closed():
        await asyncio.sleep(POLL)
    say("closed", content(in_flight))


async def main(db: Path, grace: float) -> None:
    only_tinygame()
    store = await open_store(db)
    service = None
    try:
        service = TableService(store)
        bot = create_bot(ChildConfig(shutdown_grace_seconds=grace), service)
        async with simcord.run(bot) as env:
            stop_on_signals(bot, grace)
            await play(env, bot, service)
    finally:
        if service is not None:
            service.close()
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), float(sys.argv[2])))
