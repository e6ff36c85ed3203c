"""The PostgreSQL store: the same contract as the SQLite store, over an asyncpg pool.

For communities that outgrow one process on one file (docs/architecture.md §4, §5):
several bot processes share one PostgreSQL database. The rows are the SQLite store's,
in PostgreSQL's types; the schema comes from numbered migrations in
`migrations/postgres/`, applied under an advisory lock so processes starting together
migrate once.

Every save is one transaction: the table row is updated under its version check
(`UPDATE … WHERE version = $n` must touch exactly one row), then the actions, events,
deadlines, seats and seat history it names. The common save (an action's) goes with the
saves of other tables that arrive meanwhile, in one statement and one round trip
(postgres_saves.py: a group commit, as on SQLite); a save that replaces seats or takes
actions back is written statement by statement. The community's rows are
`store.community` (postgres_community.py), over the same pool.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import asyncpg

from . import front_rows
from .base import (
    DEADLINE_COLUMNS,
    EVERY_SHARD,
    SEAT_COLUMNS,
    TABLE_COLUMNS,
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
    Store,
    StoreError,
    TableExists,
    TableRow,
    action_row,
    column_values,
    deadline_row,
    due_tables_sql,
    next_due_sql,
    seat_history_row,
    seat_row,
    table_params,
    table_row,
)
from .front_rows import FrontRow, LiveNotice
from .group_commit import GroupCommit
from .postgres_community import PostgresCommunityStore, numbered
from .postgres_reads import GroupedReads
from .postgres_saves import REFUSED, QueuedSave, write_saves

__all__ = ["PostgresStore", "MIGRATIONS", "keep_session"]

MIGRATIONS = Path(__file__).parent / "migrations" / "postgres"
MIGRATION_LOCK = 0x43484E43  # advisory lock key ("CHNC") held while migrating
POOL_SIZE = 8
# Batches of saves written at once, each on its own connection, a table's saves always in
# the same one (channel % SAVE_LANES): while the server writes one batch, the process
# plays on with the tables of another, and the server can use more than one core.
SAVE_LANES = 4


async def keep_session(conn: asyncpg.Connection) -> None:
    """What a connection going back to the pool needs reset beyond what asyncpg does itself
    (roll back an open transaction): nothing. The store sets no session state (no SET,
    LISTEN, cursor or session-level advisory lock; its one advisory lock is a
    transaction's), and the default reset query is one more round trip at every release,
    so one more per save (bench/README.md)."""


def migrations() -> list[tuple[int, str]]:
    """(number, SQL) of every PostgreSQL migration, in order (0001_initial.sql, …)."""
    found = []
    for path in MIGRATIONS.glob("*.sql"):
        match = re.match(r"(\d+)_", path.name)
        if match:
            found.append((int(match.group(1)), path.read_text(encoding="utf-8")))
    return sorted(found)


def _update_sql(names: tuple[str, ...]) -> str:
    """The table row's update under its version check; parameters: the values of `names`,
    then the new version, updated_at, the channel and the expected version."""
    k = len(names)
    sets = "".join(f"{n}=${i}, " for i, n in enumerate(names, 1))
    return (
        f"UPDATE tables SET {sets}version=${k + 1}, updated_at=${k + 2} "
        f"WHERE channel_id=${k + 3} AND version=${k + 4}"
    )


def _outbox_values(o: OutboxRow) -> tuple[Any, ...]:
    return (o.id, o.channel_id, o.created_at, o.body, o.attempts, o.next_try_at)


_ADD_OUTBOX = "INSERT INTO outbox (id, channel_id, created_at, body, attempts, next_try_at) VALUES ($1,$2,$3,$4,$5,$6)"


class PostgresStore(Store):
    shared = True  # other processes write the same tables

    def __init__(self, pool: asyncpg.Pool, url: str):
        self._pool = pool
        self.url = url
        # the community's rows, read and written through the same pool (postgres_community.py)
        self.community = PostgresCommunityStore(pool)
        # the common saves of many tables, written together (postgres_saves.py)
        self._saves: list[GroupCommit[QueuedSave]] = [
            GroupCommit(functools.partial(write_saves, pool)) for _ in range(SAVE_LANES)
        ]
        # what loading a table reads, the lookups of many tables in one query (postgres_reads.py)
        by_channel = "WHERE channel_id = ANY($1::bigint[]) ORDER BY channel_id"
        self._tables = GroupedReads(pool, f"SELECT {TABLE_COLUMNS} FROM tables {by_channel}")
        self._seats = GroupedReads(pool, f"SELECT {SEAT_COLUMNS} FROM seats {by_channel}, position")
        self._deadlines = GroupedReads(pool, f"SELECT {DEADLINE_COLUMNS} FROM deadlines {by_channel}, due_at, phase")
        # and its members' preferences, as NotifyPrefs' fields
        self._prefs = GroupedReads(
            pool,
            "SELECT user_id, mode, timezone, quiet_hours, digest, digest_due, digest_sent FROM notify_prefs "
            "WHERE user_id = ANY($1::bigint[])",
        )

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=keep_session)
        except (OSError, asyncpg.PostgresError) as exc:
            raise StoreError(f"cannot open the PostgreSQL database: {exc}") from exc
        store = cls(pool, url)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    # -- schema --------------------------------------------------------------------------
    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            # processes starting together: the first migrates, the others wait and find it done
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0
            for number, sql in migrations():
                if number > current:
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

    async def schema_version(self) -> int:
        return await self._pool.fetchval("SELECT MAX(version) FROM schema_version")

    # -- writing -------------------------------------------------------------------------
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
        marks = ",".join(f"${i}" for i in range(1, 16))
        async with self._pool.acquire() as conn, conn.transaction():
            # A channel whose game ended may host a new one; the old table goes.
            await conn.execute(
                "DELETE FROM tables WHERE channel_id=$1 AND status IN ('finished', 'abandoned')",
                table.channel_id,
            )
            await conn.execute(numbered(front_rows.DELETE_FRONT_SQL), table.channel_id)  # the old table's
            try:
                await conn.execute(f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES ({marks})", *table_params(table))
            except asyncpg.UniqueViolationError:
                raise TableExists(f"channel {table.channel_id} already has a table") from None
            await self._write_seats(conn, {table.channel_id: seats})
            await self._append_actions(conn, actions)
            await self._write_events(conn, events)
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
        try:
            if truncate_from is None and seats is None:
                # the common save (an action): one statement with the saves of other tables
                await self._saves[table.channel_id % SAVE_LANES].submit(
                    QueuedSave(table, expected_version, columns, actions, events, deadlines, history, outbox)
                )
            else:
                names = UPDATABLE_COLUMNS if columns is None else tuple(c for c in UPDATABLE_COLUMNS if c in columns)
                values = column_values(table, names)
                head = [*values, expected_version + 1, table.updated_at or time.time(), table.channel_id, expected_version]
                await self._save_in_steps(
                    table, head, names, actions, events, deadlines, seats, history, truncate_from, outbox
                )
        except REFUSED as exc:
            raise StoreError(f"save refused by the database: {exc}") from exc
        table.version = expected_version + 1
        return table

    async def _save_in_steps(
        self,
        table: TableRow,
        head: list[Any],
        names: tuple[str, ...],
        actions: Sequence[ActionRow],
        events: Sequence[EventRow],
        deadlines: Sequence[DeadlineRow] | None,
        seats: Sequence[SeatRow] | None,
        history: Sequence[SeatHistoryRow],
        truncate_from: int | None,
        outbox: Sequence[OutboxRow] = (),
    ) -> None:
        """A save that replaces seats or takes back actions (deletes and inserts of the same
        keys, which one statement cannot order): statement by statement in one transaction."""
        async with self._pool.acquire() as conn, conn.transaction():
            if await conn.execute(_update_sql(names), *head) != "UPDATE 1":
                raise StaleWrite(f"table {table.channel_id} changed since version {head[-1]}")
            if truncate_from is not None:
                await conn.execute(
                    "DELETE FROM actions WHERE channel_id=$1 AND idx>=$2", table.channel_id, truncate_from
                )
                await conn.execute(
                    "DELETE FROM events WHERE channel_id=$1 AND action_idx>=$2", table.channel_id, truncate_from
                )
            await self._append_actions(conn, actions)
            await self._write_events(conn, events)
            if deadlines is not None:
                await self._write_deadlines(conn, {table.channel_id: deadlines})
            if seats is not None:
                await self._write_seats(conn, {table.channel_id: seats})
            await self._append_history(conn, history)
            if outbox:
                await conn.executemany(_ADD_OUTBOX, [_outbox_values(o) for o in outbox])

    @staticmethod
    async def _append_actions(conn: asyncpg.Connection, actions: Sequence[ActionRow]) -> None:
        if actions:
            await conn.executemany(
                "INSERT INTO actions (channel_id, idx, seat, user_id, action, at, undoable) "
                "VALUES ($1,$2,$3,$4,$5,$6,$7)",
                [(a.channel_id, a.idx, a.seat, a.user_id, a.action, a.at, a.undoable) for a in actions],
            )

    @staticmethod
    async def _write_events(conn: asyncpg.Connection, events: Sequence[EventRow]) -> None:
        if events:
            await conn.executemany(
                "INSERT INTO events (channel_id, action_idx, audience, kind, text, at) VALUES ($1,$2,$3,$4,$5,$6)",
                [(e.channel_id, e.action_idx, e.audience, e.kind, e.text, e.at) for e in events],
            )

    @staticmethod
    async def _append_history(conn: asyncpg.Connection, rows: Sequence[SeatHistoryRow]) -> None:
        if rows:
            await conn.executemany(
                "INSERT INTO seat_history (channel_id, seat, user_id, name, automatic, from_step, at, reason) "
                "VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
                [(h.channel_id, h.seat, h.user_id, h.name, h.automatic, h.from_step, h.at, h.reason) for h in rows],
            )

    @staticmethod
    async def _write_deadlines(conn: asyncpg.Connection, rows: Mapping[int, Sequence[DeadlineRow]]) -> None:
        """Replace the deadlines of each channel in `rows` by its new ones."""
        await conn.execute("DELETE FROM deadlines WHERE channel_id = ANY($1::bigint[])", list(rows))
        params = [
            (
                channel_id,
                d.phase,
                d.started_at,
                d.due_at,
                d.next_at,
                json.dumps(d.reminders),
                json.dumps(d.reminders_sent),
                d.extended,
                d.thread,
            )
            for channel_id, deadlines in rows.items()
            for d in deadlines
        ]
        if params:
            await conn.executemany(
                "INSERT INTO deadlines (channel_id, phase, started_at, due_at, next_at, reminders, "
                "reminders_sent, extended, thread) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                params,
            )

    @staticmethod
    async def _write_seats(conn: asyncpg.Connection, rows: Mapping[int, Sequence[SeatRow]]) -> None:
        """Replace the seats of each channel in `rows` by its new ones."""
        await conn.execute("DELETE FROM seats WHERE channel_id = ANY($1::bigint[])", list(rows))
        params = [
            (channel_id, s.user_id, s.name, s.position, s.preference, s.seat, s.joined_at, s.automatic)
            for channel_id, seats in rows.items()
            for s in seats
        ]
        if params:
            await conn.executemany(
                f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)", params
            )

    # -- reading -------------------------------------------------------------------------
    async def get_table(self, channel_id: int) -> TableRow | None:
        rows = await self._tables.rows(channel_id)
        return table_row(rows[0]) if rows else None

    async def table_version(self, channel_id: int) -> int | None:
        return await self._pool.fetchval("SELECT version FROM tables WHERE channel_id=$1", channel_id)

    async def get_seats(self, channel_id: int) -> list[SeatRow]:
        return [seat_row(r) for r in await self._seats.rows(channel_id)]

    async def get_actions(self, channel_id: int) -> list[ActionRow]:
        rows = await self._pool.fetch(
            "SELECT channel_id, idx, seat, user_id, action, at, undoable FROM actions "
            "WHERE channel_id=$1 ORDER BY idx",
            channel_id,
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
            page = "LIMIT $2 OFFSET $3"
        else:
            where, params = "(audience IS NULL OR audience=$2)", (channel_id, audience, limit, offset)
            page = "LIMIT $3 OFFSET $4"
        rows = await self._pool.fetch(
            f"SELECT channel_id, action_idx, audience, kind, text, at FROM events "
            f"WHERE channel_id=$1 AND {where} ORDER BY id DESC {page}",
            *params,
        )
        return [EventRow(*r) for r in rows]

    async def count_events(self, channel_id: int, *, public_only: bool = True) -> int:
        where = " AND audience IS NULL" if public_only else ""
        return await self._pool.fetchval(f"SELECT COUNT(*) FROM events WHERE channel_id=$1{where}", channel_id)

    async def get_all_events(self, channel_id: int) -> list[EventRow]:
        rows = await self._pool.fetch(
            "SELECT channel_id, action_idx, audience, kind, text, at FROM events WHERE channel_id=$1 ORDER BY id",
            channel_id,
        )
        return [EventRow(*r) for r in rows]

    async def get_seat_history(self, channel_id: int) -> list[SeatHistoryRow]:
        rows = await self._pool.fetch(
            "SELECT channel_id, seat, user_id, name, from_step, at, automatic, reason FROM seat_history "
            "WHERE channel_id=$1 ORDER BY id",
            channel_id,
        )
        return [seat_history_row(r) for r in rows]

    async def tables_of_user(self, user_id: int) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT s.channel_id FROM seats s JOIN tables t USING (channel_id) WHERE s.user_id=$1 "
            "AND t.status IN ('lobby', 'running', 'paused') ORDER BY s.channel_id",
            user_id,
        )
        return [r[0] for r in rows]

    async def tables_with_status(self, *statuses: str) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT channel_id FROM tables WHERE status = ANY($1::text[]) ORDER BY channel_id", list(statuses)
        )
        return [r[0] for r in rows]

    async def get_deadlines(self, channel_id: int) -> list[DeadlineRow]:
        return [deadline_row(r) for r in await self._deadlines.rows(channel_id)]

    async def due_tables(self, now: float, shards: Shards = EVERY_SHARD) -> list[int]:
        return [r[0] for r in await self._pool.fetch(due_tables_sql(shards, "$1"), now)]

    async def next_due(self, shards: Shards = EVERY_SHARD) -> float | None:
        return await self._pool.fetchval(next_due_sql(shards))

    # -- private delivery ----------------------------------------------------------------
    async def set_dm_closed(self, user_id: int, closed: bool, at: float) -> None:
        await self._pool.execute(
            "INSERT INTO deliveries (user_id, dm_closed, updated_at) VALUES ($1,$2,$3) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_closed=excluded.dm_closed, updated_at=excluded.updated_at",
            user_id,
            closed,
            at,
        )

    async def is_dm_closed(self, user_id: int) -> bool:
        return bool(await self._pool.fetchval("SELECT dm_closed FROM deliveries WHERE user_id=$1", user_id))

    # -- notifications and liveness ---------------------------------------------------
    async def set_notify(self, prefs: NotifyPrefs, at: float) -> None:
        await self._pool.execute(
            "INSERT INTO notify_prefs (user_id, mode, timezone, quiet_hours, digest, digest_due, updated_at) "
            "VALUES ($1,$2,$3,$4,$5,$6,$7) "
            "ON CONFLICT (user_id) DO UPDATE SET mode=excluded.mode, timezone=excluded.timezone, "
            "quiet_hours=excluded.quiet_hours, digest=excluded.digest, digest_due=excluded.digest_due, "
            "updated_at=excluded.updated_at",
            prefs.user_id,
            prefs.mode,
            prefs.timezone,
            prefs.quiet_hours,
            prefs.digest,
            prefs.digest_due,
            at,
        )

    async def get_notify(self, user_id: int) -> NotifyPrefs:
        rows = await self._prefs.rows(user_id)
        return NotifyPrefs(*rows[0]) if rows else NotifyPrefs(user_id)

    # -- the daily digest (migration 0006) ------------------------------------------------
    async def due_digests(self, now: float) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT user_id FROM notify_prefs WHERE digest_due <= $1 ORDER BY digest_due, user_id", now
        )
        return [r[0] for r in rows]

    async def next_digest(self) -> float | None:
        return await self._pool.fetchval("SELECT MIN(digest_due) FROM notify_prefs WHERE digest_due IS NOT NULL")

    async def claim_digest(
        self, user_id: int, due: float, next_due: float | None, sent_at: float, row: OutboxRow | None
    ) -> bool:
        async with self._pool.acquire() as conn, conn.transaction():
            claimed = await conn.execute(
                "UPDATE notify_prefs SET digest_due=$1, digest_sent=$2 WHERE user_id=$3 AND digest_due=$4",
                next_due,
                sent_at,
                user_id,
                due,
            )
            if claimed != "UPDATE 1":
                return False  # another process sent it, or the member changed their digest
            if row is not None:
                await conn.execute(_ADD_OUTBOX, *_outbox_values(row))
        return True

    # One heartbeat row per set of shards: a restarted process measures its own outage.
    async def set_heartbeat(self, at: float, owner: str = "") -> None:
        await self._pool.execute(
            "INSERT INTO heartbeat (owner, at) VALUES ($1, $2) ON CONFLICT (owner) DO UPDATE SET at = excluded.at",
            owner,
            at,
        )

    async def get_heartbeat(self, owner: str = "") -> float | None:
        return await self._pool.fetchval("SELECT at FROM heartbeat WHERE owner = $1", owner)

    # -- the outbox and the turn notices ---------------------------------------------------
    async def add_outbox(self, rows: Sequence[OutboxRow]) -> None:
        if rows:
            await self._pool.executemany(_ADD_OUTBOX, [_outbox_values(o) for o in rows])

    async def claim_outbox(self, now: float, lease: float, *, everything: bool = False) -> list[OutboxRow]:
        # SKIP LOCKED: two processes claiming at once each take other rows, never the same
        due = "" if everything else "WHERE channel_id NOT IN (SELECT channel_id FROM outbox WHERE next_try_at > $2)"
        sql = (
            f"WITH claimed AS (SELECT id FROM outbox {due} FOR UPDATE SKIP LOCKED) "
            "UPDATE outbox SET next_try_at = $1 FROM claimed WHERE outbox.id = claimed.id "
            "RETURNING outbox.id, channel_id, created_at, body, attempts, next_try_at, answered"
        )
        rows = await self._pool.fetch(sql, now + lease, *(() if everything else (now,)))
        return sorted((OutboxRow(*r) for r in rows), key=lambda o: (o.channel_id, o.id))

    async def outbox_done(self, ids: Sequence[int], notices: Sequence[NoticeRow] = ()) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("DELETE FROM outbox WHERE id = ANY($1::bigint[])", list(ids))
            if notices:
                await conn.executemany(
                    "INSERT INTO turn_notices (channel_id, user_id, due_at, body) VALUES ($1,$2,$3,$4) "
                    "ON CONFLICT (channel_id, user_id) DO UPDATE SET due_at=excluded.due_at, body=excluded.body",
                    [(n.channel_id, n.user_id, n.due_at, n.body) for n in notices],
                )

    async def outbox_retry(self, ids: Sequence[int], next_try_at: float, answered: int | None = None) -> None:
        await self._pool.execute(
            "UPDATE outbox SET attempts=attempts+1, next_try_at=$1, answered=COALESCE(answered, $3) "
            "WHERE id = ANY($2::bigint[])",
            next_try_at, list(ids), answered,
        )

    async def outbox_waiting(self) -> tuple[int, float | None, set[int], float | None]:
        rows = await self._pool.fetch("SELECT channel_id, COUNT(*), MIN(created_at), MAX(next_try_at) FROM outbox GROUP BY channel_id")
        oldest = min((r[2] for r in rows), default=None)
        soonest = min((r[3] for r in rows), default=None)
        return sum(r[1] for r in rows), oldest, {r[0] for r in rows}, soonest

    async def turn_notices(self) -> list[NoticeRow]:
        rows = await self._pool.fetch("SELECT channel_id, user_id, due_at, body FROM turn_notices")
        return [NoticeRow(*r) for r in rows]

    async def drop_turn_notices(self, keys: Sequence[tuple[int, int]]) -> None:
        if keys:
            await self._pool.executemany(
                "DELETE FROM turn_notices WHERE channel_id=$1 AND user_id=$2", list(keys)
            )

    # -- what the front end was answered (front_rows.py, migration 0008) ------------------
    async def get_front(self, channel_id: int) -> FrontRow | None:
        row = await self._pool.fetchrow(numbered(front_rows.GET_FRONT_SQL), channel_id)
        return front_rows.front_row(row) if row is not None else None

    async def put_front(self, row: FrontRow, columns: Sequence[str] = front_rows.KEPT) -> None:
        await self._pool.execute(numbered(front_rows.put_front_sql(columns)), *front_rows.front_params(row))

    async def get_live_notices(self, channel_id: int) -> list[LiveNotice]:
        rows = await self._pool.fetch(numbered(front_rows.GET_NOTICES_SQL), channel_id)
        return [front_rows.live_notice(r) for r in rows]

    async def put_live_notice(self, notice: LiveNotice) -> None:
        await self._pool.execute(numbered(front_rows.PUT_NOTICE_SQL), *front_rows.notice_params(notice))

    async def notice_decided(self, notice: LiveNotice) -> None:
        n = notice
        await self._pool.execute(numbered(front_rows.DECIDED_NOTICE_SQL), True, n.channel_id, n.user_id, n.message_id)

    async def drop_live_notice(self, notice: LiveNotice) -> None:
        n = notice
        await self._pool.execute(numbered(front_rows.DELETE_NOTICE_SQL), n.channel_id, n.user_id, n.message_id)
