"""Fixtures every suite may use: a PostgreSQL server of this test process's own."""

from __future__ import annotations

import pytest

from tests.pgserver import PostgresServer


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
