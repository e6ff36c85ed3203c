"""SimCord fixtures for /diplomacy: those of tests/discord (the real bot over a real table
service on a temporary SQLite file, the service reading SimCord's virtual clock), with the
real games registered rather than only the tiny test game (diplomacy is about their
hidden things) and no pictures drawn."""

from __future__ import annotations

import pytest

from bot.discord import create_bot
from tests.discord.conftest import BotConfig, clock, env, service, store

__all__ = ["clock", "env", "service", "store"]  # the fixtures shared with tests/discord


@pytest.fixture
def draw_pictures() -> bool:
    return False


@pytest.fixture
def simcord_bot(service):
    return create_bot(BotConfig(), service)
