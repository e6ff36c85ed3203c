"""SimCord fixtures: the real bot over a real table service on a temporary SQLite file.

The registry is narrowed to the tiny test game (tests/tinygame.py) so these tests do not
depend on the state of the real games; `test_commands.py` builds every registered game.
The service's clock reads SimCord's virtual clock, so `env.advance_time` moves deadlines.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.discord import create_bot
from bot.service.tables import TableService
from bot.store import open_store
from engine import games
from tests import tinygame

EPOCH = datetime(2026, 1, 1, tzinfo=UTC).timestamp()  # SimCord's clock starts here


class SimClock:
    """time.time() for the service: SimCord's virtual now once the environment runs."""

    def __init__(self) -> None:
        self.env: Any = None

    def __call__(self) -> float:
        return self.env.now().timestamp() if self.env is not None else EPOCH


@dataclass
class BotConfig:
    dev_guild_id: int | None = None
    # The bot beats every minute; tests that skip days of virtual time would spend seconds
    # of real time on those beats, so only the outage test asks for the real interval.
    heartbeat_seconds: float = 6 * 3600.0


@pytest.fixture
def only_tinygame(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "_GAMES", {})
    monkeypatch.setattr(games, "_ALIASES", {})
    monkeypatch.setattr(games, "_loaded", True)
    games.register(tinygame.GAME)


@pytest.fixture
def clock() -> SimClock:
    return SimClock()


@pytest.fixture
async def store(tmp_path):
    store = await open_store(tmp_path / "tables.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def draw_pictures() -> bool:
    """Whether the service draws board pictures, as the real bot does; a module whose whole
    games do not look at them overrides this with False (tests/discord/whole_game.py)."""
    return True


@pytest.fixture
def service(store, clock, draw_pictures) -> TableService:
    return TableService(
        store,
        clock=clock,
        default_settings={"phase_hours": 24.0, "reminders_hours": [1.0]},
        draw_pictures=draw_pictures,
    )


@pytest.fixture
def make_bot(service, only_tinygame):
    def make(config: BotConfig | None = None):
        return create_bot(config or BotConfig(), service)

    return make


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@pytest.fixture
def env(simcord_env, clock):
    clock.env = simcord_env
    return simcord_env
