"""Fixtures every suite may use: a PostgreSQL server of this test process's own."""

from __future__ import annotations

import pytest

from tests.pgserver import PostgresServer

# The kinds of slow test (pyproject.toml's markers); a test of any of them is also `slow`,
# so `-m "not slow"` leaves out every one of them.
SLOW_KINDS = ("whole_game", "simcord", "browser", "processes", "bench")


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items):
    for item in items:
        if any(item.get_closest_marker(kind) for kind in SLOW_KINDS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def basic_automatic_seats(request, monkeypatch):
    """Automatic seats play the instant basic player (bot/service/automatic.py, STRONGEST), so whole
    games with automatic seats stay fast; a test that asks for `strong_automatic_seats`
    gets the table's own setting (the strong search by default)."""
    if "strong_automatic_seats" not in request.fixturenames:
        monkeypatch.setattr("bot.service.automatic.STRONGEST", "basic")


@pytest.fixture
def strong_automatic_seats(request):
    """Automatic seats play what the table's setting says, the strong search included (in
    the service's worker process, bot/service/automatic.py); the worker is stopped after
    the test."""
    yield
    if "service" in request.fixturenames:
        request.getfixturevalue("service").automatic.close()


@pytest.fixture(scope="session")
def postgres_server():
    """Started on first use, stopped when the test process ends (each xdist worker has its own)."""
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """What `open_store` opens, once per backend: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "db" / "test.sqlite3"
    return request.getfixturevalue("postgres_server").new_database()
