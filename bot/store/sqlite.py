"""The SQLite store: one aiosqlite connection, WAL, foreign keys, numbered migrations.

Each call runs as one function on aiosqlite's worker thread (`_run`), so it is one
thread hop however many statements it holds, and no other coroutine can interleave
statements inside it. Saves go through a group commit (group_commit.py): the saves of
different tables that arrive together share one transaction and one hop; the statements
that write them, and the transactions every write here runs in, are SqliteSaves
(sqlite_saves.py), this store's base. The community's rows are `store.community`
(sqlite_community.py), on the same connection (docs/architecture.md §4).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from . import front_rows
from .base import (
    DEADLINE_COLUMNS,
    EVERY_SHARD,
    SEAT_COLUMNS,
    TABLE_COLUMNS,
    ActionRow,
    DeadlineRow,
    EventRow,
    NoticeRow,
    NotifyPrefs,
    OutboxRow,
    SeatHistoryRow,
    SeatRow,
    Shards,
    StorageFull,
    Store,
    StoreError,
    TableExists,
    TableRow,
    action_row,
    deadline_row,
    due_tables_sql,
    next_due_sql,
    seat_history_row,
    seat_row,
    table_params,
    table_row,
)
from .front_rows import FrontRow, LiveNotice
from .group_commit import WAL_SAFETY_PAGES, Checkpoints, GroupCommit
from .guard import DatabaseLost, DatabaseUnusable, DatabaseWatch, check_database, mark_database
from .sqlite_community import SqliteCommunityStore
from .sqlite_saves import QueuedSave, SqliteSaves

__all__ = ["SqliteStore", "MIGRATIONS"]

log = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).parent / "migrations"
JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024  # bytes of write-ahead log kept after a checkpoint
T = TypeVar("T")


def migrations() -> list[tuple[int, str]]:
    """(number, SQL) of every migration file, in order; names look like 0001_initial.sql."""
    found = []
    for path in MIGRATIONS.glob("*.sql"):
        match = re.match(r"(\d+)_", path.name)
        if match:
            found.append((int(match.group(1)), path.read_text(encoding="utf-8")))
    return sorted(found)


class SqliteStore(SqliteSaves, Store):
    def __init__(self, db: aiosqlite.Connection, path: Path):
        self._db = db
        self.path = path
        self._saves: GroupCommit[QueuedSave] = GroupCommit(self._write_saves, self._saved)
        # an in-memory database keeps no write-ahead log to checkpoint
        self._checkpoints = Checkpoints(path) if str(path) != ":memory:" else None
        self._beats: dict[str, float] = {}  # an in-memory database's heartbeats
        # notices the file removed or replaced under the open connection (guard.py)
        self._watch = DatabaseWatch(path) if str(path) != ":memory:" else None
        self._loss_reported = False
        # the community's rows, read and written on this connection (sqlite_community.py)
        self.community = SqliteCommunityStore(self._run, self._transaction)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (or, on a first run, create) the database; DatabaseUnusable, naming the
        file and the cause, if it cannot serve (bot/store/guard.py)."""
        path = Path(path)
        memory = str(path) == ":memory:"
        if not memory:
            check_database(path)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one per save.
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db._execute(cls._prepare, db._conn)
            store = cls(db, path)
        except BaseException as exc:
            # the connection's thread would otherwise keep the process alive after the error
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise DatabaseUnusable(path, f"cannot prepare it ({exc})") from None
            raise
        if not memory:
            mark_database(path)
        return store

    @property
    def lost(self) -> bool:
        return self._watch is not None and self._watch.lost is not None

    def _still_there(self, conn: sqlite3.Connection) -> bool:
        """On the database thread: False once the file was removed or replaced; the first
        time, the open connection's rows are copied out and the log says what happened."""
        if self._watch is None or self._watch.check():
            return True
        if not self._loss_reported:
            self._loss_reported = True
            rescued = self._watch.rescue(conn)
            log.error(
                "the database %s was %s while the bot was running: nothing more is saved or "
                "acknowledged. %s Restore the database and restart the bot.",
                self.path,
                self._watch.lost,
                f"What the bot still held is copied to {rescued}." if rescued else "No copy could be made.",
            )
        return False

    async def close(self) -> None:
        if self._checkpoints is not None:
            await self._checkpoints.close()
        await self._db.close()

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite's worker-thread entry point; public calls would cost a hop per statement.
        return await self._db._execute(fn, self._db._conn)

    # -- schema --------------------------------------------------------------------------
    @staticmethod
    def _prepare(conn: sqlite3.Connection) -> None:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at checkpoints, fast commits
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute(f"PRAGMA wal_autocheckpoint={WAL_SAFETY_PAGES}")  # see group_commit.Checkpoints
        # after a burst the log file is cut back to this once it starts over (it would keep
        # its largest size for ever, and once filled a small disk)
        conn.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0
        for number, sql in migrations():
            if number <= current:
                continue
            try:
                conn.execute("BEGIN IMMEDIATE")
                for statement in _statements(sql):
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                conn.execute("COMMIT")
            except Exception:
                conn.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        return await self._run(lambda c: c.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])

    # -- writing (the statements: sqlite_saves.py) ------------------------------------------
    async def _write_saves(self, saves: list[QueuedSave]) -> list[BaseException | None]:
        return await self._run(functools.partial(self._commit_checked, saves))

    def _commit_checked(self, saves: list[QueuedSave], conn: sqlite3.Connection) -> list[BaseException | None]:
        # looked at after the commit: a save that went into a removed file is not acknowledged
        failures = self._commit_saves(saves, conn)
        if not self._still_there(conn):
            return [DatabaseLost() for _ in saves]
        return failures

    def _saved(self, count: int) -> None:
        if self._checkpoints is not None:
            self._checkpoints.saved(count)

    async def create_table(
        self,
        table: TableRow,
        seats: Sequence[SeatRow] = (),
        *,
        actions: Sequence[ActionRow] = (),
        events: Sequence[EventRow] = (),
    ) -> TableRow:
        now = time.time()
        table.created_at = table.created_at or now
        table.updated_at = table.updated_at or now
        table.version = 1

        def body(conn: sqlite3.Connection) -> None:
            def write() -> None:
                # A channel whose game ended may host a new one; the old table goes.
                conn.execute(
                    "DELETE FROM tables WHERE channel_id=? AND status IN ('finished', 'abandoned')",
                    (table.channel_id,),
                )
                conn.execute(front_rows.DELETE_FRONT_SQL, (table.channel_id,))  # the old table's
                try:
                    conn.execute(
                        f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        table_params(table),
                    )
                except sqlite3.IntegrityError:
                    raise TableExists(f"channel {table.channel_id} already has a table") from None
                self._write_seats(conn, {table.channel_id: seats})
                self._append_actions(conn, actions)
                self._write_events(conn, events)

            self._transaction(conn, write)
            if not self._still_there(conn):
                raise DatabaseLost()

        try:
            await self._run(body)
        except sqlite3.OperationalError as exc:
            if not _is_full(exc):
                raise
            raise StorageFull(f"the disk holding the database is full ({exc})") from exc
        self._saved(1)
        return table

    async def save(
        self,
        table: TableRow,
        expected_version: int,
        *,
        actions: Sequence[ActionRow] = (),
        events: Sequence[EventRow] = (),
        deadlines: Sequence[DeadlineRow] | None = None,
        seats: Sequence[SeatRow] | None = None,
        columns: Sequence[str] | None = None,
        history: Sequence[SeatHistoryRow] = (),
        truncate_from: int | None = None,
        outbox: Sequence[OutboxRow] = (),
    ) -> TableRow:
        save = QueuedSave(
            table, expected_version, columns, actions, events, deadlines, seats, history, truncate_from, outbox
        )
        try:
            await self._saves.submit(save)
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"save refused by the database: {exc}") from exc
        except sqlite3.OperationalError as exc:
            if not _is_full(exc):
                raise
            raise StorageFull(f"the disk holding the database is full ({exc})") from exc
        table.version = expected_version + 1
        return table

    # -- reading -------------------------------------------------------------------------
    async def _fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return await self._run(lambda c: c.execute(sql, params).fetchall())

    async def get_table(self, channel_id: int) -> TableRow | None:
        rows = await self._fetch(f"SELECT {TABLE_COLUMNS} FROM tables WHERE channel_id=?", (channel_id,))
        return table_row(rows[0]) if rows else None

    async def table_version(self, channel_id: int) -> int | None:
        rows = await self._fetch("SELECT version FROM tables WHERE channel_id=?", (channel_id,))
        return rows[0][0] if rows else None

    async def get_seats(self, channel_id: int) -> list[SeatRow]:
        rows = await self._fetch(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE channel_id=? ORDER BY position", (channel_id,)
        )
        return [seat_row(r) for r in rows]

    async def get_actions(self, channel_id: int) -> list[ActionRow]:
        rows = await self._fetch(
            "SELECT channel_id, idx, seat, user_id, action, at, undoable FROM actions "
            "WHERE channel_id=? ORDER BY idx",
            (channel_id,),
        )
        return [action_row(r) for r in rows]

    async def get_events(
        self,
        channel_id: int,
        *,
        audience: str | None = None,
        public_only: bool = True,
        offset: int = 0,
        limit: int = 20,
    ) -> list[EventRow]:
        params: tuple[Any, ...]
        if public_only or audience is None:
            where, params = "audience IS NULL", (channel_id, limit, offset)
        else:
            where, params = "(audience IS NULL OR audience=?)", (channel_id, audience, limit, offset)
        rows = await self._fetch(
            f"SELECT channel_id, action_idx, audience, kind, text, at FROM events "
            f"WHERE channel_id=? AND {where} ORDER BY id DESC LIMIT ? OFFSET ?",
            params,
        )
        return [EventRow(*r) for r in rows]

    async def count_events(self, channel_id: int, *, public_only: bool = True) -> int:
        where = " AND audience IS NULL" if public_only else ""
        rows = await self._fetch(f"SELECT COUNT(*) FROM events WHERE channel_id=?{where}", (channel_id,))
        return rows[0][0]

    async def get_all_events(self, channel_id: int) -> list[EventRow]:
        rows = await self._fetch(
            "SELECT channel_id, action_idx, audience, kind, text, at FROM events WHERE channel_id=? ORDER BY id",
            (channel_id,),
        )
        return [EventRow(*r) for r in rows]

    async def get_seat_history(self, channel_id: int) -> list[SeatHistoryRow]:
        rows = await self._fetch(
            "SELECT channel_id, seat, user_id, name, from_step, at, automatic, reason FROM seat_history "
            "WHERE channel_id=? ORDER BY id",
            (channel_id,),
        )
        return [seat_history_row(r) for r in rows]

    async def tables_of_user(self, user_id: int) -> list[int]:
        rows = await self._fetch(
            "SELECT s.channel_id FROM seats s JOIN tables t USING (channel_id) WHERE s.user_id=? "
            "AND t.status IN ('lobby', 'running', 'paused') ORDER BY s.channel_id",
            (user_id,),
        )
        return [r[0] for r in rows]

    async def tables_with_status(self, *statuses: str) -> list[int]:
        marks = ",".join("?" * len(statuses))
        rows = await self._fetch(
            f"SELECT channel_id FROM tables WHERE status IN ({marks}) ORDER BY channel_id", tuple(statuses)
        )
        return [r[0] for r in rows]

    async def get_deadlines(self, channel_id: int) -> list[DeadlineRow]:
        rows = await self._fetch(
            f"SELECT {DEADLINE_COLUMNS} "
            "FROM deadlines WHERE channel_id=? ORDER BY due_at, phase",
            (channel_id,),
        )
        return [deadline_row(r) for r in rows]

    async def due_tables(self, now: float, shards: Shards = EVERY_SHARD) -> list[int]:
        return [r[0] for r in await self._fetch(due_tables_sql(shards, "?"), (now,))]

    async def next_due(self, shards: Shards = EVERY_SHARD) -> float | None:
        rows = await self._fetch(next_due_sql(shards))
        return rows[0][0] if rows else None

    # -- private delivery ----------------------------------------------------------------
    async def set_dm_closed(self, user_id: int, closed: bool, at: float) -> None:
        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO deliveries (user_id, dm_closed, updated_at) VALUES (?,?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_closed=excluded.dm_closed, updated_at=excluded.updated_at",
                (user_id, int(closed), at),
            )

        await self._run(body)

    async def is_dm_closed(self, user_id: int) -> bool:
        rows = await self._fetch("SELECT dm_closed FROM deliveries WHERE user_id=?", (user_id,))
        return bool(rows and rows[0][0])

    # -- notifications and liveness ---------------------------------------------------
    async def set_notify(self, prefs: NotifyPrefs, at: float) -> None:
        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO notify_prefs (user_id, mode, timezone, quiet_hours, digest, digest_due, updated_at) "
                "VALUES (?,?,?,?,?,?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET mode=excluded.mode, timezone=excluded.timezone, "
                "quiet_hours=excluded.quiet_hours, digest=excluded.digest, digest_due=excluded.digest_due, "
                "updated_at=excluded.updated_at",
                (prefs.user_id, prefs.mode, prefs.timezone, prefs.quiet_hours, prefs.digest, prefs.digest_due, at),
            )

        await self._run(body)

    async def get_notify(self, user_id: int) -> NotifyPrefs:
        rows = await self._fetch(
            "SELECT mode, timezone, quiet_hours, digest, digest_due, digest_sent FROM notify_prefs WHERE user_id=?",
            (user_id,),
        )
        return NotifyPrefs(user_id, *rows[0]) if rows else NotifyPrefs(user_id)

    # -- the daily digest (migration 0006) ------------------------------------------------
    async def due_digests(self, now: float) -> list[int]:
        rows = await self._fetch(
            "SELECT user_id FROM notify_prefs WHERE digest_due <= ? ORDER BY digest_due, user_id", (now,)
        )
        return [r[0] for r in rows]

    async def next_digest(self) -> float | None:
        rows = await self._fetch("SELECT MIN(digest_due) FROM notify_prefs WHERE digest_due IS NOT NULL")
        return rows[0][0] if rows else None

    async def claim_digest(
        self, user_id: int, due: float, next_due: float | None, sent_at: float, row: OutboxRow | None
    ) -> bool:
        def claim(conn: sqlite3.Connection) -> bool:
            claimed = conn.execute(
                "UPDATE notify_prefs SET digest_due=?, digest_sent=? WHERE user_id=? AND digest_due=?",
                (next_due, sent_at, user_id, due),
            ).rowcount
            if claimed == 1 and row is not None:
                self._append_outbox(conn, [row])
            return claimed == 1

        return await self._run(lambda conn: self._transaction(conn, lambda: claim(conn)))

    # The heartbeat is a small file beside the database, written on the event loop: a beat
    # every minute through the database thread costs far more than it tells.
    def _beat_path(self, owner: str) -> Path | None:
        if str(self.path) == ":memory:":
            return None
        suffix = "-heartbeat" + (f"-{owner.replace(':', '-').replace(',', '_')}" if owner else "")
        return self.path.with_name(self.path.name + suffix)

    async def set_heartbeat(self, at: float, owner: str = "") -> None:
        path = self._beat_path(owner)
        if path is None:
            self._beats[owner] = at
            return
        if self._watch is not None and not self._watch.check():  # an idle bot notices here
            await self._run(self._still_there)
            raise DatabaseLost()
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(repr(at), encoding="ascii")
        os.replace(tmp, path)  # atomic: a crash leaves the old beat or the new one

    async def get_heartbeat(self, owner: str = "") -> float | None:
        path = self._beat_path(owner)
        if path is None:
            return self._beats.get(owner)
        try:
            return float(path.read_text(encoding="ascii"))
        except (OSError, ValueError):
            return None

    # -- the outbox and the turn notices ---------------------------------------------------
    async def add_outbox(self, rows: Sequence[OutboxRow]) -> None:
        if rows:
            await self._run(lambda conn: self._transaction(conn, lambda: self._append_outbox(conn, rows)))

    async def claim_outbox(self, now: float, lease: float, *, everything: bool = False) -> list[OutboxRow]:
        def claim(conn: sqlite3.Connection) -> list[OutboxRow]:
            due = "" if everything else (
                "WHERE channel_id NOT IN (SELECT channel_id FROM outbox WHERE next_try_at > ?)"
            )
            found = conn.execute(
                "SELECT id, channel_id, created_at, body, attempts, next_try_at, answered FROM outbox "
                f"{due} ORDER BY channel_id, id",
                () if everything else (now,),
            ).fetchall()
            conn.executemany("UPDATE outbox SET next_try_at=? WHERE id=?", [(now + lease, r[0]) for r in found])
            return [OutboxRow(*r) for r in found]

        return await self._run(lambda conn: self._transaction(conn, lambda: claim(conn)))

    async def outbox_done(self, ids: Sequence[int], notices: Sequence[NoticeRow] = ()) -> None:
        # through the group commit: one delivery per action would otherwise be one more
        # transaction per action
        said = QueuedSave(
            table=None, expected_version=0, columns=None, actions=(), events=(), deadlines=None,
            seats=None, history=(), truncate_from=None, said=list(ids), notices=list(notices),
        )
        await self._saves.submit(said)

    async def outbox_retry(self, ids: Sequence[int], next_try_at: float, answered: int | None = None) -> None:
        sql = "UPDATE outbox SET attempts=attempts+1, next_try_at=?, answered=COALESCE(answered, ?) WHERE id=?"
        params = [(next_try_at, answered, i) for i in ids]
        await self._run(lambda conn: self._transaction(conn, lambda: conn.executemany(sql, params)))

    async def outbox_waiting(self) -> tuple[int, float | None, set[int], float | None]:
        rows = await self._fetch("SELECT channel_id, COUNT(*), MIN(created_at), MAX(next_try_at) FROM outbox GROUP BY channel_id", ())
        oldest = min((r[2] for r in rows), default=None)
        soonest = min((r[3] for r in rows), default=None)
        return sum(r[1] for r in rows), oldest, {r[0] for r in rows}, soonest

    async def turn_notices(self) -> list[NoticeRow]:
        rows = await self._fetch("SELECT channel_id, user_id, due_at, body FROM turn_notices", ())
        return [NoticeRow(*r) for r in rows]

    async def drop_turn_notices(self, keys: Sequence[tuple[int, int]]) -> None:
        if keys:
            sql = "DELETE FROM turn_notices WHERE channel_id=? AND user_id=?"
            await self._run(lambda conn: self._transaction(conn, lambda: conn.executemany(sql, list(keys))))

    # -- what the front end was answered (front_rows.py, migration 0008) ------------------
    async def get_front(self, channel_id: int) -> FrontRow | None:
        rows = await self._fetch(front_rows.GET_FRONT_SQL, (channel_id,))
        return front_rows.front_row(rows[0]) if rows else None

    async def put_front(self, row: FrontRow, columns: Sequence[str] = front_rows.KEPT) -> None:
        sql, params = front_rows.put_front_sql(columns), front_rows.front_params(row)
        await self._run(lambda conn: self._transaction(conn, lambda: conn.execute(sql, params)))

    async def get_live_notices(self, channel_id: int) -> list[LiveNotice]:
        return [front_rows.live_notice(r) for r in await self._fetch(front_rows.GET_NOTICES_SQL, (channel_id,))]

    async def put_live_notice(self, notice: LiveNotice) -> None:
        await self._front_write(front_rows.PUT_NOTICE_SQL, front_rows.notice_params(notice))

    async def notice_decided(self, notice: LiveNotice) -> None:
        n = notice
        await self._front_write(front_rows.DECIDED_NOTICE_SQL, (True, n.channel_id, n.user_id, n.message_id))

    async def drop_live_notice(self, notice: LiveNotice) -> None:
        n = notice
        await self._front_write(front_rows.DELETE_NOTICE_SQL, (n.channel_id, n.user_id, n.message_id))

    async def _front_write(self, sql: str, params: tuple[Any, ...]) -> None:
        await self._run(lambda conn: self._transaction(conn, lambda: conn.execute(sql, params)))


def _is_full(exc: sqlite3.OperationalError) -> bool:
    """SQLite's "database or disk is full" (raised by the COMMIT that finds no room)."""
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(exc)


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (sqlite3.execute runs one at a time)."""
    out, buf = [], ""
    for line in sql.splitlines():
        if line.strip().startswith("--"):
            continue
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out
