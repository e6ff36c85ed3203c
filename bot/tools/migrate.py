"""`python -m bot migrate --from PATH.sqlite3 --to postgresql://…`: move a community's
database from SQLite to PostgreSQL, and prove the copy.

Every row of every table is copied in one PostgreSQL transaction (tables, seats, the
action log, events with their order, deadlines, seat history, DM and notification
preferences, the heartbeat; the server's finished games, ratings, members, watches, lobby
channels and entries, abandoned games; the posts and turn notices still to be said; what
Discord answered: status messages, threads, the turn notices sent by DM). Then the copy
is checked: the same number of rows in each table, and every started game's record,
built from the copy, replays to the state the copy holds. A target that already holds
tables is refused unless `--replace` empties it first. The SQLite file is only read (it
is first brought to the newest schema, as the bot itself would on start-up).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine import games

from ..store import SqliteStore, StoreError
from ..store.postgres import PostgresStore
from ..store.records import ReplayError, record_from_store, replay

__all__ = ["migrate", "MigrationError", "MigrationRefused", "Migration", "COPIED"]

# Copied in this order (parents before the rows that reference them), with the columns
# that SQLite stores as 0/1 and PostgreSQL as booleans.
COPIED: dict[str, tuple[str, ...]] = {
    "tables": (),
    "seats": ("automatic",),
    "actions": ("undoable",),
    "events": (),
    "deadlines": ("extended",),
    "deliveries": ("dm_closed",),
    "seat_history": ("automatic",),
    "notify_prefs": (),
    # the server's games (bot/service/community.py): the archive, ratings, members, sign-ups
    "finished_games": ("rated", "counted"),
    "finished_seats": ("automatic",),
    "ratings": ("hidden",),
    "community_members": ("hidden",),
    "watches": (),
    "community_servers": (),
    "lobby_entries": ("told",),
    "abandoned_seats": (),
    "game_reviews": (),  # finished games' reviews (bot/service/reviews.py)
    # what the bot still has to say (bot/service/deliveries.py)
    "outbox": (),
    "turn_notices": (),
    # what Discord answered: status messages, threads, where summaries start (front_rows.py)
    "front_messages": (),
    "front_notices": ("decided",),  # the turn notices members' DMs hold live
}
# ids kept as they were; the sequences continue after them
IDENTITIES = ("events", "seat_history", "finished_games")


class MigrationError(Exception):
    """The copy did not check out; str() says why."""


class MigrationRefused(MigrationError):
    """Nothing was copied: the source or the target is not fit for it; str() says why."""


@dataclass
class Migration:
    rows: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0

    def __str__(self) -> str:
        counts = ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in self.rows.items())
        return f"Copied {counts}. Every started game replays on the copy ({self.games_replayed} games): OK."


async def migrate(
    source: Path, target: str, *, replace: bool = False, progress: Callable[[str], None] = lambda _: None
) -> Migration:
    if not source.exists():
        raise MigrationRefused(f"{source}: no such SQLite database")
    lite = await SqliteStore.open(source)
    try:
        try:
            pg = await PostgresStore.open(target)
        except StoreError as exc:
            raise MigrationRefused(str(exc)) from None
        try:
            result = await _copy(lite, pg, replace=replace, progress=progress)
            await _check(lite, pg, result, progress)
            return result
        finally:
            await pg.close()
    finally:
        await lite.close()


async def _copy(lite: SqliteStore, pg: PostgresStore, *, replace: bool, progress: Callable[[str], None]) -> Migration:
    result = Migration()
    async with pg._pool.acquire() as conn, conn.transaction():
        held = {name: await conn.fetchval(f"SELECT COUNT(*) FROM {name}") for name in COPIED}
        if any(held.values()) and not replace:
            what = ", ".join(f"{n} {name}" for name, n in held.items() if n)
            raise MigrationRefused(
                f"the target database is not empty ({what}); pass --replace to empty it first"
            )
        if replace:
            await conn.execute(f"TRUNCATE {', '.join(COPIED)}, heartbeat")
        for name, flags in COPIED.items():
            columns = [r[1] for r in await lite._fetch(f"PRAGMA table_info({name})")]
            rows = await lite._fetch(f"SELECT {', '.join(columns)} FROM {name} ORDER BY rowid")
            flagged = [columns.index(c) for c in flags]
            records = [
                tuple(bool(v) if i in flagged else v for i, v in enumerate(row)) for row in rows
            ]
            if records:
                await conn.copy_records_to_table(name, records=records, columns=columns)
            result.rows[name] = len(records)
            progress(f"{name}: {len(records)} rows")
        for name in IDENTITIES:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {name}"
            )
        beat = await lite.get_heartbeat()
        if beat is not None:
            await conn.execute("INSERT INTO heartbeat (owner, at) VALUES ('', $1)", beat)
    return result


async def _check(lite: SqliteStore, pg: PostgresStore, result: Migration, progress: Callable[[str], None]) -> None:
    for name, copied in result.rows.items():
        held = await pg._pool.fetchval(f"SELECT COUNT(*) FROM {name}")
        if held != copied:
            raise MigrationError(f"{name}: {copied} rows copied but the target holds {held}")
    started = [r[0] for r in await lite._fetch("SELECT channel_id FROM tables WHERE state IS NOT NULL")]
    for channel_id in started:
        try:
            record = await record_from_store(pg, channel_id)
            checked = replay(games.get(record.game), record)
        except ReplayError as exc:
            raise MigrationError(f"the game in channel {channel_id} does not replay on the copy: {exc}") from None
        if not checked.ok:
            raise MigrationError(f"the game in channel {channel_id} does not replay on the copy: {checked}")
        result.games_replayed += 1
    progress(f"{result.games_replayed} games replayed")
