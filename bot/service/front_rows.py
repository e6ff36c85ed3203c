"""What the front end was answered for a table, kept in its own rows: the status message,
the phase thread, and where the round summary the status message holds starts
(docs/architecture.md §3, "The path of one action", step 8; the rows: bot/store/front_rows.py).

`FrontRows` (reached as `service.posts.front`) reads and keeps them without the table's
lock and without a save: what Discord answered is never a new version of the table, so
it never races the next player's action, and an acknowledged action is one save.

A table that has no row yet (its bot kept these in the table row and its meta) is read
from there, so nothing is lost after an upgrade; its first keep writes the row whole.

The turn notice each member's DMs hold live for a table (`LiveNotice`) is kept the same
way, one row per member per table, so a restarted bot still edits or replaces it
(bot/discord/private.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..store.front_rows import KEPT, FrontRow, LiveNotice
from .bounded import KeyedLocks

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess
    from .shown import Shown

SUMMARY = "summary"  # the table's meta key where a bot kept the summary's start before these rows
IN_LOBBY = "lobby"  # a summary's key: kept before the game started (the start's own summary wins)


class FrontRows:
    """The front end's rows of the tables: read with a table, kept with no save of it."""

    def __init__(self, access: TableAccess) -> None:
        self.access = access
        self.store = access.store
        self._locks = KeyedLocks()  # a channel's keeps, one at a time (each reads, then writes)
        # told the channel whose row a keep is changing (Posts forgets what it read of it)
        self.changing: Callable[[int], None] = lambda channel_id: None

    async def of(self, t: LoadedTable) -> FrontRow:
        """What the front end was answered for table `t`: its row, else what the table row
        and meta kept. The summary the game's start set (in the meta, in the start's own
        save) wins over one kept while the table was a lobby."""
        return merged(t, await self._stored(t))

    async def keep(self, channel_id: int, **changes: Any) -> None:
        """Keep `changes` (of status_message_id, thread_id, summary) for the channel's table:
        one write of the front end's row, the table read (from the cache) but not locked
        or saved. A summary kept before the game started is marked so."""
        async with self._locks.hold(channel_id):
            t = await self.access.load(channel_id)
            stored = await self._stored(t)
            blank = FrontRow(t.row.channel_id, t.row.created_at)
            await self._write(blank, stored, merged(t, stored), t.row.status == "lobby", changes)

    async def keep_shown(self, shown: Shown, **changes: Any) -> None:
        """As `keep`, for the table a delivery shows, with no table read at all: which
        table it is and whether it was a lobby come from `shown` (its save wrote it), and
        where the table has no row yet, what that save read of the front end's."""
        async with self._locks.hold(shown.channel_id):
            stored = await self._stored_for(shown)
            blank = FrontRow(shown.channel_id, shown.table_created)
            await self._write(blank, stored, kept_for(shown, stored), shown.lobby, changes)

    async def _write(
        self, blank: FrontRow, stored: FrontRow | None, answered: FrontRow, lobby: bool, changes: dict[str, Any]
    ) -> None:
        """Keep `changes` over what the front end was `answered` (its `stored` row, if any)."""
        if changes.get("summary") is not None and lobby:
            changes["summary"] = {**changes["summary"], IN_LOBBY: True}
        new = replace(answered, **changes)
        if stored is not None and new == stored:
            return
        # a row written whole where there was none; where another process wrote one
        # meanwhile, or there is one, only what changed (what that process kept stays)
        old = stored if stored is not None else blank
        self.changing(new.channel_id)
        await self.store.put_front(new, tuple(c for c in KEPT if getattr(new, c) != getattr(old, c)))

    async def kept(self, shown: Shown) -> FrontRow:
        """What the front end was answered for the table `shown` is of, as `of` reads it,
        with no table read: its row, else what the save that wrote `shown` read."""
        return kept_for(shown, await self._stored_for(shown))

    async def _stored_for(self, shown: Shown) -> FrontRow | None:
        return await self._row_of(shown.channel_id, shown.table_created)

    # -- the turn notices sent by DM: no table is read, locked or saved -------------------
    async def notices(self, channel_id: int) -> list[LiveNotice]:
        """The turn notices members' DMs hold for the channel's table."""
        return await self.store.get_live_notices(channel_id)

    async def keep_notice(self, notice: LiveNotice) -> None:
        """The member's new notice at the table, in place of their last one."""
        await self.store.put_live_notice(notice)

    async def notice_decided(self, notice: LiveNotice) -> None:
        await self.store.notice_decided(notice)

    async def notice_gone(self, notice: LiveNotice) -> None:
        await self.store.drop_live_notice(notice)

    async def _stored(self, t: LoadedTable) -> FrontRow | None:
        return await self._row_of(t.row.channel_id, t.row.created_at)

    async def _row_of(self, channel_id: int, created: float) -> FrontRow | None:
        """The stored row of the channel's table created at `created` (one of an earlier
        table of the channel is not its)."""
        stored = await self.store.get_front(channel_id)
        return stored if stored is not None and stored.table_created == created else None


def merged(t: LoadedTable, stored: FrontRow | None) -> FrontRow:
    """The table's stored row, else what the table kept (`legacy`); its summary the one
    the game's start set if the row's was kept while the table was a lobby."""
    row = stored if stored is not None else legacy(t)
    summary = row.summary
    if summary is not None and summary.get(IN_LOBBY) and t.row.status != "lobby":
        summary = None
    if summary is None:
        summary = t.row.meta.get(SUMMARY)
    return row if summary is row.summary else replace(row, summary=summary)


def legacy(t: LoadedTable) -> FrontRow:
    """What a bot kept in the table row and its meta before these rows."""
    return FrontRow(
        channel_id=t.row.channel_id,
        table_created=t.row.created_at,
        status_message_id=t.row.status_message_id,
        thread_id=t.row.thread_id,
        summary=t.row.meta.get(SUMMARY),
    )


def kept_for(shown: Shown, stored: FrontRow | None) -> FrontRow:
    """`merged`, for a table known by what its save wrote (`shown`) rather than loaded."""
    if stored is None:
        return FrontRow(shown.channel_id, shown.table_created, shown.status_message_id, shown.thread_id, shown.summary_start)
    if stored.summary is not None and stored.summary.get(IN_LOBBY) and not shown.lobby:
        return replace(stored, summary=shown.summary_start)  # the start's own summary wins
    return stored
