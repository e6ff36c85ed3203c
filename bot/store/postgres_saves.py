"""The PostgreSQL store's saves, grouped: the saves of many tables in one statement.

Under load, saves that arrive while a batch is in the database wait for it and then go
together (`group_commit.GroupCommit`, as on SQLite): one statement, one transaction, one
round trip and one commit for the whole batch, not one each. The store keeps a few such
queues (`postgres.SAVE_LANES`), a table's saves always in the same one, so batches of
different tables are in the database at once while the process plays on. The statement
is always the same text (every kind of row as an array, empty when a save has none), so
each pooled connection prepares it once.

Each save stays its own: its table row is updated only under its version check, and its
actions, events, seat history, deadlines and outbox rows are written only if that update
found its row (a stale save changes nothing and is told so: `StaleWrite`, as before). The
batch commits or fails as a whole; a batch that fails is written again one save at a time,
so a save the database refuses fails only its own caller (docs/architecture.md §4).

The table rows are locked in channel order before they are updated, so two processes
saving overlapping tables in batches wait for each other instead of deadlocking.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from .base import (
    JSON_COLUMNS,
    UPDATABLE_COLUMNS,
    ActionRow,
    DeadlineRow,
    EventRow,
    OutboxRow,
    SeatHistoryRow,
    StaleWrite,
    TableRow,
)

__all__ = ["QueuedSave", "write_saves", "BATCH_SQL", "REFUSED"]

# What the database raises for a save it refuses (a broken constraint, a value it cannot
# take); anything else (the connection lost) fails the whole batch.
REFUSED = (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError)

# Each updatable column's PostgreSQL type (a new column of UPDATABLE_COLUMNS must be named here).
_COLUMN_TYPES = {
    "guild_id": "bigint",
    "options": "text",
    "settings": "text",
    "status": "text",
    "state": "text",
    "host_id": "bigint",
    "seed": "bigint",
    "thread_id": "bigint",
    "status_message_id": "bigint",
    "meta": "text",
}

# The rows a save appends, as typed arrays that unnest() turns back into rows. `ordered`:
# their ids come from an identity column, so they are inserted in the order given.
_KINDS: dict[str, tuple[tuple[tuple[str, str], ...], bool]] = {
    "actions": (
        (("channel_id", "bigint"), ("idx", "int"), ("seat", "text"), ("user_id", "bigint"),
         ("action", "text"), ("at", "float8"), ("undoable", "bool")),
        False,
    ),  # fmt: skip
    "events": (
        (("channel_id", "bigint"), ("action_idx", "int"), ("audience", "text"), ("kind", "text"),
         ("text", "text"), ("at", "float8")),
        True,
    ),  # fmt: skip
    "seat_history": (
        (("channel_id", "bigint"), ("seat", "text"), ("user_id", "bigint"), ("name", "text"),
         ("automatic", "bool"), ("from_step", "int"), ("at", "float8"), ("reason", "text")),
        True,
    ),  # fmt: skip
    "deadlines": (
        (("channel_id", "bigint"), ("phase", "text"), ("started_at", "float8"), ("due_at", "float8"),
         ("next_at", "float8"), ("reminders", "text"), ("reminders_sent", "text"), ("extended", "bool"),
         ("thread", "text")),
        False,
    ),  # fmt: skip
    "outbox": (
        (("id", "bigint"), ("channel_id", "bigint"), ("created_at", "float8"), ("body", "text"),
         ("attempts", "int"), ("next_try_at", "float8")),
        False,
    ),  # fmt: skip
}


def _batch_sql() -> str:
    """The statement: the saves' table rows as arrays (channel, expected version, updated_at,
    a mask of the columns each changes, then each column's values), each kind of row as
    arrays, then the channels whose deadlines the save replaces. Returns the channels
    whose rows it updated; only their rows are written."""
    n = 0

    def param(sql_type: str) -> str:
        nonlocal n
        n += 1
        return f"${n}::{sql_type}[]"

    head = [param("bigint"), param("int"), param("float8"), param("int")]
    head += [param(_COLUMN_TYPES[c]) for c in UPDATABLE_COLUMNS]
    sets = ", ".join(
        f"{c} = CASE WHEN u.mask & {1 << i} <> 0 THEN u.{c} ELSE t.{c} END" for i, c in enumerate(UPDATABLE_COLUMNS)
    )
    parts = [
        f"u AS MATERIALIZED (SELECT * FROM unnest({', '.join(head)}) "
        f"AS u(channel_id, expected, updated_at, mask, {', '.join(UPDATABLE_COLUMNS)}))",
        # locked in channel order: overlapping batches of two processes wait, never deadlock
        "locked AS MATERIALIZED (SELECT channel_id FROM tables WHERE channel_id IN (SELECT channel_id FROM u) "
        "ORDER BY channel_id FOR UPDATE)",
        f"upd AS (UPDATE tables t SET {sets}, version = u.expected + 1, updated_at = u.updated_at FROM u "
        "WHERE t.channel_id = u.channel_id AND t.version = u.expected "
        "AND t.channel_id IN (SELECT channel_id FROM locked) RETURNING t.channel_id)",
    ]
    deadline_keys = ""
    for kind, (columns, ordered) in _KINDS.items():
        arrays = [param(t) for _, t in columns]
        names = ", ".join(c for c, _ in columns)
        rows = f"unnest({', '.join(arrays)}) WITH ORDINALITY AS r({names}, n)"
        insert = (
            f"INSERT INTO {kind} ({names}) SELECT {names} FROM {rows} "
            "WHERE r.channel_id IN (SELECT channel_id FROM upd)" + (" ORDER BY n" if ordered else "")
        )
        if kind == "deadlines":
            deadline_keys = f"unnest({arrays[0]}, {arrays[1]}) AS k(channel_id, phase)"
            insert += " ON CONFLICT (channel_id, phase) DO UPDATE SET " + ", ".join(
                f"{c} = excluded.{c}" for c, _ in columns[2:]
            )
        parts.append(f"w_{kind} AS ({insert})")
    # the deadlines of a save that replaces them: phases no longer open go, the open ones
    # are upserted above (a key deleted and inserted again in one statement would conflict)
    parts.append(
        f"d_gone AS (DELETE FROM deadlines d WHERE d.channel_id = ANY({param('bigint')}) "
        "AND d.channel_id IN (SELECT channel_id FROM upd) AND NOT EXISTS "
        f"(SELECT 1 FROM {deadline_keys} WHERE k.channel_id = d.channel_id AND k.phase = d.phase))"
    )
    return f"WITH {', '.join(parts)} SELECT channel_id FROM upd"


BATCH_SQL = _batch_sql()


@dataclass(slots=True)
class QueuedSave:
    """One table's save, waiting for the next batch: the common save (no seats replaced,
    no actions taken back: postgres.py writes those statement by statement)."""

    table: TableRow
    expected_version: int
    columns: Sequence[str] | None
    actions: Sequence[ActionRow]
    events: Sequence[EventRow]
    deadlines: Sequence[DeadlineRow] | None
    history: Sequence[SeatHistoryRow]
    outbox: Sequence[OutboxRow]


_POSITION = {c: i for i, c in enumerate(UPDATABLE_COLUMNS)}  # a column's place and bit in the mask


def _changed(t: TableRow, columns: Sequence[str] | None) -> tuple[int, list[Any]]:
    """The mask of the columns a save writes (all of them when it names none) and every
    updatable column's value: as stored (the JSON ones as text) where written, else None."""
    values: list[Any] = [None] * len(UPDATABLE_COLUMNS)
    mask = 0
    for c in UPDATABLE_COLUMNS if columns is None else columns:
        i = _POSITION.get(c)
        if i is not None and not mask & (1 << i):
            mask |= 1 << i
            value = getattr(t, c)
            values[i] = json.dumps(value) if c in JSON_COLUMNS else value
    return mask, values


def _params(saves: Sequence[QueuedSave]) -> list[Any]:
    """BATCH_SQL's parameters for `saves`: each column of each kind of row as one list."""
    heads: list[tuple[Any, ...]] = []
    rows: dict[str, list[tuple[Any, ...]]] = {kind: [] for kind in _KINDS}
    replaced = []
    for s in saves:
        t = s.table
        mask, values = _changed(t, s.columns)
        heads.append((t.channel_id, s.expected_version, t.updated_at or time.time(), mask, *values))
        rows["actions"] += [(a.channel_id, a.idx, a.seat, a.user_id, a.action, a.at, a.undoable) for a in s.actions]
        rows["events"] += [(e.channel_id, e.action_idx, e.audience, e.kind, e.text, e.at) for e in s.events]
        rows["seat_history"] += [
            (h.channel_id, h.seat, h.user_id, h.name, h.automatic, h.from_step, h.at, h.reason) for h in s.history
        ]
        if s.deadlines is not None:
            replaced.append(t.channel_id)
            rows["deadlines"] += [
                (t.channel_id, d.phase, d.started_at, d.due_at, d.next_at, json.dumps(d.reminders),
                 json.dumps(d.reminders_sent), d.extended, d.thread)
                for d in s.deadlines
            ]  # fmt: skip
        rows["outbox"] += [(o.id, o.channel_id, o.created_at, o.body, o.attempts, o.next_try_at) for o in s.outbox]
    params: list[Any] = [list(column) for column in zip(*heads, strict=True)]
    for kind, (columns, _) in _KINDS.items():
        found = rows[kind]
        params += [list(column) for column in zip(*found, strict=True)] if found else [[] for _ in columns]
    params.append(replaced)
    return params


async def write_saves(pool: asyncpg.Pool, saves: list[QueuedSave]) -> list[BaseException | None]:
    """Write `saves` (for `GroupCommit`): for each, None once committed, or what refused it.
    A table saved twice in one batch is written in a second statement after the first
    (one statement cannot update a row twice); a batch the database refuses is written
    again one save at a time, so only the refused save fails."""
    failures: dict[int, BaseException | None] = {}
    rounds: list[list[int]] = []  # indexes into saves; each round names a table once
    seen: dict[int, int] = {}
    for i, s in enumerate(saves):
        k = seen[s.table.channel_id] = seen.get(s.table.channel_id, -1) + 1
        if k == len(rounds):
            rounds.append([])
        rounds[k].append(i)
    async with pool.acquire() as conn:
        for batch in rounds:
            try:
                await _write(conn, batch, saves, failures)
            except REFUSED as exc:
                if len(batch) == 1:
                    failures[batch[0]] = exc
                    continue
                for i in batch:  # which save was refused: each alone, in its own statement
                    try:
                        await _write(conn, [i], saves, failures)
                    except REFUSED as one:
                        failures[i] = one
    return [failures.get(i) for i in range(len(saves))]


async def _write(
    conn: asyncpg.Connection, batch: list[int], saves: list[QueuedSave], failures: dict[int, BaseException | None]
) -> None:
    """One statement for the saves at `batch`; a save whose table was not at its expected
    version gets StaleWrite."""
    saved = {r[0] for r in await conn.fetch(BATCH_SQL, *_params([saves[i] for i in batch]))}
    for i in batch:
        s = saves[i]
        if s.table.channel_id not in saved:
            failures[i] = StaleWrite(f"table {s.table.channel_id} changed since version {s.expected_version}")
