"""The one async storage interface the table service talks to (docs/architecture.md §4).

Rows are plain dataclasses holding only ids and JSON text, never live Discord objects.
Every change to a table goes through `save`, which writes the table row, the action log,
events, deadlines and seats in one transaction guarded by the table's `version`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..process.shards import EVERY_SHARD, Shards
from .community import CommunityStore
from .front_rows import KEPT, FrontRow, LiveNotice

__all__ = [
    "DEADLINE_COLUMNS",
    "JSON_COLUMNS",
    "SEAT_COLUMNS",
    "TABLE_COLUMNS",
    "TABLE_FIELDS",
    "column_values",
    "deadline_row",
    "seat_row",
    "action_row",
    "seat_history_row",
    "table_params",
    "table_row",
    "due_tables_sql",
    "next_due_sql",
    "Status",
    "TableRow",
    "SeatRow",
    "ActionRow",
    "EventRow",
    "DeadlineRow",
    "SeatHistoryRow",
    "NotifyPrefs",
    "Store",
    "StoreError",
    "StaleWrite",
    "TableExists",
    "StorageFull",
    "UPDATABLE_COLUMNS",
    "Shards",
    "CommunityStore",
    "OutboxRow",
    "NoticeRow",
    "FrontRow",
]

Status = Literal["lobby", "running", "paused", "finished", "abandoned"]


class StoreError(Exception):
    """Storage failed; the previous state is intact."""


class StaleWrite(StoreError):
    """Another writer saved this table first; reload and try again."""


class StorageFull(StoreError):
    """The disk holding the database is full: the save was not made (rolled back)."""


class TableExists(StoreError):
    """A table already lives in this channel."""


@dataclass
class TableRow:
    channel_id: int
    game: str
    host_id: int
    status: Status = "lobby"
    guild_id: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    state: str | None = None  # the game State as JSON
    version: int = 0
    seed: int | None = None
    thread_id: int | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    status_message_id: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # pause votes, frozen clock, round label


# The TableRow fields a save may change and name in `columns` (version and updated_at
# are always written; channel_id, game and created_at never change).
UPDATABLE_COLUMNS = (
    "guild_id",
    "options",
    "settings",
    "status",
    "state",
    "host_id",
    "seed",
    "thread_id",
    "status_message_id",
    "meta",
)


@dataclass
class SeatRow:
    channel_id: int
    user_id: int
    name: str
    position: int
    preference: str | None = None
    seat: str | None = None  # engine seat id, given at start
    joined_at: float = 0.0
    automatic: bool = False  # played by the game's bot_action; user_id < 0 when no member holds it


@dataclass
class ActionRow:
    channel_id: int
    idx: int
    seat: str
    user_id: int | None  # None: a deadline acted for the seat
    action: str  # JSON
    at: float
    undoable: bool = False


@dataclass
class EventRow:
    channel_id: int
    action_idx: int | None
    audience: str | None
    kind: str
    text: str
    at: float


@dataclass
class DeadlineRow:
    channel_id: int
    phase: str
    started_at: float
    due_at: float
    reminders: list[float] = field(default_factory=list)  # pending reminder times
    reminders_sent: list[float] = field(default_factory=list)
    extended: bool = False
    thread: str | None = None

    @property
    def next_at(self) -> float:
        return min([self.due_at, *self.reminders])


@dataclass
class SeatHistoryRow:
    """From action `from_step` on, `name` (user_id) played `seat`."""

    channel_id: int
    seat: str
    user_id: int
    name: str
    from_step: int
    at: float
    automatic: bool = False
    reason: str = ""


@dataclass
class NotifyPrefs:
    user_id: int
    mode: Literal["dm", "mention"] = "dm"
    timezone: str = "UTC"
    quiet_hours: str | None = None  # "22-07" in `timezone`
    digest: str | None = None  # the daily digest's time, "08:00" in `timezone`; None: off
    digest_due: float | None = None  # when the next digest is due (bot/service/digest.py)
    digest_sent: float | None = None  # when the last digest went; `set_notify` leaves it


@dataclass
class OutboxRow:
    """What one save (or a later addition to the same answer) asked the front end to say,
    kept until it is delivered (bot/service/deliveries.py)."""

    id: int  # when it was made, in nanoseconds, unique in its process: a channel's order
    channel_id: int
    created_at: float
    body: str  # JSON: Outbox.to_body
    attempts: int = 0
    next_try_at: float = 0.0
    answered: int | None = None  # the member whose answer (an ephemeral reply) showed their lines


@dataclass
class NoticeRow:
    """A turn notice waiting out its grace before it goes by DM."""

    channel_id: int
    user_id: int
    due_at: float
    body: str  # JSON: the DM's texts, the mention and the fallback


class Store(ABC):
    # True where other processes may write the same tables (PostgreSQL): a cached table is
    # then checked against the stored version before it is used.
    shared: bool = False
    # The community's part: finished games, ratings, members, the directory, sign-ups
    # (bot/store/community.py), built by each backend with what it reads and writes through.
    community: CommunityStore

    @property
    def lost(self) -> bool:
        """True once the database went away under a running process (bot/store/guard.py):
        from then on nothing is saved, and the service says so instead of acknowledging."""
        return False

    # -- tables --------------------------------------------------------------------------
    @abstractmethod
    async def create_table(
        self,
        table: TableRow,
        seats: Sequence[SeatRow] = (),
        *,
        actions: Sequence[ActionRow] = (),
        events: Sequence[EventRow] = (),
    ) -> TableRow:
        """Insert a new table (version 1), with its seats and (for an imported game) its
        action log and events, in one transaction. TableExists if the channel has one."""

    @abstractmethod
    async def get_table(self, channel_id: int) -> TableRow | None: ...

    @abstractmethod
    async def table_version(self, channel_id: int) -> int | None:
        """The stored version of the channel's table (None: no table); one cheap read."""

    @abstractmethod
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
        """Write everything in one transaction, if the stored version is still
        `expected_version`; else StaleWrite and nothing changes. `deadlines` / `seats`,
        when given, replace the table's rows; `columns`, when given, names the only table
        columns that changed (version and updated_at are always written). Returns the
        table with its new version. `history` appends seat-history rows; `truncate_from`
        first deletes the actions from that index on and their events (undo); `outbox`
        adds what the save asked the front end to say."""

    # -- reading -------------------------------------------------------------------------
    @abstractmethod
    async def get_seats(self, channel_id: int) -> list[SeatRow]:
        """In table order (position)."""

    @abstractmethod
    async def get_actions(self, channel_id: int) -> list[ActionRow]: ...

    @abstractmethod
    async def get_events(
        self,
        channel_id: int,
        *,
        audience: str | None = None,
        public_only: bool = True,
        offset: int = 0,
        limit: int = 20,
    ) -> list[EventRow]:
        """Newest first. public_only=False with `audience` adds that seat's private events."""

    @abstractmethod
    async def count_events(self, channel_id: int, *, public_only: bool = True) -> int: ...

    @abstractmethod
    async def get_deadlines(self, channel_id: int) -> list[DeadlineRow]: ...

    @abstractmethod
    async def get_all_events(self, channel_id: int) -> list[EventRow]:
        """Every event, public and private, oldest first (publishing a finished game)."""

    @abstractmethod
    async def get_seat_history(self, channel_id: int) -> list[SeatHistoryRow]:
        """Oldest first."""

    @abstractmethod
    async def tables_of_user(self, user_id: int) -> list[int]:
        """Channels of lobby, running or paused tables where `user_id` is seated."""

    @abstractmethod
    async def tables_with_status(self, *statuses: str) -> list[int]: ...

    # -- scheduling ----------------------------------------------------------------------
    @abstractmethod
    async def due_tables(self, now: float, shards: Shards = EVERY_SHARD) -> list[int]:
        """Channels of running tables on `shards` with a deadline or reminder due at `now` or before."""

    @abstractmethod
    async def next_due(self, shards: Shards = EVERY_SHARD) -> float | None:
        """The earliest pending deadline or reminder of a running table on `shards`."""

    # -- private delivery ----------------------------------------------------------------
    @abstractmethod
    async def set_dm_closed(self, user_id: int, closed: bool, at: float) -> None: ...

    @abstractmethod
    async def is_dm_closed(self, user_id: int) -> bool: ...

    # -- notifications and liveness ---------------------------------------------------
    @abstractmethod
    async def set_notify(self, prefs: NotifyPrefs, at: float) -> None: ...

    @abstractmethod
    async def get_notify(self, user_id: int) -> NotifyPrefs:
        """The member's preferences (defaults if never set)."""

    # -- the daily digest (bot/service/digest.py) -----------------------------------------
    @abstractmethod
    async def due_digests(self, now: float) -> list[int]:
        """The members whose daily digest is due at `now` or before, the longest waiting first."""

    @abstractmethod
    async def next_digest(self) -> float | None:
        """When the next daily digest of any member is due."""

    @abstractmethod
    async def claim_digest(
        self, user_id: int, due: float, next_due: float | None, sent_at: float, row: OutboxRow | None
    ) -> bool:
        """One transaction: if the member's digest is still due at `due` (no other process
        sent it), it is due next at `next_due`, went at `sent_at`, and its message `row` is
        kept to be delivered. False (and nothing written) when it was not due at `due`."""

    @abstractmethod
    async def set_heartbeat(self, at: float, owner: str = "") -> None:
        """Record that the process serving `owner` (a `Shards.key`) is up at `at`."""

    @abstractmethod
    async def get_heartbeat(self, owner: str = "") -> float | None: ...

    # -- the outbox and the turn notices (bot/service/deliveries.py) ----------------------
    @abstractmethod
    async def add_outbox(self, rows: Sequence[OutboxRow]) -> None:
        """Keep posts asked for outside a save (an answer's lines added after its last save)."""

    @abstractmethod
    async def claim_outbox(self, now: float, lease: float, *, everything: bool = False) -> list[OutboxRow]:
        """The rows of every channel whose rows are all due (`next_try_at` <= now), in id
        order, claimed for `lease` seconds (their `next_try_at` moved on) so no other
        process delivers them meanwhile. `everything`: every row, due or not (a process
        that alone uses the database, starting up: nobody else holds a lease)."""

    @abstractmethod
    async def outbox_done(self, ids: Sequence[int], notices: Sequence[NoticeRow] = ()) -> None:
        """In one transaction: the delivered rows deleted, the turn notices they leave
        waiting for their grace kept (a notice of the same channel and member replaced)."""

    @abstractmethod
    async def outbox_retry(self, ids: Sequence[int], next_try_at: float, answered: int | None = None) -> None:
        """The rows' delivery failed: one attempt more, not again before `next_try_at`.
        `answered`: the member whose answer showed them their private lines already."""

    @abstractmethod
    async def outbox_waiting(self) -> tuple[int, float | None, set[int], float | None]:
        """How many rows wait, the oldest one's `created_at`, their channels, and the
        soonest time a channel's rows are all due (a channel is delivered all at once)."""

    @abstractmethod
    async def turn_notices(self) -> list[NoticeRow]: ...

    @abstractmethod
    async def drop_turn_notices(self, keys: Sequence[tuple[int, int]]) -> None:
        """The notices of these (channel, member) pairs were sent or are moot."""

    # -- what the front end was answered (bot/store/front_rows.py, migration 0008) ---------
    @abstractmethod
    async def get_front(self, channel_id: int) -> FrontRow | None:
        """The front end's row of the channel's table (None: none yet); no table is read."""

    @abstractmethod
    async def put_front(self, row: FrontRow, columns: Sequence[str] = KEPT) -> None:
        """Keep the front end's row, or of the channel's row only `columns`: no table is
        loaded, locked or given a new version."""

    @abstractmethod
    async def get_live_notices(self, channel_id: int) -> list[LiveNotice]:
        """The turn notices members' DMs hold for the channel's table (migration 0009)."""

    @abstractmethod
    async def put_live_notice(self, notice: LiveNotice) -> None:
        """Keep the member's notice at the table, in place of the one kept before."""

    @abstractmethod
    async def notice_decided(self, notice: LiveNotice) -> None:
        """The notice (that very message) now says its decision was taken."""

    @abstractmethod
    async def drop_live_notice(self, notice: LiveNotice) -> None:
        """The notice (that very message) is gone; a newer one kept in its place stays."""

    @abstractmethod
    async def close(self) -> None: ...


# -- the deadline loop's two queries, shared by both backends --------------------------
# Both start from the deadlines_by_next index: the loop runs them after every action, and
# joining from `tables` first scans every table (milliseconds at 10,000 tables; these take
# microseconds). tests/service/test_deadline_queries.py checks the plans.


def due_tables_sql(shards: Shards, now: str) -> str:
    """Running tables on `shards` with a deadline or reminder due by the parameter `now`."""
    return (
        "SELECT t.channel_id FROM tables t WHERE t.channel_id IN "
        f"(SELECT channel_id FROM deadlines WHERE next_at <= {now}) "
        f"AND t.status = 'running' AND {shards.sql()} ORDER BY t.channel_id"
    )


def next_due_sql(shards: Shards) -> str:
    """The earliest next_at of a running table on `shards`: the index read in order, stopping
    at the first deadline whose table qualifies."""
    return (
        "SELECT d.next_at FROM deadlines d WHERE EXISTS (SELECT 1 FROM tables t "
        f"WHERE t.channel_id = d.channel_id AND t.status = 'running' AND {shards.sql()}) "
        "ORDER BY d.next_at LIMIT 1"
    )


# -- rows and columns, shared by both backends -------------------------------------------
# Both stores select and insert in these orders, so a row converts by position (an
# sqlite3.Row and an asyncpg.Record both index by position).

TABLE_FIELDS = (
    "channel_id", "guild_id", "game", "options", "settings", "status", "state", "version",
    "host_id", "seed", "thread_id", "created_at", "updated_at", "status_message_id", "meta",
)  # the tables row's columns, in the order both stores select and insert them
TABLE_COLUMNS = ", ".join(TABLE_FIELDS)
JSON_COLUMNS = frozenset(("options", "settings", "meta"))  # TableRow fields stored as JSON text
SEAT_COLUMNS = "channel_id, user_id, name, position, preference, seat, joined_at, automatic"
DEADLINE_COLUMNS = "channel_id, phase, started_at, due_at, reminders, reminders_sent, extended, thread"


def column_values(t: TableRow, names: Sequence[str]) -> list[Any]:
    """The values of a TableRow's columns `names` as stored (JSON fields as text)."""
    return [json.dumps(getattr(t, c)) if c in JSON_COLUMNS else getattr(t, c) for c in names]


def table_row(values: Sequence[Any]) -> TableRow:
    """A TableRow from a row selected as TABLE_COLUMNS."""
    return TableRow(
        **{c: json.loads(v) if c in JSON_COLUMNS else v for c, v in zip(TABLE_FIELDS, values, strict=True)}
    )


def table_params(t: TableRow) -> list[Any]:
    """A TableRow's values in TABLE_COLUMNS' order, for an INSERT."""
    return column_values(t, TABLE_FIELDS)


def seat_row(values: Sequence[Any]) -> SeatRow:
    """A SeatRow from a row selected as SEAT_COLUMNS."""
    return SeatRow(
        channel_id=values[0],
        user_id=values[1],
        name=values[2],
        position=values[3],
        preference=values[4],
        seat=values[5],
        joined_at=values[6],
        automatic=bool(values[7]),  # SQLite stores 0/1
    )


def action_row(values: Sequence[Any]) -> ActionRow:
    """An ActionRow from a row selected as channel_id, idx, seat, user_id, action, at, undoable."""
    return ActionRow(
        channel_id=values[0],
        idx=values[1],
        seat=values[2],
        user_id=values[3],
        action=values[4],
        at=values[5],
        undoable=bool(values[6]),  # SQLite stores 0/1
    )


def seat_history_row(values: Sequence[Any]) -> SeatHistoryRow:
    """A SeatHistoryRow from a row selected as channel_id, seat, user_id, name, from_step,
    at, automatic, reason."""
    return SeatHistoryRow(
        channel_id=values[0],
        seat=values[1],
        user_id=values[2],
        name=values[3],
        from_step=values[4],
        at=values[5],
        automatic=bool(values[6]),  # SQLite stores 0/1
        reason=values[7],
    )


def deadline_row(values: Sequence[Any]) -> DeadlineRow:
    """A DeadlineRow from a row selected as DEADLINE_COLUMNS."""
    return DeadlineRow(
        channel_id=values[0],
        phase=values[1],
        started_at=values[2],
        due_at=values[3],
        reminders=json.loads(values[4]),
        reminders_sent=json.loads(values[5]),
        extended=bool(values[6]),  # SQLite stores 0/1
        thread=values[7],
    )
