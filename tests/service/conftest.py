"""A table service over a real temporary store (an SQLite file, then a PostgreSQL database),
with a clock the test moves."""

from __future__ import annotations

import pytest

import tests.tinygame
from bot.service.tables import TableService
from bot.store import open_store


@pytest.fixture(autouse=True)
def registry(monkeypatch):
    """The real games plus the test game, for this test only."""
    return tests.tinygame.registered(monkeypatch)


CHANNEL = 100
ALICE, BOB, CAROL = 1, 2, 3


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(database):
    """The store under test, on each backend in turn (tests/conftest.py, `database`)."""
    s = await open_store(database)
    yield s
    await s.close()


@pytest.fixture
def service(store, clock) -> TableService:
    return TableService(store, clock=clock)


@pytest.fixture
async def two_processes(postgres_server):
    """Two table services, each with its own store, on one PostgreSQL database: two bot
    processes sharing their tables, with one clock the test moves."""
    url = postgres_server.new_database()
    clock = Clock()
    stores = [await open_store(url), await open_store(url)]
    yield [TableService(s, clock=clock) for s in stores], clock
    for s in stores:
        await s.close()


async def seated(service: TableService, *names: str, seed: int = 7, start: bool = True) -> None:
    """A table in CHANNEL with users 1, 2, ... named `names`, started with `seed`."""
    await service.lobby.create(CHANNEL, 9, "envoys", 1, names[0])
    for i, name in enumerate(names[1:], 2):
        await service.lobby.join(CHANNEL, i, name)
    if start:
        await service.lobby.start(CHANNEL, 1, seed=seed)
