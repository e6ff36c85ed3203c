"""Fixtures for the command-line tests: a clean environment and the tiny test game registered."""

from __future__ import annotations

import os

import pytest

from engine import games
from tests.tinygame import GAME


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """No token or CHANCELLERY_* settings leak in from the machine, and no ./config.toml."""
    for key in list(os.environ):
        if key == "DISCORD_TOKEN" or key.startswith("CHANCELLERY_"):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def envoys(monkeypatch: pytest.MonkeyPatch):
    """The registry holds only the tiny test game for this test (the real games are not ours to load)."""
    monkeypatch.setattr(games, "_GAMES", {})
    monkeypatch.setattr(games, "_ALIASES", {})
    monkeypatch.setattr(games, "_loaded", True)
    games.register(GAME)
    return GAME
