"""What the front end was answered for a table, kept in rows of its own (migration 0008):
the table's status message, its phase thread, and where the round summary the status
message holds starts (docs/architecture.md §3, "The path of one action", step 8); and
the turn notice each member's DMs hold live for the table (`LiveNotice`, migration 0009).

These are not the table's: writing them loads, locks and versions no table, so a
delivery that learns a message id never races the next player's action. Both stores
read and write them with the SQL here; `FrontRow.table_created` ties a row to one table
of its channel (the channel's next table is not bound by it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["DELETE_FRONT_SQL", "FRONT_COLUMNS", "FRONT_SQL", "GET_FRONT_SQL", "KEPT", "NOTICE_TEXTS_SQL", "FrontRow", "LiveNotice", "front_params", "front_row", "live_notice", "notice_params", "put_front_sql"]


@dataclass(frozen=True)
class FrontRow:
    """The front end's rows of the table in `channel_id` created at `table_created`."""

    channel_id: int
    table_created: float  # the table's created_at: a row of an earlier table is not this one's
    status_message_id: int | None = None
    thread_id: int | None = None
    summary: dict[str, Any] | None = None  # posts.StoredSummary: where it starts and its message


FRONT_COLUMNS = "channel_id, table_created, status_message_id, thread_id, summary"
GET_FRONT_SQL = f"SELECT {FRONT_COLUMNS} FROM front_messages WHERE channel_id=?"
KEPT = ("status_message_id", "thread_id", "summary")  # what a row keeps, beside its keys


def put_front_sql(columns: Sequence[str] = KEPT) -> str:
    """Insert the row, or, where the channel has one, set its `columns` alone (two
    deliveries of one channel, each keeping one thing, do not undo each other)."""
    kept = ", ".join(f"{c}=excluded.{c}" for c in ("table_created", *columns))
    return (
        f"INSERT INTO front_messages ({FRONT_COLUMNS}) VALUES (?,?,?,?,?) "
        f"ON CONFLICT (channel_id) DO UPDATE SET {kept}"
    )


# forgetting a member (forgetting.py): the summaries' headings name the players
FRONT_SQL = "SELECT channel_id, summary FROM front_messages WHERE summary IS NOT NULL"
DELETE_FRONT_SQL = "DELETE FROM front_messages WHERE channel_id=?"


def front_row(values: Sequence[Any]) -> FrontRow:
    """A FrontRow from a row selected as FRONT_COLUMNS."""
    return FrontRow(
        channel_id=values[0],
        table_created=values[1],
        status_message_id=values[2],
        thread_id=values[3],
        summary=json.loads(values[4]) if values[4] is not None else None,
    )


def front_params(row: FrontRow) -> tuple[Any, ...]:
    """A FrontRow's values in FRONT_COLUMNS' order."""
    summary = json.dumps(row.summary) if row.summary is not None else None
    return (row.channel_id, row.table_created, row.status_message_id, row.thread_id, summary)


# -- the turn notices sent by DM (bot/discord/private.py; migration 0009) ------------------


@dataclass(frozen=True)
class LiveNotice:
    """The turn notice a member's DMs hold for the table in `channel_id`: one at most, so
    the next replaces it and a decision taken edits it, after a restart too."""

    channel_id: int
    user_id: int
    dm_id: int  # their DM channel
    message_id: int
    text: str  # what it says: the decision it asks for, in words ("Decided" strikes it through)
    seat: str | None = None  # the seat whose decision it asks for
    decided: bool = False  # edited to say its decision was taken


NOTICE_COLUMNS = "channel_id, user_id, dm_id, message_id, text, seat, decided"
GET_NOTICES_SQL = f"SELECT {NOTICE_COLUMNS} FROM front_notices WHERE channel_id=? ORDER BY user_id"
PUT_NOTICE_SQL = (
    f"INSERT INTO front_notices ({NOTICE_COLUMNS}) VALUES (?,?,?,?,?,?,?) ON CONFLICT (channel_id, user_id) "
    "DO UPDATE SET dm_id=excluded.dm_id, message_id=excluded.message_id, text=excluded.text, "
    "seat=excluded.seat, decided=excluded.decided"
)
# these name the message: a newer notice kept meanwhile in its place is not touched
DECIDED_NOTICE_SQL = "UPDATE front_notices SET decided=? WHERE channel_id=? AND user_id=? AND message_id=?"
DELETE_NOTICE_SQL = "DELETE FROM front_notices WHERE channel_id=? AND user_id=? AND message_id=?"
# forgetting a member (forgetting.py): their rows go; the others' texts may name them
NOTICE_TEXTS_SQL = "SELECT channel_id, user_id, text FROM front_notices"


def live_notice(values: Sequence[Any]) -> LiveNotice:
    """A LiveNotice from a row selected as NOTICE_COLUMNS (SQLite's `decided` is 0 or 1)."""
    channel_id, user_id, dm_id, message_id, text, seat, decided = values
    return LiveNotice(channel_id, user_id, dm_id, message_id, text, seat, bool(decided))


def notice_params(notice: LiveNotice) -> tuple[Any, ...]:
    """A LiveNotice's values in NOTICE_COLUMNS' order."""
    n = notice
    return (n.channel_id, n.user_id, n.dm_id, n.message_id, n.text, n.seat, n.decided)
