"""A table service over a temporary SQLite file, with a clock the test moves, and tables of
the real games (diplomacy is about their hidden things). Diplomacy adds no rows of its own
(a showing is events, a pact the table's meta), so one backend is enough here; the store
tests compare the two backends' rows."""

from __future__ import annotations

import pytest

from bot.service.tables import TableService
from bot.store import open_store

CHANNEL = 100
ANNA, BORIS, CARL = 1, 2, 3
NAMES = {ANNA: "anna", BORIS: "boris", CARL: "carl"}


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(tmp_path):
    s = await open_store(tmp_path / "diplomacy.sqlite3")
    yield s
    await s.close()


@pytest.fixture
def service(store) -> TableService:
    return TableService(store, clock=Clock(), draw_pictures=False)


async def started(service: TableService, game: str, *users: int, seed: int = 5, **options: str) -> None:
    """A table of `game` in CHANNEL with `users` seated (the first hosts), started with `seed`."""
    await service.lobby.create(CHANNEL, 9, game, users[0], NAMES[users[0]], dict(options) or None)
    for user in users[1:]:
        await service.lobby.join(CHANNEL, user, NAMES[user])
    await service.lobby.start(CHANNEL, users[0], seed=seed)


def member(user: int) -> tuple[int, str]:
    return (user, NAMES[user])
