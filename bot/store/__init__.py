"""Persistence behind one async interface (docs/architecture.md §4). SQLite is the embedded
default; PostgreSQL serves several bot processes sharing one database."""

from __future__ import annotations

from pathlib import Path

from .base import (
    EVERY_SHARD,
    UPDATABLE_COLUMNS,
    ActionRow,
    DeadlineRow,
    EventRow,
    NoticeRow,
    NotifyPrefs,
    OutboxRow,
    SeatHistoryRow,
    SeatRow,
    Shards,
    StaleWrite,
    StorageFull,
    Store,
    StoreError,
    TableExists,
    TableRow,
)
from .guard import DatabaseLost, DatabaseUnusable
from .sqlite import SqliteStore

__all__ = [
    "EVERY_SHARD",
    "Shards",
    "ActionRow",
    "DeadlineRow",
    "EventRow",
    "NoticeRow",
    "NotifyPrefs",
    "OutboxRow",
    "SeatHistoryRow",
    "DatabaseLost",
    "DatabaseUnusable",
    "SeatRow",
    "SqliteStore",
    "StaleWrite",
    "StorageFull",
    "Store",
    "StoreError",
    "TableExists",
    "TableRow",
    "UPDATABLE_COLUMNS",
    "open_store",
    "is_postgres_url",
]


async def open_store(database: str | Path) -> Store:
    """The store `database` names: a `postgresql://` URL opens the PostgreSQL store
    (bot/store/postgres.py); anything else is an SQLite file, created with its folder.
    Either way the migrations run first."""
    if is_postgres_url(database):
        from .postgres import PostgresStore  # asyncpg is imported only by those who use it

        return await PostgresStore.open(str(database))
    return await SqliteStore.open(database)


def is_postgres_url(database: str | Path) -> bool:
    return str(database).startswith(("postgresql://", "postgres://"))
