"""A loaded table and the one way to reach it: `LoadedTable` and `TableAccess`.

`LoadedTable` holds one version of a table: its stored rows, its game and its parsed
state. `TableAccess` owns the per-channel locks, the in-process cache of loaded tables,
loading, saving (one transaction, checked against the row's version) and running a change
under the lock (`with_table`). Every part of the table service reaches a table through
it; none of them keeps a table of its own or writes to the store's table rows directly.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from engine import games
from engine.core import Game, GameError, GameState, Prompt

from ..render.text import escape
from ..store import (
    UPDATABLE_COLUMNS,
    ActionRow,
    DatabaseLost,
    DeadlineRow,
    EventRow,
    SeatHistoryRow,
    SeatRow,
    StaleWrite,
    StorageFull,
    Store,
    StoreError,
    TableRow,
)
from ..store.guard import FULL_MESSAGE, LOST_MESSAGE
from .bounded import KeyedLocks
from .errors import NO_TABLE, NOT_STARTED, TableError
from .outbox import Outbox, outbox_row
from .preferences import Preferences
from .saved import note_saved, track_saves
from .settings import Settings
from .shown import Shown

log = logging.getLogger(__name__)

# Runs of a change on fresh rows after its first stored nothing because another process
# saved the table first. Safe (nothing of it is stored), and each costs one read: two
# processes acting at the same tables without a pause (tests/reliability/test_shared_tables.py)
# met the busy answer on about 4% of actions with one, and none with FRESH_RUNS.
FRESH_RUNS = 3
# Said only of a change that was not stored: another process kept saving the table first.
BUSY = "The table is busy right now; please try again."
# A change stored by its first save whose later saves (what follows it) were not made.
SAVED_UNFINISHED = (
    "Your change was saved, but the table changed at the same moment, so what comes after it "
    "is left for later."
)
FULL_AFTER_SAVE = (
    "Your change was saved, but the bot's disk is now full, so what comes after it was not. "
    "The bot's operator has been told."
)

_UNREAD: Any = object()  # a cached value not computed yet


class LoadedTable:
    """One version of a table: the table row, its seats, its deadlines, the game and the
    parsed state.

    A version is replaced, never changed, on every save (an action's step plays on a copy
    of the state: `Game.step`), so its settings, prompts and seat lookup are computed once;
    `TableAccess.save` hands the next version those that still hold."""

    __slots__ = ("row", "seats", "deadlines", "game", "state", "_prompts", "_settings", "_holders", "showed")

    def __init__(
        self,
        row: TableRow,
        seats: list[SeatRow],
        deadlines: list[DeadlineRow],
        game: Game,
        state: GameState | None,
        *,
        prompts: list[Prompt] | None = None,
        settings: Settings | None = None,
        holders: dict[str | None, SeatRow] | None = None,
    ) -> None:
        self.row = row
        self.seats = seats
        self.deadlines = deadlines
        self.game = game
        self.state = state
        self._prompts = _UNREAD if prompts is None else prompts
        self._settings = _UNREAD if settings is None else settings
        self._holders = _UNREAD if holders is None else holders
        # its save wrote what the status shows into an outbox (TableAccess.save, shown.py)
        self.showed = False

    def replaced(self, **changes: Any) -> LoadedTable:
        """A new version with some of row, seats, deadlines and state changed (nothing
        cached is carried over)."""
        return LoadedTable(
            changes.get("row", self.row),
            changes.get("seats", self.seats),
            changes.get("deadlines", self.deadlines),
            self.game,
            changes["state"] if "state" in changes else self.state,
        )

    # -- what is computed once per version ------------------------------------------------------
    @property
    def settings(self) -> Settings:
        if self._settings is _UNREAD:
            self._settings = Settings.from_json(self.row.settings)
        return self._settings

    @property
    def prompts(self) -> list[Prompt]:
        if self._prompts is _UNREAD:
            state = self.state
            self._prompts = self.game.prompts(state) if state is not None else []
        return self._prompts

    def known_prompts(self) -> list[Prompt] | None:
        """The prompts if already computed (None: not yet)."""
        return None if self._prompts is _UNREAD else self._prompts

    def known_settings(self) -> Settings | None:
        return None if self._settings is _UNREAD else self._settings

    def known_holders(self) -> dict[str | None, SeatRow] | None:
        return None if self._holders is _UNREAD else self._holders

    def holders(self) -> dict[str | None, SeatRow]:
        """Seat -> its row (the first row wins); seats are looked up several times per action."""
        if self._holders is _UNREAD:
            self._holders = {s.seat: s for s in reversed(self.seats)}
        return self._holders

    # -- who sits where ------------------------------------------------------------------------
    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def holder(self, seat: str) -> SeatRow | None:
        return self.holders().get(seat)

    def label(self, seat: str) -> str:
        state = self.state
        return self.game.seat_label(state, seat) if state is not None else seat

    def human(self, seat: str) -> SeatRow | None:
        """The member who receives this seat's private lines: none for an automatic seat."""
        holder = self.holder(seat)
        return holder if holder is not None and not holder.automatic else None

    def free_seats(self) -> list[str]:
        """Engine seats no row holds (an imported game waiting for players)."""
        held = {s.seat for s in self.seats}
        state = self.state
        return [seat for seat in state.seats if seat not in held] if state is not None else []

    def who(self, seat: str) -> str:
        """The player's name as a message shows it (escaped: a display name is never read as
        markup or a mention); the seat list shows which nation each plays."""
        holder = self.holder(seat)
        return escape(holder.name) if holder else self.label(seat)

    def who_as(self, seat: str) -> str:
        """The player's name with their seat in the game's words: "alice (France)"."""
        label = self.label(seat)
        return self.who(seat) if label == seat else f"{self.who(seat)} ({label})"


def started_state(t: LoadedTable) -> GameState:
    """Loaded table `t`'s game state, for a caller that reaches it only once the game has
    started (a lobby has none): refused as not started if it has none after all."""
    if t.state is None:
        raise TableError(NOT_STARTED)
    return t.state


def started_seed(t: LoadedTable) -> int:
    """Loaded table `t`'s seed, chosen when the game started (or kept by an import)."""
    if t.row.seed is None:
        raise TableError(NOT_STARTED)
    return t.row.seed


def dealt_seat(s: SeatRow) -> str:
    """The engine seat of a seat row once the game dealt the seats (a lobby's rows have none)."""
    if s.seat is None:
        raise TableError(NOT_STARTED)
    return s.seat


def _copy_row(row: TableRow) -> TableRow:
    """A shallow copy, without dataclasses.replace's per-field __init__ (it showed in profiles)."""
    new = object.__new__(TableRow)
    new.__dict__.update(row.__dict__)
    return new


def _after(
    t: LoadedTable,
    row: TableRow,
    state: GameState | None,
    seats: list[SeatRow] | None,
    deadlines: list[DeadlineRow] | None,
    prompts: list[Prompt] | None,
) -> LoadedTable:
    """Table `t` once saved as `row` with what changed (None: unchanged); what it computed
    once that the change leaves as it was is carried over."""
    if prompts is None and state is None:
        prompts = t.known_prompts()  # the same state: the same prompts
    return LoadedTable(
        row,
        seats if seats is not None else t.seats,
        deadlines if deadlines is not None else t.deadlines,
        t.game,
        state if state is not None else t.state,
        prompts=prompts,
        settings=t.known_settings() if row.settings == t.row.settings else None,
        holders=t.known_holders() if seats is None else None,
    )


class TableAccess:
    """The locks, the cache of loaded tables, loading and saving.

    Owns: which `LoadedTable` is the current version of each cached channel. It may not
    decide anything about a game: the parts hand it a change (`with_table`) or a finished
    version to save (`save`)."""

    def __init__(
        self, store: Store, clock: Callable[[], float], preferences: Preferences, cache_size: int
    ) -> None:
        self.store = store
        self.clock = clock
        self.preferences = preferences  # read for a table's members when it is first used
        self.locks = KeyedLocks()  # a channel's lock exists only while held or awaited
        # the tables kept loaded; past it an acting table is read from the database again
        self.cache: OrderedDict[int, LoadedTable] = OrderedDict()
        self.cache_size = cache_size
        # What a front end shows of a table as saved (Posts.shown), written into the outbox
        # a save stores, so its delivery reads no table; set by TableService.
        self.showing: Callable[[LoadedTable, Sequence[EventRow], int | None], Awaitable[Shown]] | None = None

    def lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        return self.locks.hold(channel_id)

    async def load(self, channel_id: int, *, fresh: bool = False, check: bool = True) -> LoadedTable:
        """The table, from the cache if it has it. Where other processes may save it too,
        a cached table is used only if its version is the stored one; `check=False` skips
        that read for a caller that checks afterwards (`with_table`)."""
        cached = None if fresh else self.cache.get(channel_id)
        if cached is not None and (
            # other processes may have saved this table: use the cache only if it is current
            not check or not self.store.shared or await self.store.table_version(channel_id) == cached.row.version
        ):
            # remembered again, not moved: another table's load may have evicted it during
            # the version check (this table's lock is ours, so nothing newer replaced it)
            self.remember(cached)
            return cached
        row = await self.store.get_table(channel_id)
        if row is None:
            self.cache.pop(channel_id, None)
            raise TableError(NO_TABLE)
        try:
            game = games.get(row.game)
        except GameError:
            raise TableError(f"This table plays {row.game!r}, which this bot no longer knows.") from None
        table = LoadedTable(
            row,
            await self.store.get_seats(channel_id),
            await self.store.get_deadlines(channel_id),
            game,
            game.load_state(row.state) if row.state else None,
        )
        self.remember(table)
        return table

    def remember(self, table: LoadedTable) -> None:
        self.cache[table.row.channel_id] = table
        self.cache.move_to_end(table.row.channel_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    async def save(
        self,
        t: LoadedTable,
        *,
        row: TableRow | None = None,
        state: GameState | None = None,
        seats: list[SeatRow] | None = None,
        deadlines: list[DeadlineRow] | None = None,
        actions: list[ActionRow] = (),  # type: ignore[assignment]
        events: list[EventRow] = (),  # type: ignore[assignment]
        prompts: list[Prompt] | None = None,
        history: list[SeatHistoryRow] = (),  # type: ignore[assignment]
        truncate_from: int | None = None,
        outbox: Outbox | None = None,
    ) -> LoadedTable:
        """Save a changed table in one transaction; the cache only learns of it on success.
        Only what changed is written: the columns that differ, deadlines and seats if new.
        `outbox`: what the change asks the front end to say, stored with it (what it
        holds not stored yet: bot/service/deliveries.py), so it is said even if this
        process dies before saying it."""
        row = _copy_row(row or t.row)  # the cached row stays as it was until the save succeeds
        row.updated_at = self.clock()
        if state is not None:
            row.state = state.model_dump_json()
        new_values, old_values = row.__dict__, t.row.__dict__
        columns = [
            c
            for c in UPDATABLE_COLUMNS
            if new_values[c] is not old_values[c] and new_values[c] != old_values[c]
        ]
        if deadlines == t.deadlines:
            deadlines = None
        if outbox is not None and self.showing is not None:
            as_saved = _copy_row(row)
            as_saved.version = t.row.version + 1
            await self._show(outbox, _after(t, as_saved, state, seats, deadlines, prompts), events, truncate_from)
        said = outbox_row(outbox, row.updated_at) if outbox is not None else None
        try:
            saved = await self.store.save(
                row,
                t.row.version,
                actions=actions,
                events=events,
                deadlines=deadlines,
                seats=seats,
                columns=columns,
                history=history,
                truncate_from=truncate_from,
                outbox=(said,) if said is not None else (),
            )
        except BaseException:
            self.cache.pop(t.row.channel_id, None)  # the database is the truth; reload next time
            raise
        note_saved(t.row.channel_id)
        if said is not None:
            outbox.mark_kept(said.id)  # type: ignore[union-attr]
        new = _after(t, saved, state, seats, deadlines, prompts)
        new.showed = outbox is not None and outbox.shown is not None
        self.remember(new)
        return new

    async def _show(
        self, outbox: Outbox, after: LoadedTable, events: Sequence[EventRow], truncate_from: int | None
    ) -> None:
        """Write into `outbox` what a front end shows of the table once `after` is saved."""
        assert self.showing is not None
        try:
            outbox.shown = await self.showing(after, events, truncate_from)
        except StoreError:
            raise
        except Exception:  # the action stands; its delivery reads the table instead (deliveries.py)
            log.warning("could not write what the status of table %s shows", after.row.channel_id, exc_info=True)
            outbox.shown = None

    async def reload(self, channel_id: int) -> LoadedTable:
        """The stored table read afresh, with its members' preferences, for a caller that
        holds the channel's lock and met another process's save (`Play.autoplay`)."""
        return await self._with_preferences(await self.load(channel_id, fresh=True))

    async def _with_preferences(self, table: LoadedTable) -> LoadedTable:
        """`table`, its members' notification preferences loaded if they were not yet."""
        if self.preferences.missing(table.seats):
            await self.preferences.load(table.seats)
        return table

    async def with_table(self, channel_id: int, fn: Callable[[LoadedTable], Any]) -> Any:
        """Run `fn` on the table under its lock; again on fresh rows if another process
        saved in between, but only while `fn` has stored nothing.

        `fn` runs again, on rows read afresh (`FRESH_RUNS` times at most), only when its
        run stored nothing of the table: its first save was refused because another
        process saved first (`StaleWrite`), or it gave a refusal from a cached copy that
        was not the stored one. Once `fn` has saved the table, it never runs again: that
        save is the caller's change (a player's action, a vote, a setting), and another
        run would apply it twice, or refuse it as no longer owed. A part that saves more
        than once in a call deals with a later save meeting another process's itself
        (`Play.autoplay` goes on from the stored table); one that does not is answered
        `SAVED_UNFINISHED` (the change is stored, what was to follow it is not). `BUSY`
        ("please try again") is said only when no run stored anything.

        Where other processes may save the table, a cached table is not checked before
        `fn` runs but after: a save checks the version itself (a stale one is refused and
        `fn` runs again), so an action costs no extra read. Only if `fn` saved nothing (a
        refusal, a query) is the stored version read, and `fn` runs again on fresh rows if
        the cached table was not the stored one."""
        if self.store.lost:  # the database went away under us: acknowledge nothing more
            raise TableError(LOST_MESSAGE)
        async with self.lock(channel_id):
            unchecked = self.store.shared and channel_id in self.cache
            table = await self._with_preferences(await self.load(channel_id, check=False))
            ran, result = await self._run_once(table, fn, checked=not unchecked)
            if ran:
                return result
            for _ in range(FRESH_RUNS):  # nothing was stored, the table was not the stored one
                ran, result = await self._run_once(await self.load(channel_id, fresh=True), fn, checked=True)
                if ran:
                    return result
            raise TableError(BUSY)

    async def _run_once(
        self, table: LoadedTable, fn: Callable[[LoadedTable], Any], *, checked: bool
    ) -> tuple[bool, Any]:
        """One run of `fn`: (True, its result), or (False, None) if it stored nothing
        because the table was not the stored one (it may run again). `checked`: `table`
        is known to be the stored one (read fresh, or no other process saves it)."""
        channel_id = table.row.channel_id
        with track_saves() as saved:
            try:
                if checked:
                    return True, await fn(table)
                return await self._run_checked(table, fn)
            except StaleWrite:
                if channel_id in saved:  # its change is stored: never run it again
                    log.info("a later save in channel %s met another process's; the change stands", channel_id)
                    raise TableError(SAVED_UNFINISHED) from None
                return False, None
            except DatabaseLost:
                raise TableError(LOST_MESSAGE) from None
            except StorageFull:
                log.error("the disk holding the database is full; a change in channel %s was not saved", channel_id)
                raise TableError(FULL_AFTER_SAVE if channel_id in saved else FULL_MESSAGE) from None

    async def _run_checked(self, table: LoadedTable, fn: Callable[[LoadedTable], Any]) -> tuple[bool, Any]:
        """`fn` on a cached table not checked against the store before: (True, its result)
        if it ran on the stored table, that is if `fn` saved it (under the version check)
        or its version is still the stored one; (False, None) if it must run again on
        fresh rows. A refusal is raised only if it is the stored table's own."""
        channel_id = table.row.channel_id

        async def current() -> bool:
            return channel_id in saved or await self.store.table_version(channel_id) == table.row.version

        with track_saves() as saved:
            try:
                result = await fn(table)
            except TableError:
                if await current():
                    raise
                return False, None
            return (True, result) if await current() else (False, None)
