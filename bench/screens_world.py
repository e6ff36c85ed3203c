"""The bot in SimCord (the simulated Discord) at one seeded game: a fresh table service on
a temporary SQLite file, its clock SimCord's virtual clock, and a server whose members sit
at one table (`Table`), with what bench/discord_screens.py asks of it: who holds each
seat, who owes a decision, the members' DMs, the posts counted between two moments, and
the automatic players taking every seat to finish the game (docs/architecture.md §1, §3).
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord

from bench.screens_messages import custom_ids, message_text
from bot.discord import create_bot
from bot.service.tables import TableService
from bot.store import open_store
from engine import games
from engine.core.game import Game

EPOCH = 1_767_225_600.0  # SimCord's clock starts at 2026-01-01 00:00 UTC
# Seconds of real time SimCord waits for the bot to settle after the last `/game bot`, in
# which the automatic players finish the whole game (its default, 5, elsewhere: a longer one
# would also wait out the timer of each ephemeral answer's buttons, as SimCord counts it)
SETTLE = 120.0
NAMES = ("Anna", "Bruno", "Chiara", "Dmitri", "Emil")


@dataclass(frozen=True)
class Title:
    game_id: str
    players: int
    seed: int
    rounds: int  # rounds played by the members before the automatic players take over


class _Clock:
    """time.time() for the service: SimCord's virtual now once the world runs."""

    def __init__(self) -> None:
        self.env: Any = None

    def __call__(self) -> float:
        return self.env.now().timestamp() if self.env is not None else EPOCH


@dataclass
class _Config:
    dev_guild_id: int | None = None
    heartbeat_seconds: float = 6 * 3600.0


class Table:
    """A server with a lobby channel and a table channel, its members at one game."""

    def __init__(self, env: Any, service: TableService, title: Title) -> None:
        self.env, self.service, self.title = env, service, title
        self.game: Game = games.get(title.game_id)
        self.guild = env.create_guild()
        admins = self.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        names = NAMES[: title.players]
        self.members = {names[0]: self.guild.add_member(env.create_user(names[0]), roles=[admins])}
        self.members |= {n: self.guild.add_member(env.create_user(n)) for n in names[1:]}
        self.lobby = self.guild.create_text_channel("lobby")
        self.channel = self.guild.create_text_channel(self.game.id)
        self.host = self.members[names[0]]
        self.by_seat: dict[str, str] = {}  # seat -> member name
        self.read: dict[str, set[int]] = {}  # member -> the DMs they had when they last decided

    async def slash(self, who: str, command: str, **options: Any) -> Any:
        result = await self.members[who].slash(self.channel, command, **options)
        assert result.ephemeral, f"/{command} was answered in public: {result.response.content}"
        return result

    async def state(self) -> Any:
        row = await self.service.store.get_table(self.channel.id)
        assert row is not None and row.state is not None, "the table has no game"
        return self.game.load_state(row.state)

    async def rounds(self) -> int:
        events = await self.service.store.get_all_events(self.channel.id)
        return sum(1 for e in events if e.audience is None and e.kind == self.game.round_event)

    def posted(self, first: int, last: int | None = None) -> tuple[int, int]:
        """Messages the bot posted between two of SimCord's REST calls: into the table's
        channel and its threads, and into the members' DMs (edits and deletions not counted)."""
        public = {self.channel.id, *(t.id for t in self.channel.threads)}
        private = {m.user.dm_channel.id for m in self.members.values() if m.user.dm_channel is not None}
        channel = dm = 0
        for call in self.env.http_requests[first:last]:
            parts = call.path.strip("/").split("/")
            if call.method == "POST" and len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
                channel += int(parts[1]) in public
                dm += int(parts[1]) in private
        return channel, dm

    def status_message(self) -> Any:
        """The message with the status buttons ("Show my hand / orders"), however laid out."""
        wanted = f"chan:me:{self.channel.id}"
        found = [m for m in self.channel.history() if wanted in custom_ids(m.components)]
        assert len(found) == 1, f"expected one status message, found {len(found)}"
        return found[0]

    def owing(self, state: Any) -> list[str]:
        """The members (names) who owe a decision now."""
        seats = [p.seat for p in self.game.prompts(state) if self.game.may_act(state, p.seat)]
        return [self.by_seat[s] for s in dict.fromkeys(seats) if s in self.by_seat]


@asynccontextmanager
async def world(title: Title) -> AsyncIterator[Table]:
    """The bot over a fresh table service, running in SimCord; a server ready for `title`."""
    clock = _Clock()
    with tempfile.TemporaryDirectory(prefix="screens-") as folder:
        store = await open_store(Path(folder) / "tables.sqlite3")
        service = TableService(
            store,
            clock=clock,
            default_settings={"phase_hours": 24.0, "reminders_hours": [1.0], "automatic_player": "basic"},
            seed_source=lambda: title.seed,
            automatic_workers=0,
        )
        try:
            async with simcord.run(create_bot(_Config(), service)) as env:
                clock.env = env
                yield Table(env, service, title)
        finally:
            service.automatic.close()
            await store.close()


async def seated(table: Table) -> None:
    """Who holds each seat, once the game has started."""
    by_user = {m.id: n for n, m in table.members.items()}
    seats = await table.service.store.get_seats(table.channel.id)
    table.by_seat = {s.seat: by_user[s.user_id] for s in seats if s.seat is not None}


def dms(table: Table, name: str) -> list[Any]:
    dm = table.members[name].user.dm_channel
    return list(dm.history()) if dm is not None else []


async def finish(table: Table) -> None:
    """Every seat to the automatic player (`/game bot`, by the host): the game plays itself
    to its end."""
    host = next(iter(table.members))
    table.env.settle_timeout = SETTLE
    for seat in table.by_seat:
        if table.game.outcome(await table.state()) is not None:
            break
        await table.slash(host, "game bot", on=True, seat=seat)
    assert table.game.outcome(await table.state()) is not None, "the automatic players did not finish the game"


def final_standings(table: Table) -> Any:
    for message in reversed(table.channel.history()):
        if "standings" in message_text(message).lower():
            return message
    raise AssertionError("no final standings in the channel")
