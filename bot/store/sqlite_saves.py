"""The SQLite store's saves: the statements that write a batch of saves, in one transaction.

Saves reach the database thread through the group commit (group_commit.py, driven by
SqliteStore in sqlite.py): the saves of different tables that arrive together are written
here as one transaction, each table row under its version check, then each kind of row for
all of them at once. A batch that fails is rolled back and its saves written again one by
one, so the failure stays with the save that caused it (docs/architecture.md §4).

`SqliteSaves` is the base of SqliteStore that holds these steps; they are methods, each
apart, so a test can make one fail midway (a subclass overriding it). Everything here runs
on the connection's thread, inside `_run`.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .base import (
    SEAT_COLUMNS,
    UPDATABLE_COLUMNS,
    ActionRow,
    DeadlineRow,
    EventRow,
    NoticeRow,
    OutboxRow,
    SeatHistoryRow,
    SeatRow,
    StaleWrite,
    TableRow,
    column_values,
)

__all__ = ["QueuedSave", "SqliteSaves"]

T = TypeVar("T")


def _json_list(values: list[float]) -> str:
    return json.dumps(values) if values else "[]"  # most deadlines have sent no reminder yet


@functools.lru_cache(maxsize=64)
def _changed(columns: tuple[str, ...]) -> tuple[str, ...]:
    """The columns a save names, in UPDATABLE_COLUMNS' order (so equal sets share a statement)."""
    return tuple(c for c in UPDATABLE_COLUMNS if c in columns)


@functools.lru_cache(maxsize=64)
def _update_sql(names: tuple[str, ...]) -> str:
    sets = "".join(f"{n}=?, " for n in names)
    return f"UPDATE tables SET {sets}version=?, updated_at=? WHERE channel_id=? AND version=?"


@dataclass(slots=True)
class QueuedSave:
    """One table's save, queued for the next group commit; or, with no table, the outbox
    rows a delivery said (deleted with the saves of the same moment, in their transaction)."""

    table: TableRow | None
    expected_version: int
    columns: Sequence[str] | None
    actions: Sequence[ActionRow]
    events: Sequence[EventRow]
    deadlines: Sequence[DeadlineRow] | None
    seats: Sequence[SeatRow] | None
    history: Sequence[SeatHistoryRow]
    truncate_from: int | None
    outbox: Sequence[OutboxRow] = ()
    said: Sequence[int] = ()  # outbox rows to delete
    notices: Sequence[NoticeRow] = ()  # turn notices to keep

    @property
    def row(self) -> TableRow:
        """The table row of a save that has one (every save but the outbox rows said)."""
        if self.table is None:
            raise ValueError("a save of outbox rows said has no table row")
        return self.table


class SqliteSaves:
    """The writing half of SqliteStore: transactions, and the steps of a batch of saves."""

    def _transaction(self, conn: sqlite3.Connection, body: Callable[[], T]) -> T:
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = body()
            # inside the try: a COMMIT that fails (a full disk) leaves the transaction open,
            # and every later BEGIN would then fail too
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return result

    def _commit_saves(self, saves: list[QueuedSave], conn: sqlite3.Connection) -> list[BaseException | None]:
        """On the database thread: every save in one transaction. If any fails, that
        transaction is rolled back and each save runs again in its own, so the failure
        is kept to the save that caused it (a stale version, a broken row)."""
        if len(saves) > 1:
            try:
                self._transaction(conn, functools.partial(self._write, conn, saves))
                return [None] * len(saves)
            except Exception:
                pass
        failures: list[BaseException | None] = []
        for save in saves:
            try:
                self._transaction(conn, functools.partial(self._write, conn, [save]))
                failures.append(None)
            except Exception as exc:
                failures.append(exc)
        return failures

    def _write(self, conn: sqlite3.Connection, saves: list[QueuedSave]) -> None:
        """The statements of `saves`: each table row under its version check, then each
        kind of row for all of them at once (every statement is a trip into SQLite and a
        GIL hand-back, so none for no rows)."""
        self._update_tables(conn, [s for s in saves if s.table is not None])
        for s in saves:
            if s.truncate_from is not None:
                self._truncate(conn, s.row.channel_id, s.truncate_from)
        if actions := [a for s in saves for a in s.actions]:
            self._append_actions(conn, actions)
        if events := [e for s in saves for e in s.events]:
            self._write_events(conn, events)
        if deadlines := {s.row.channel_id: s.deadlines for s in saves if s.deadlines is not None}:
            self._write_deadlines(conn, deadlines)
        if seats := {s.row.channel_id: s.seats for s in saves if s.seats is not None}:
            self._write_seats(conn, seats)
        if history := [h for s in saves for h in s.history]:
            self._append_history(conn, history)
        if outbox := [o for s in saves for o in s.outbox]:
            self._append_outbox(conn, outbox)
        if said := [i for s in saves for i in s.said]:
            conn.executemany("DELETE FROM outbox WHERE id=?", [(i,) for i in said])
        if notices := [n for s in saves for n in s.notices]:
            self._keep_notices(conn, notices)

    # The steps of a save, separate so a test can make one fail midway.
    def _update_tables(self, conn: sqlite3.Connection, saves: Sequence[QueuedSave]) -> None:
        """Each save's table row under its version check. The saves of a batch mostly
        change the same columns, so each set of columns is one statement for all of them;
        the rows it changed must be as many as its saves (channel_id is the key)."""
        groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
        for s in saves:
            t, expected = s.row, s.expected_version
            names = UPDATABLE_COLUMNS if s.columns is None else _changed(tuple(s.columns))
            values = column_values(t, names)
            groups.setdefault(names, []).append(
                (*values, expected + 1, t.updated_at or time.time(), t.channel_id, expected)
            )
        for names, params in groups.items():
            cur = conn.executemany(_update_sql(names), params)
            if cur.rowcount != len(params):
                if len(params) == 1:
                    channel_id, expected = params[0][-2:]
                    raise StaleWrite(f"table {channel_id} changed since version {expected}")
                raise StaleWrite("a table of the batch changed since its save read it")

    def _append_actions(self, conn: sqlite3.Connection, actions: Sequence[ActionRow]) -> None:
        conn.executemany(
            "INSERT INTO actions (channel_id, idx, seat, user_id, action, at, undoable) VALUES (?,?,?,?,?,?,?)",
            [(a.channel_id, a.idx, a.seat, a.user_id, a.action, a.at, int(a.undoable)) for a in actions],
        )

    @staticmethod
    def _truncate(conn: sqlite3.Connection, channel_id: int, idx: int) -> None:
        conn.execute("DELETE FROM actions WHERE channel_id=? AND idx>=?", (channel_id, idx))
        conn.execute("DELETE FROM events WHERE channel_id=? AND action_idx>=?", (channel_id, idx))

    @staticmethod
    def _append_history(conn: sqlite3.Connection, rows: Sequence[SeatHistoryRow]) -> None:
        conn.executemany(
            "INSERT INTO seat_history (channel_id, seat, user_id, name, automatic, from_step, at, reason) "
            "VALUES (?,?,?,?,?,?,?,?)",
            [
                (h.channel_id, h.seat, h.user_id, h.name, int(h.automatic), h.from_step, h.at, h.reason)
                for h in rows
            ],
        )

    def _write_events(self, conn: sqlite3.Connection, events: Sequence[EventRow]) -> None:
        conn.executemany(
            "INSERT INTO events (channel_id, action_idx, audience, kind, text, at) VALUES (?,?,?,?,?,?)",
            [(e.channel_id, e.action_idx, e.audience, e.kind, e.text, e.at) for e in events],
        )

    def _write_deadlines(self, conn: sqlite3.Connection, rows: Mapping[int, Sequence[DeadlineRow]]) -> None:
        """Replace the deadlines of each channel in `rows` by its new ones."""
        conn.executemany("DELETE FROM deadlines WHERE channel_id=?", [(c,) for c in rows])
        params = [
            (
                channel_id,
                d.phase,
                d.started_at,
                d.due_at,
                d.next_at,
                _json_list(d.reminders),
                _json_list(d.reminders_sent),
                int(d.extended),
                d.thread,
            )
            for channel_id, deadlines in rows.items()
            for d in deadlines
        ]
        if params:
            conn.executemany(
                "INSERT INTO deadlines (channel_id, phase, started_at, due_at, next_at, reminders, "
                "reminders_sent, extended, thread) VALUES (?,?,?,?,?,?,?,?,?)",
                params,
            )

    def _write_seats(self, conn: sqlite3.Connection, rows: Mapping[int, Sequence[SeatRow]]) -> None:
        """Replace the seats of each channel in `rows` by its new ones."""
        conn.executemany("DELETE FROM seats WHERE channel_id=?", [(c,) for c in rows])
        params = [
            (channel_id, s.user_id, s.name, s.position, s.preference, s.seat, s.joined_at, int(s.automatic))
            for channel_id, seats in rows.items()
            for s in seats
        ]
        if params:
            conn.executemany(f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)", params)

    # the outbox rows and turn notices a save carries (add_outbox and claim_digest write
    # outbox rows through the same statement)
    @staticmethod
    def _append_outbox(conn: sqlite3.Connection, rows: Sequence[OutboxRow]) -> None:
        conn.executemany(
            "INSERT INTO outbox (id, channel_id, created_at, body, attempts, next_try_at) VALUES (?,?,?,?,?,?)",
            [(o.id, o.channel_id, o.created_at, o.body, o.attempts, o.next_try_at) for o in rows],
        )

    @staticmethod
    def _keep_notices(conn: sqlite3.Connection, notices: Sequence[NoticeRow]) -> None:
        conn.executemany(
            "INSERT INTO turn_notices (channel_id, user_id, due_at, body) VALUES (?,?,?,?) "
            "ON CONFLICT (channel_id, user_id) DO UPDATE SET due_at=excluded.due_at, body=excluded.body",
            [(n.channel_id, n.user_id, n.due_at, n.body) for n in notices],
        )
