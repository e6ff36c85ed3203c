"""`python -m bot ratings --rebuild`: every rating recomputed from the finished games.

First the finished tables still in the database but missing from the archive are archived
(a game that ended while the archive's write failed, or before the archive existed); then
every rating is replayed from the archive in the order the games finished
(bot/service/ratings.py), replacing the stored ratings. The replay is the same function
the updates at the end of each game run, so an archive whose updates all succeeded gets
back exactly the ratings it had.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

from ..service.archive import archive_missing
from ..service.ratings import rebuild
from ..service.tables import TableError, TableService
from ..store import open_store

__all__ = ["rebuild_ratings"]


async def rebuild_ratings(database: str | Path, out: TextIO) -> int:
    store = await open_store(database)
    try:
        service = TableService(store, draw_pictures=False)
        tables = []
        for channel_id in await store.tables_with_status("finished"):
            try:
                tables.append(await service.load(channel_id))
            except TableError:
                continue
        added = await archive_missing(store, tables, time.time())
        count = await rebuild(store)
        games = len(await store.community.finished_in_order())
    finally:
        await store.close()
    out.write(
        f"Archived {added} missing finished game{'s' if added != 1 else ''}; "
        f"{count} rating{'s' if count != 1 else ''} rebuilt from {games} finished game{'s' if games != 1 else ''}.\n"
    )
    return 0
