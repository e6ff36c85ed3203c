"""SimCord fixtures for /diplomacy: the real bot over a real table service on a temporary
SQLite file, with the real games registered (diplomacy is about their hidden things) and
the service reading SimCord's virtual clock."""

from __future__ import annotations

import pytest

from bot.discord import create_bot
from bot.service.tables import TableService
from bot.store import open_store
from tests.discord.conftest import BotConfig, SimClock


@pytest.fixture
def clock() -> SimClock:
    return SimClock()


@pytest.fixture
async def store(tmp_path):
    store = await open_store(tmp_path / "tables.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def service(store, clock) -> TableService:
    return TableService(
        store,
        clock=clock,
        default_settings={"phase_hours": 24.0, "reminders_hours": [1.0]},
        draw_pictures=False,
    )


@pytest.fixture
def simcord_bot(service):
    return create_bot(BotConfig(), service)


@pytest.fixture
def env(simcord_env, clock):
    clock.env = simcord_env
    return simcord_env
