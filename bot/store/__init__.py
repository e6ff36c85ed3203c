"""Persistence behind one async interface (docs/architecture.md §4). SQLite is the embedded default."""

from __future__ import annotations

from pathlib import Path

from .base import (
    UPDATABLE_COLUMNS,
    ActionRow,
    DeadlineRow,
    EventRow,
    NotifyPrefs,
    SeatHistoryRow,
    SeatRow,
    StaleWrite,
    Store,
    StoreError,
    TableExists,
    TableRow,
)
from .sqlite import SqliteStore

__all__ = [
    "ActionRow",
    "DeadlineRow",
    "EventRow",
    "NotifyPrefs",
    "SeatHistoryRow",
    "SeatRow",
    "SqliteStore",
    "StaleWrite",
    "Store",
    "StoreError",
    "TableExists",
    "TableRow",
    "UPDATABLE_COLUMNS",
    "open_store",
]


async def open_store(path: str | Path) -> Store:
    """The SQLite store at `path`: creates the file and its folder, runs migrations."""
    return await SqliteStore.open(path)
