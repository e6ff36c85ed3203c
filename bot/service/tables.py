"""The table service (docs/architecture.md §3): the only place that loads, locks, applies and saves.

One table per channel. Every call takes the table's lock, reads the table (from a small
cache checked by the store's version on write), changes it through the engine, saves in
one transaction, and returns an `Outbox` of what each front end must deliver. Refusals
raise `TableError` whose text is shown privately to the caller.

This module keeps the lifecycle (create, join, leave, start, abandon), play and the
shared loading and saving; the rest lives in mixins along its seams:
deadlines and outages (deadlines.py), pause, substitutes, automatic seats, undo and talks
(controls.py), log, export, import and publishing (history.py), notification preferences
(notify.py), status and post texts (posts.py).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from engine import games
from engine.core import (
    Choice,
    Event,
    Game,
    GameError,
    GameState,
    IllegalAction,
    Prompt,
    rng_for,
    seed_commitment,
)

from ..render import button_labels, seat_list, standings
from ..render.pictures import Picture
from ..render.pictures.cache import PictureCache
from ..store import (
    EVERY_SHARD,
    UPDATABLE_COLUMNS,
    ActionRow,
    DatabaseLost,
    DeadlineRow,
    EventRow,
    NotifyPrefs,
    SeatHistoryRow,
    SeatRow,
    Shards,
    StaleWrite,
    StorageFull,
    Store,
    TableExists,
    TableRow,
)
from ..store.guard import FULL_MESSAGE, LOST_MESSAGE
from .automatic import AutomaticPlayers
from .bounded import LRU, KeyedLocks
from .controls import ControlsMixin
from .deadlines import DeadlinesMixin
from .history import SEED_MAX, SEED_MIN, HistoryMixin
from .notify import NotifyMixin
from .outbox import Outbox, Post
from .posts import SUMMARY, PostsMixin
from .reference import check_options, options_text
from .tablebase import (
    CACHE_SIZE,
    NO_TABLE,
    NOT_SEATED,
    NOT_THIS_PHASE,
    OVER,
    PAUSED,
    RULES_NAMES_CHARS,
    SeatInfo,
    Settings,
    TableError,
    TableInfo,
    _first_error,
    _message,
    _Table,
    note_saved,
    track_saves,
)

__all__ = ["TableError", "Settings", "SeatInfo", "TableInfo", "TableService"]

# Members whose notification preferences are kept in memory; the seats of every table in
# use are among the most recent, and the rest are read again when their table loads.
PREFS_CACHE_SIZE = 4096

log = logging.getLogger(__name__)


def _copy_row(row: TableRow) -> TableRow:
    """A shallow copy, without dataclasses.replace's per-field __init__ (it showed in profiles)."""
    new = object.__new__(TableRow)
    new.__dict__.update(row.__dict__)
    return new


PREFERENCE_CHARS = 40


def _most_seats() -> int:
    return max(g.max_players for g in games.all())


def _random_seed() -> int:
    return secrets.randbits(63)


CHOICE_EXPIRED = "That choice has expired; here are your current options."


class ChoiceExpired(TableError):
    """A turn button pressed after the table moved on: the front end offers fresh ones."""


class TableService(DeadlinesMixin, ControlsMixin, HistoryMixin, NotifyMixin, PostsMixin):
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        default_settings: dict | None = None,
        seed_source: Callable[[], int] = _random_seed,
        shards: Shards = EVERY_SHARD,
        cache_size: int = CACHE_SIZE,
        draw_pictures: bool = True,
    ):
        self.store = store
        # the servers this process serves: their deadlines and outage notices are ours
        self.shards = shards
        self.clock = clock
        self.seed_source = seed_source  # tests fix it; otherwise a fresh secret seed per game
        self.default_settings = Settings.from_json(default_settings or {})
        # user id -> NotifyPrefs, read from the store when a table of theirs loads (set_notify updates it)
        # sized to hold every seat of every cached table: a smaller one is read again for
        # each seat on each action (bench/scale.py at 1,000 tables: 5 more round trips each)
        self._prefs: LRU[int, NotifyPrefs] = LRU(max(PREFS_CACHE_SIZE, _most_seats() * cache_size))
        self._locks = KeyedLocks()  # a channel's lock exists only while held or awaited
        # the tables kept loaded; past it an acting table is read from the database again
        self._cache: OrderedDict[int, _Table] = OrderedDict()
        self._cache_size = cache_size
        self.pictures = PictureCache()
        self.automatic = AutomaticPlayers()  # who plays automatic seats, off the event loop
        # False: no board pictures at all, for whole-game tests that do not look at them
        # (a picture takes tens of ms; drawing one per action was most of their cost)
        self.draw_pictures = draw_pictures

    # -- loading and saving ----------------------------------------------------------------
    def _lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        return self._locks.hold(channel_id)

    async def _load(self, channel_id: int, *, fresh: bool = False, check: bool = True) -> _Table:
        """The table, from the cache if it has it. Where other processes may save it too,
        a cached table is used only if its version is the stored one; `check=False` skips
        that read for a caller that checks afterwards (`_with_table`)."""
        cached = None if fresh else self._cache.get(channel_id)
        if cached is not None and (
            # other processes may have saved this table: use the cache only if it is current
            not check or not self.store.shared or await self.store.table_version(channel_id) == cached.row.version
        ):
            # remembered again, not moved: another table's load may have evicted it during
            # the version check (this table's lock is ours, so nothing newer replaced it)
            self._remember(cached)
            return cached
        row = await self.store.get_table(channel_id)
        if row is None:
            self._cache.pop(channel_id, None)
            raise TableError(NO_TABLE)
        try:
            game = games.get(row.game)
        except GameError:
            raise TableError(f"This table plays {row.game!r}, which this bot no longer knows.") from None
        table = _Table(
            row=row,
            seats=await self.store.get_seats(channel_id),
            deadlines=await self.store.get_deadlines(channel_id),
            game=game,
            state=game.load_state(row.state) if row.state else None,
        )
        self._remember(table)
        return table

    def _remember(self, table: _Table) -> None:
        self._cache[table.row.channel_id] = table
        self._cache.move_to_end(table.row.channel_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def _save(
        self,
        t: _Table,
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
    ) -> _Table:
        """Save a changed table in one transaction; the cache only learns of it on success.
        Only what changed is written: the columns that differ, deadlines and seats if new.
        The new `_Table` takes over the state object; `t` forgets it (`_Table.forget_state`)."""
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
            )
        except BaseException:
            self._cache.pop(t.row.channel_id, None)  # the database is the truth; reload next time
            raise
        note_saved(t.row.channel_id)
        new = _Table(
            row=saved,
            seats=seats if seats is not None else t.seats,
            deadlines=deadlines if deadlines is not None else t.deadlines,
            game=t.game,
            state=state if state is not None else t.state,
        )
        if prompts is not None:
            new.__dict__["prompts"] = prompts
        elif state is None and "prompts" in t.__dict__:
            new.__dict__["prompts"] = t.__dict__["prompts"]
        if row.settings == t.row.settings and "settings" in t.__dict__:
            new.__dict__["settings"] = t.__dict__["settings"]
        if seats is None and "_holders" in t.__dict__:  # the same seat rows: the same lookup
            new.__dict__["_holders"] = t.__dict__["_holders"]
        t.forget_state()  # the state object is the new version's now: the next step plays on it
        self._remember(new)
        return new

    async def _with_table(self, channel_id: int, fn: Callable[[_Table], Any]) -> Any:
        """Run `fn` on the table under its lock; once more on fresh rows if another
        process saved in between.

        Where other processes may save the table, a cached table is not checked before
        `fn` runs but after: a save checks the version itself (a stale one is refused and
        `fn` runs again), so an action costs no extra read. Only if `fn` saved nothing (a
        refusal, a query) is the stored version read, and `fn` runs again on fresh rows if
        the cached table was not the stored one."""
        if self.store.lost:  # the database went away under us: acknowledge nothing more
            raise TableError(LOST_MESSAGE)
        async with self._lock(channel_id):
            unchecked = self.store.shared and channel_id in self._cache
            table = await self._load(channel_id, check=False)
            if self._prefs_missing(table):
                await self._load_prefs(table)
            try:
                if not unchecked:  # read fresh, or no other process saves it: the stored table
                    return await fn(table)
                ran, result = await self._run_checked(table, fn)
                if ran:
                    return result
            except StaleWrite:
                pass
            except DatabaseLost:
                raise TableError(LOST_MESSAGE) from None
            except StorageFull:
                log.error("the disk holding the database is full; an action in channel %s was not saved", channel_id)
                raise TableError(FULL_MESSAGE) from None
            try:
                return await fn(await self._load(channel_id, fresh=True))
            except StaleWrite:
                raise TableError("The table is busy right now; please try again.") from None
            except DatabaseLost:
                raise TableError(LOST_MESSAGE) from None

    async def _run_checked(self, table: _Table, fn: Callable[[_Table], Any]) -> tuple[bool, Any]:
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

    # -- lifecycle ---------------------------------------------------------------------------
    async def create(
        self,
        channel_id: int,
        guild_id: int | None,
        game: str,
        host_id: int,
        host_name: str,
        options: dict | None = None,
    ) -> Outbox:
        try:
            g = games.get(game)
        except GameError as exc:
            raise TableError(str(exc)) from None
        options = check_options(g, options or {})  # unknown names and non yes/no values refused
        try:
            parsed = g.Options.model_validate(options)
        except ValidationError as exc:
            raise TableError(f"Those options do not fit {g.title}: {_first_error(exc)}") from None
        now = self.clock()
        row = TableRow(
            channel_id=channel_id,
            guild_id=guild_id,
            game=g.id,
            host_id=host_id,
            status="lobby",
            options=parsed.model_dump(mode="json"),
            settings=self.default_settings.to_json(),
            created_at=now,
            updated_at=now,
        )
        host = SeatRow(channel_id, host_id, host_name, position=1, joined_at=now)
        async with self._lock(channel_id):
            try:
                row = await self.store.create_table(row, [host])
            except TableExists:
                raise TableError(
                    "This channel already has a table. Finish or /game abandon it first, or use another channel."
                ) from None
            except DatabaseLost:
                raise TableError(LOST_MESSAGE) from None
            except StorageFull:
                log.error("the disk holding the database is full; a table in channel %s was not created", channel_id)
                raise TableError(FULL_MESSAGE) from None
            note_saved(channel_id)
            table = _Table(row=row, seats=[host], deadlines=[], game=g, state=None)
            self._remember(table)
        out = Outbox(channel_id=channel_id, status=self._status(table))
        out.posts.append(
            Post(
                to="channel",
                kind="notice",
                text=f"{host_name} opened a table for **{g.title}** ({g.min_players}-{g.max_players} players). "
                "Use /game join to take a seat.",
            )
        )
        out.reply = "Table created; you are seated. Start with /game start once everyone has joined" + (
            f" (at least {g.min_players} players)." if g.min_players > 1 else "."
        )
        return out

    async def join(self, channel_id: int, user_id: int, name: str, preference: str | None = None) -> Outbox:
        async def run(t: _Table) -> Outbox:
            if t.row.status in ("running", "paused") and t.free_seats():
                return await self._join_free_seat(t, user_id, name, preference)
            if t.row.status != "lobby":
                raise TableError(self._closed_text(t, "join"))
            if t.seat_of(user_id):
                raise TableError("You are already seated at this table.")
            if len(t.seats) >= t.game.max_players:
                raise TableError(f"The table is full ({t.game.max_players} players).")
            wish = self._checked_preference(t, user_id, preference)
            seat = SeatRow(
                channel_id,
                user_id,
                name,
                position=max((s.position for s in t.seats), default=0) + 1,
                preference=wish,
                joined_at=self.clock(),
            )
            t = await self._save(t, seats=[*t.seats, seat])
            out = Outbox(channel_id=channel_id, status=self._status(t))
            wants = f", hoping for {wish}" if wish else ""
            out.posts.append(
                Post(to="channel", kind="notice", text=f"{name} joined{wants}. ({len(t.seats)} seated)")
            )
            rule = f" {t.game.nation_rule}" if t.game.nation_rule else ""
            out.reply = "You are seated." + (f" Your preference “{wish}” is noted.{rule}" if wish else "")
            return out

        return await self._with_table(channel_id, run)

    async def _join_free_seat(self, t: _Table, user_id: int, name: str, preference: str | None) -> Outbox:
        """An imported game waits for players: a newcomer takes a free seat (the one their
        preference names, else the first) and is briefed like a substitute."""
        if t.seat_of(user_id):
            raise TableError("You are already seated at this table.")
        free = t.free_seats()
        want = (preference or "").strip().casefold()
        seat = next((s for s in free if want and _names_seat(want, s, t.label(s))), None)
        if want and seat is None:
            raise TableError(
                f"No free seat is called {_quoted(preference)}. Free: {', '.join(t.label(s) for s in free)}."
            )
        seat = seat or free[0]
        now = self.clock()
        row = SeatRow(
            t.row.channel_id,
            user_id,
            name,
            position=t.state.seats.index(seat) + 1,
            seat=seat,
            joined_at=now,
        )
        seats = sorted([*t.seats, row], key=lambda s: s.position)
        history = [SeatHistoryRow(t.row.channel_id, seat, user_id, name, t.state.step, now, False, "join")]
        t = await self._save(t, seats=seats, history=history)
        out = Outbox(channel_id=t.row.channel_id, status=self._status(t), reply=f"You play {t.label(seat)}.")
        left = t.free_seats()
        more = (
            f" Still free: {', '.join(t.label(s) for s in left)}."
            if left
            else " Every seat is taken; the host can /game resume."
        )
        out.posts.append(Post(to="channel", kind="notice", text=f"{name} takes {t.label(seat)}.{more}"))
        out.posts.append(
            Post(
                to="seat",
                seat=seat,
                user_id=user_id,
                dm=True,
                kind="briefing",
                text=f"**{t.game.title}**: you play **{t.label(seat)}**.\n{self._private_text(t, seat)}",
            )
        )
        return out

    async def leave(self, channel_id: int, user_id: int) -> Outbox:
        async def run(t: _Table) -> Outbox:
            me = t.seat_of(user_id)
            if me is None:
                raise TableError(NOT_SEATED)
            if t.row.status in ("finished", "abandoned"):
                raise TableError(OVER)
            if t.row.status != "lobby":
                raise TableError(
                    "The game has started, so seats are fixed. The host or a server manager can /game abandon it."
                )
            rest = [s for s in t.seats if s.user_id != user_id]
            out = Outbox(channel_id=channel_id)
            if not rest:
                t = await self._save(t, row=replace(t.row, status="abandoned"), seats=[])
                out.posts.append(
                    Post(to="channel", kind="notice", text=f"{me.name} left; the table is closed.")
                )
            else:
                host, passed = t.row.host_id, ""
                if user_id == host:  # the host role passes to the next in table order
                    host, passed = rest[0].user_id, f" {rest[0].name} is now the host."
                t = await self._save(t, row=replace(t.row, host_id=host), seats=rest)
                out.posts.append(Post(to="channel", kind="notice", text=f"{me.name} left the table.{passed}"))
            out.status = self._status(t)
            out.reply = "You left the table."
            return out

        return await self._with_table(channel_id, run)

    async def start(self, channel_id: int, user_id: int, seed: int | None = None) -> Outbox:
        async def run(t: _Table) -> Outbox:
            if t.row.status != "lobby":
                raise TableError(self._closed_text(t, "start"))
            if user_id != t.row.host_id:
                raise TableError(f"Only the host ({self._host_name(t)}) can start the game.")
            g = t.game
            if len(t.seats) < g.min_players:
                raise TableError(f"{g.title} needs at least {g.min_players} players; {len(t.seats)} seated.")
            seats = [replace(s, seat=f"s{i}") for i, s in enumerate(t.seats, 1)]
            options = dict(t.row.options)
            # A game that takes nation preferences says so with a `preferences` option.
            if "preferences" in g.Options.model_fields:
                options["preferences"] = {s.seat: s.preference for s in seats if s.preference}
            if seed is not None and not SEED_MIN <= seed <= SEED_MAX:
                raise TableError(f"The seed must be a whole number from {SEED_MIN:,} to {SEED_MAX:,}.")
            table_seed = seed if seed is not None else self.seed_source()
            try:
                state = g.setup([s.seat for s in seats], g.Options.model_validate(options), table_seed)
            except (IllegalAction, ValidationError) as exc:
                raise TableError(f"The game could not start: {_message(exc)}") from None
            if "preferences" not in g.Options.model_fields:
                # Seat ids are opaque, so who holds which is ours to choose: seat players
                # whose preference names a nation the game dealt out on that nation.
                labels = {s.seat: g.seat_label(state, s.seat) for s in seats}
                policy = "first_come" if options.get("choose_nations") else g.nation_choice
                seats = _honour_preferences(seats, labels, policy)
            # `t` keeps the stored row: _save writes the columns that differ from it
            started = replace(t, seats=seats, deadlines=[], state=state)
            now = self.clock()
            prompts = g.prompts(state)
            deadlines, opened, _ = self._deadlines(started, prompts, now)
            round_label = g.round_label(state) if t.settings.round_threads else None
            order = seat_list([(s.name, started.label(s.seat)) for s in seats])
            begins = (
                f"**{g.title}** begins.\n{order}\nSeed commitment: `{seed_commitment(table_seed)}` "
                "(SHA-256; the seed is revealed at the end, and `python -m bot replay` checks every "
                "shuffle and roll against it)."
            )
            # the channel's round summary starts here, headed by that line (posts.py)
            first_round = g.layout(g.view(state, None)).round
            meta = {**t.row.meta, "round": round_label, SUMMARY: self._opening_summary(begins, first_round)}
            history = [
                SeatHistoryRow(channel_id, s.seat, s.user_id, s.name, 0, now, s.automatic, "start")
                for s in seats
            ]
            opening = g.opening_events(state)  # what setup already did (a First Draw)
            t = await self._save(
                started,
                row=replace(t.row, status="running", seed=table_seed, meta=meta),
                state=state,
                seats=seats,
                deadlines=deadlines,
                prompts=prompts,
                history=history,
                events=[EventRow(channel_id, None, e.audience, e.kind, e.text, now) for e in opening],
            )
            out = Outbox(channel_id=channel_id)
            out.posts.append(Post(to="channel", kind="begins", text=begins))
            self._event_posts(t, out, opening)
            self._prompt_posts(t, out, [], prompts)
            self._thread_changes(out, opened, [])
            if round_label:
                out.open_thread = round_label
            t = await self._autoplay(t, out)
            out.status = self._status(t)
            out.reply = "The game has started."
            return out

        return await self._with_table(channel_id, run)

    async def abandon(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        async def run(t: _Table) -> Outbox:
            if t.row.status in ("finished", "abandoned"):
                raise TableError(OVER)
            if user_id != t.row.host_id and not admin:
                raise TableError(
                    f"Only the host ({self._host_name(t)}) or a member with Manage Server can abandon the game."
                )
            closed = [d for d in t.deadlines if d.thread]
            t = await self._save(t, row=replace(t.row, status="abandoned"), deadlines=[])
            out = Outbox(channel_id=channel_id, close_thread=bool(closed))
            who = next((s.name for s in t.seats if s.user_id == user_id), "A server manager")
            out.posts.append(Post(to="channel", kind="notice", text=f"{who} abandoned the game."))
            out.status = self._status(t)
            out.reply = "The game is abandoned."
            return out

        return await self._with_table(channel_id, run)

    # -- play ------------------------------------------------------------------------------
    async def act(self, channel_id: int, user_id: int, action: Any) -> Outbox:
        async def run(t: _Table) -> Outbox:
            seat = self._acting_seat(t, user_id)
            return await self._apply(t, seat, user_id, action)

        return await self._with_table(channel_id, run)

    async def choices(self, channel_id: int, user_id: int) -> tuple[int, list[tuple[int, str, str]]]:
        """The step and the caller's legal actions as (index, label, key), for turn buttons:
        [] when they owe nothing or the game lists no actions. Their own seat only, so
        choices from their Hand are never shown to anyone else. Each label fits a Discord
        button (80 characters) and no two read the same (`render.button_labels`); the key
        names the choice itself, so a button outlives other members' moves (`act_choice`)."""
        async with self._lock(channel_id):
            t = await self._load(channel_id)
            me = t.seat_of(user_id)
            if me is None:
                raise TableError(NOT_SEATED)
            if t.state is None or me.seat is None or t.row.status != "running":
                return (t.state.step if t.state is not None else 0), []
            if not any(p.seat == me.seat for p in t.prompts):
                return t.state.step, []
            g, state = t.game, t.state
            legal = g.legal_actions(state, me.seat)
            labels = button_labels([g.action_label(state, me.seat, x) for x in legal])
            keys = [self._choice_key(t, me.seat, x) for x in legal]
            return state.step, list(zip(range(len(legal)), labels, keys, strict=True))

    async def choice_details(self, channel_id: int, user_id: int, step: int) -> dict[int, str]:
        """The line under each of `choices` in a menu (`Game.action_detail`: the card's text,
        an attack's odds), by index; {} once the table has moved past `step`. The caller's
        own seat only, like `choices`."""
        async with self._lock(channel_id):
            t = await self._load(channel_id)
            me = t.seat_of(user_id)
            if me is None or me.seat is None or t.state is None or t.state.step != step:
                return {}
            g, state = t.game, t.state
            details = (g.action_detail(state, me.seat, x) for x in g.legal_actions(state, me.seat))
            return {i: text for i, text in enumerate(details) if text}

    def _choice_key(self, t: _Table, seat: str, action: Any) -> str:
        """A short name for one choice of `seat` in the decision it owes now: the prompt's
        phase and the action. Another member's move leaves it unchanged; a new decision
        (a later turn, the next round) changes it."""
        phase = next((p.phase for p in t.prompts if p.seat == seat), "")
        body = phase.encode() + b"|" + t.game.Action.dump_json(action)
        return hashlib.blake2b(body, digest_size=5).hexdigest()

    async def act_choice(
        self, channel_id: int, user_id: int, step: int, index: int, key: str | None = None
    ) -> Outbox:
        """A turn button: `legal_actions(state, seat)[index]` if the table is still at `step`.
        After other moves (another member's secret order in a simultaneous phase), the
        button still plays its choice while that choice, named by `key`, is legal in the
        decision the caller still owes; otherwise it has expired."""

        async def run(t: _Table) -> Outbox:
            me = t.seat_of(user_id)
            if me is None or me.seat is None:
                raise TableError(NOT_SEATED)
            if t.state is None or (t.state.step != step and key is None):
                raise ChoiceExpired(CHOICE_EXPIRED)
            if t.state.step != step and (
                t.row.status != "running" or not any(p.seat == me.seat for p in t.prompts)
            ):
                raise ChoiceExpired(CHOICE_EXPIRED)
            seat = self._acting_seat(t, user_id)
            legal = t.game.legal_actions(t.state, seat)
            if t.state.step != step:
                index_now = next((i for i, x in enumerate(legal) if self._choice_key(t, seat, x) == key), None)
                if index_now is None:
                    raise ChoiceExpired(CHOICE_EXPIRED)
                return await self._apply(t, seat, user_id, legal[index_now])
            if not 0 <= index < len(legal):
                raise ChoiceExpired(CHOICE_EXPIRED)
            return await self._apply(t, seat, user_id, legal[index])

        return await self._with_table(channel_id, run)

    async def command(self, channel_id: int, user_id: int, name: str, options: dict[str, Any]) -> Outbox:
        async def run(t: _Table) -> Outbox:
            me = t.seat_of(user_id)
            if me is None:
                raise TableError(NOT_SEATED)
            if t.state is None:
                raise TableError("The game has not started yet; the host starts it with /game start.")
            cmd = next((c for c in t.game.commands if c.name == name.strip().lower()), None)
            if cmd is None:
                known = ", ".join(c.name for c in t.game.commands)
                raise TableError(f"There is no /{t.game.group} {name}. Commands: {known}.")
            missing = [o for o in cmd.options if o.required and options.get(o.name) in (None, "")]
            if missing:
                need = " ".join(f"{o.name}:<{o.description}>" for o in missing)
                raise TableError(f"/{t.game.group} {cmd.name} needs {need}.")
            try:
                action = cmd.build(t.state, me.seat, dict(options))
            except IllegalAction as exc:
                raise TableError(str(exc)) from None
            if action is None:  # a query: show the caller their own view, change nothing
                return Outbox(channel_id=channel_id, reply=self._private_text(t, me.seat))
            seat = self._acting_seat(t, user_id)
            return await self._apply(t, seat, user_id, action)

        return await self._with_table(channel_id, run)

    async def auto(self, channel_id: int, player: str = "basic") -> Outbox | None:
        """One automatic move: the first seat that owes a decision plays the automatic
        player named `player` (bot/service/automatic.py; seeded from the table seed and step). None
        when nobody owes one. The console's `auto` drives games forward with the basic one
        (`auto all` plays a whole game in seconds); automatic seats follow the table's setting."""

        async def run(t: _Table) -> Outbox | None:
            if t.row.status != "running" or not t.prompts:
                return None
            seat = t.prompts[0].seat
            holder = t.holder(seat)
            rng = rng_for(t.state.seed, t.state.step, "auto")
            action = await self.automatic.choose(t.game, t.state, seat, rng, player)
            return await self._apply(t, seat, holder.user_id if holder else None, action)

        return await self._with_table(channel_id, run)

    async def suggest(
        self, channel_id: int, user_id: int, name: str, option: str, typed: dict[str, Any], current: str
    ) -> list[Choice]:
        try:
            t = await self._load(channel_id)
            if name == "join" and option == "preference":
                return _matching(self._nations(t, user_id), current)
            me = t.seat_of(user_id)
            cmd = next((c for c in t.game.commands if c.name == name), None)
            opt = next((o for o in cmd.options if o.name == option), None) if cmd else None
            if me is None or me.seat is None or t.state is None or opt is None or opt.suggest is None:
                return []
            return _matching(opt.suggest(t.state, me.seat, dict(typed)), current)
        except TableError:  # no table here (yet): nothing to suggest, nothing to log per keystroke
            return []
        except Exception:  # autocomplete must never fail the interaction
            log.exception("suggest failed in channel %s", channel_id)
            return []

    def _checked_preference(self, t: _Table, user_id: int, preference: str | None) -> str | None:
        """A lobby join's preference, if it names a nation or seat the game deals at some
        table size still possible; else a refusal listing them. The text is echoed in the
        public status, so nothing else is kept (issue 11 item 5)."""
        want = (preference or "").strip()
        if not want:
            return None
        g = t.game
        if "preferences" in g.Options.model_fields:
            # such a game deals nations from the preferences: it cannot list them beforehand
            if len(want) > PREFERENCE_CHARS or any(c in want for c in "@<>#`*_~|\n"):
                raise TableError(f"A preference is a nation's name, at most {PREFERENCE_CHARS} letters.")
            return want
        seated = len(t.seats) + (0 if t.seat_of(user_id) else 1)
        labels: dict[str, str] = {}  # label -> seat id, for every table size from now to full
        for n in range(max(seated, g.min_players), g.max_players + 1):
            stand_ins = [f"s{i}" for i in range(1, n + 1)]
            state = g.setup(stand_ins, g.Options.model_validate(t.row.options), 0)
            for sid in stand_ins:
                labels.setdefault(g.seat_label(state, sid), sid)
        if any(_names_seat(want.casefold(), sid, label) for label, sid in labels.items()):
            return want
        raise TableError(
            f"{g.title} has no nation or seat called {_quoted(want)}. Choose one of: {', '.join(labels)}; "
            "or join without a preference."
        )

    def _nations(self, t: _Table, user_id: int) -> list[Choice]:
        """The seats (nations, roles) the game deals for the players seated once the caller
        joins, from a setup with stand-in seats: what a join preference can name. For a
        running imported game, its free seats."""
        g = t.game
        if t.state is not None:
            return [Choice(t.label(s), t.label(s)) for s in t.free_seats()]
        n = len(t.seats) + (0 if t.seat_of(user_id) else 1)
        n = min(max(n, g.min_players), g.max_players)
        stand_ins = [f"s{i}" for i in range(1, n + 1)]
        state = g.setup(stand_ins, g.Options.model_validate(t.row.options), 0)
        labels = dict.fromkeys(g.seat_label(state, s) for s in stand_ins)
        return [Choice(label, label) for label in labels]

    def _acting_seat(self, t: _Table, user_id: int) -> str:
        """The caller's seat, if they may act now; else the refusal a player understands."""
        me = t.seat_of(user_id)
        if t.row.status == "lobby":
            if me is None:
                raise TableError(NOT_SEATED)
            raise TableError("The game has not started yet; the host starts it with /game start.")
        if t.row.status in ("finished", "abandoned"):
            raise TableError(OVER)
        if me is None or me.seat is None:
            raise TableError(NOT_SEATED)
        if t.row.status == "paused":
            raise TableError(PAUSED + " The host can /game resume it.")
        prompts = t.prompts
        if not any(p.seat == me.seat for p in prompts):
            owing = "; ".join(f"{t.who(p.seat)} owes {t.game.owed(p)}" for p in prompts)
            raise TableError(f"It is not your turn: {owing}." if owing else OVER)
        return me.seat

    async def _apply(self, t: _Table, seat: str, user_id: int | None, action: Any) -> Outbox:
        """A member's action, then whatever automatic seats owe because of it."""
        t, out = await self._step(t, seat, user_id, action)
        await self._autoplay(t, out)
        return out

    async def _step(
        self, t: _Table, seat: str, user_id: int | None, action: Any, said: str = ""
    ) -> tuple[_Table, Outbox]:
        """Apply one action and save it with its events and deadlines in one transaction.
        `said`: the public line a decision without a real choice is taken with, logged first.

        The action is played on the cached state itself, not on a copy (the copy was most
        of the service's work per action: bench/README.md). The table forgets that object
        as soon as it changes (`_Table.forget_state`): until the save succeeds the stored
        JSON is the truth, read again by whoever asks, and if anything fails the table is
        as stored. The saved table takes the changed state over."""
        g = t.game
        before, before_json, idx = t.prompts, t.row.state, t.state.step
        try:
            if isinstance(action, dict):
                action = g.parse_action(action)  # a fresh model: it shares nothing with the state
                action_json = action.model_dump_json()  # a quarter of the union's dump_json
            else:
                # built from the state (a turn button, a command, an automatic player): it
                # may share the state's lists, which the step is about to change
                action_json = action.model_dump_json()
                action = g.Action.validate_json(action_json)
        except ValidationError:
            owed = "; ".join(p.text for p in before if p.seat == seat)
            raise TableError(f"{NOT_THIS_PHASE} You owe: {owed}" if owed else NOT_THIS_PHASE) from None
        reply = _confirmation_before(g, t.state, seat, action)  # while the state is still before it
        before_values = dict(t.state.__dict__) if reply is None else {}
        try:
            try:
                applied = g.step(t.state, seat, action, prompts=before, in_place=True)
            except IllegalAction as exc:
                raise TableError(str(exc)) from None
            state = applied.state
            events = [Event(kind="forced", text=said), *applied.events] if said else applied.events
            # Until the save succeeds, whoever else reads this table (a status, an export,
            # while the save is awaited) reads the stored state, parsed again if need be.
            t.forget_state()
            now = self.clock()
            after = g.prompts(state)
            outcome = g.outcome(state)
            deadlines, opened, closed = self._deadlines(t, after, now)
            action_row = ActionRow(
                t.row.channel_id, idx, seat, user_id, action_json, now, applied.undoable
            )
            event_rows = [
                EventRow(t.row.channel_id, idx, e.audience, e.kind, e.text, now) for e in events
            ]
            row = replace(t.row, status="finished") if outcome is not None else t.row
            old_round, new_round = t.row.meta.get("round"), None
            if t.settings.round_threads:
                new_round = g.round_label(state) if outcome is None else None
                if new_round != old_round:
                    row = replace(row, meta={**row.meta, "round": new_round})
            deferred = row.meta.get("deferred")
            if deferred and any(phase not in {d.phase for d in deadlines} for phase in deferred):
                # reminders held back for quiet hours die with their phase
                kept = {phase: v for phase, v in deferred.items() if any(d.phase == phase for d in deadlines)}
                row = replace(row, meta={**row.meta, "deferred": kept})
            t = await self._save(
                t,
                row=row,
                state=state,
                deadlines=deadlines,
                actions=[action_row],
                events=event_rows,
                prompts=after,
            )
        except BaseException:
            t.forget_state()  # the step may have changed it halfway: the stored JSON is the truth
            raise

        out = Outbox(channel_id=t.row.channel_id)
        self._event_posts(t, out, events)
        self._prompt_posts(t, out, before, after)
        self._thread_changes(out, opened, closed)
        if t.settings.round_threads and new_round != old_round:
            # a new Week or round: archive the last one's diplomacy thread, open the next
            out.close_thread = out.close_thread or old_round is not None
            if new_round:
                out.open_thread, out.open_thread_due = new_round, None  # a round has no one deadline
        if outcome is not None:
            # the game is over: its last thread is archived and no new one opens
            out.open_thread = out.open_thread_due = None
            out.close_thread = out.close_thread or t.row.thread_id is not None
            names = {s.seat: t.who_as(s.seat) for s in t.seats if s.seat}
            text = standings(outcome, names)
            text += (
                f"\n\nSeed: `{t.row.seed}` (its SHA-256 commitment was `{seed_commitment(t.row.seed)}`; "
                "/game export and `python -m bot replay` check every shuffle and roll)."
            )
            out.posts.append(Post(to="channel", kind="standings", text=text))
        out.status = functools.partial(self._status, t)  # written only if a front end reads it
        if reply is None:
            reply = _confirmation_after(g, before_values, before_json, seat, action, applied.events)
        out.reply = reply
        return t, out

    # -- reading ---------------------------------------------------------------------------
    async def status(self, channel_id: int) -> str:
        return self._status(await self._load(channel_id), result=True)

    async def picture(self, channel_id: int) -> Picture | None:
        """The table's public board picture; None before the start, for a game without one, or
        when this service draws none."""
        t = await self._load(channel_id)
        if t.state is None or not self.draw_pictures:
            return None
        # keyed by the state itself, not the row's version: a save of bookkeeping alone (where
        # the round summary starts, a thread) draws nothing again
        return await self.pictures.board(channel_id, hash(t.row.state), t.game, _own_copy(t))

    async def final_pictures(self, channel_id: int) -> list[Picture]:
        """A finished game's final board and the chart of the scores over the game (every
        state replayed from the stored log); [] for a game not finished or without pictures."""
        from .records import record_from_store

        t = await self._load(channel_id)
        if t.row.status != "finished" or t.state is None or not self.draw_pictures:
            return []
        record = await record_from_store(self.store, channel_id)
        g = t.game

        def states() -> list[Any]:
            state = g.setup(list(record.seats), g.Options.model_validate(record.options), record.seed)
            out = [state]
            for entry in record.actions:
                state, _ = g.apply(state, entry.seat, g.parse_action(entry.action))
                out.append(state)
            return out

        return await self.pictures.final(channel_id, g, await asyncio.to_thread(states))

    async def my_picture(self, channel_id: int, user_id: int) -> Picture | None:
        """The caller's private picture (their Hand, sheet or screen); None if they hold no
        seat in a started game."""
        t = await self._load(channel_id)
        me = t.seat_of(user_id)
        if t.state is None or me is None or me.seat is None or not self.draw_pictures:
            return None
        return await self.pictures.private(channel_id, hash(t.row.state), t.game, _own_copy(t), me.seat)

    async def me(self, channel_id: int, user_id: int) -> str:
        t = await self._load(channel_id)
        me = t.seat_of(user_id)
        if me is None:
            raise TableError(NOT_SEATED)
        if t.state is None or me.seat is None:
            return "You are seated; the game has not started yet."
        return self._private_text(t, me.seat)

    async def aid(self, channel_id: int, user_id: int, game: str | None = None) -> str:
        """The player aid of `game`, or of this channel's table's game; at a started table,
        with the caller's own figures (their seat's view of public facts only)."""
        try:
            t: _Table | None = await self._load(channel_id)
        except TableError:  # no table here
            t = None
        try:
            g = games.get(game) if game else (t.game if t is not None else None)
        except GameError as exc:
            raise TableError(str(exc)) from None
        if g is None:
            raise TableError("There is no table here: name a game, e.g. /game help game:crisis1914 aid:True.")
        if t is None or t.game.id != g.id or t.state is None:
            return g.aid(None, None)
        me = t.seat_of(user_id)
        return g.aid(t.state, me.seat if me is not None else None)

    def rules(self, game: str) -> str:
        try:
            g = games.get(game)
        except GameError as exc:
            raise TableError(str(exc)) from None
        lines = [f"**{g.title}** ({g.min_players}-{g.max_players} players)"]
        if g.rules_summary:
            lines.append(g.rules_summary)
        if g.nation_rule:
            lines.append(f"Who gets which nation: {g.nation_rule}")
        lines.append(g.missed_deadline)
        entries = g.provenance()
        if entries:
            kinds: dict[str, int] = {}
            for e in entries:
                kinds[e.get("kind", "?")] = kinds.get(e.get("kind", "?"), 0) + 1
            lines.append("Content: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ".")
            rebuilt = [
                str(e.get("entry") or e.get("name") or e.get("source", "?"))
                for e in entries
                if e.get("kind") == "reconstructed"
            ]
            if rebuilt:
                shown = _fit_names(rebuilt, RULES_NAMES_CHARS)
                more = f", and {len(rebuilt) - len(shown)} more" if len(shown) < len(rebuilt) else ""
                lines.append(
                    "Reconstructed (designed to fit the rulebook, not printed in it; notes in the README): "
                    + ", ".join(shown)
                    + more
                    + "."
                )
        lines.append(options_text(g))
        return "\n".join(lines)

    async def settings(
        self, channel_id: int, user_id: int, changes: dict[str, str], *, admin: bool = False
    ) -> Outbox:
        async def run(t: _Table) -> Outbox:
            current = t.settings
            if not changes:
                return Outbox(channel_id=channel_id, reply=f"Settings:\n{current.describe()}")
            if user_id != t.row.host_id and not admin:
                raise TableError(
                    f"Only the host ({self._host_name(t)}) or a member with Manage Server can change settings."
                )
            new = current
            for key, value in changes.items():
                new = new.changed(key, value, t.game.deadline_settings)
            t = await self._save(t, row=replace(t.row, settings=new.to_json()))
            said = ", ".join(f"{k} = {v}" for k, v in changes.items())
            out = Outbox(channel_id=channel_id, reply=f"Settings:\n{new.describe()}")
            out.posts.append(
                Post(
                    to="channel",
                    kind="notice",
                    text=f"Settings changed: {said}. They apply from the next phase.",
                )
            )
            return out

        return await self._with_table(channel_id, run)

    async def seat_user(self, channel_id: int, seat: str) -> int | None:
        try:
            t = await self._load(channel_id)
        except TableError:
            return None
        holder = t.holder(seat)
        return holder.user_id if holder else None

    async def table_info(self, channel_id: int) -> TableInfo | None:
        try:
            t = await self._load(channel_id)
        except TableError:
            return None
        seats = [
            SeatInfo(s.seat, s.user_id, s.name, t.label(s.seat) if s.seat else "", s.automatic)
            for s in t.seats
        ]
        return TableInfo(
            t.row.channel_id,
            t.row.guild_id,
            t.game.id,
            t.row.status,
            t.row.host_id,
            seats,
            t.row.thread_id,
            t.row.status_message_id,
        )

    async def set_status_message(self, channel_id: int, message_id: int | None) -> None:
        """Remember the table's one public status message (edited in place)."""

        async def run(t: _Table) -> None:
            await self._save(t, row=replace(t.row, status_message_id=message_id))

        await self._with_table(channel_id, run)

    async def set_thread(self, channel_id: int, thread_id: int | None) -> None:
        async def run(t: _Table) -> None:
            await self._save(t, row=replace(t.row, thread_id=thread_id))

        await self._with_table(channel_id, run)


# -- the confirmation of an action, with the state before it played in place ----------------
# `Game.confirm` is given the state before the action and the events it caused, but the
# step changes that state in place (see `_step`), and copying it first for the confirmation
# alone would cost what the copy did. Most confirmations read one of the two only, or
# little of the state: an Origins or Schönbrunn one reads the state, a Crisis: 1914 one
# its events and at most the phase. So a confirmation is first written before the step,
# with stand-in events; if it reads them, after the step with a stand-in for the state
# that holds only the state's unchangeable top-level values (a phase, a step, a count)
# from before; only if it reads more is the state before parsed from its stored JSON. A
# stand-in that is read raises, and a confirmation that read none did not depend on what
# it stands for (games are pure), so the text is the one the real state and events give
# (tests/service/test_in_place.py checks every action of whole games of each title).

_ATOMS = (str, int, float, bool, type(None))


class _Read(BaseException):
    """A confirmation read a stand-in. A BaseException, so a game's own `except
    Exception` cannot mistake it for one of its errors."""


class _StandIn:
    """Stands in for a confirmation's events (no values) or for the state before the
    action (`values`: its top-level fields). Reading anything else raises `_Read`."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        object.__setattr__(self, "_values", values or {})

    def __getattr__(self, name: str) -> Any:
        value = self._values.get(name, self)
        if type(value) in _ATOMS:  # the step cannot have changed it: still the value before
            return value
        raise _Read(name)  # a list, a dict or a model: the step may have changed it in place

    @property
    def __class__(self) -> Any:  # isinstance() and match statements read it
        raise _Read("__class__")

    def _read(self, *args: Any) -> Any:
        raise _Read("use")

    __iter__ = __len__ = __bool__ = __getitem__ = __contains__ = __eq__ = __hash__ = _read
    __str__ = __repr__ = __format__ = __setattr__ = _read


_NO_EVENTS: Any = _StandIn()


def _confirmation_before(g: Game, state: GameState, seat: str, action: Any) -> str | None:
    """The confirmation if it does not read the action's events; None if it does."""
    try:
        return g.confirm(state, seat, action, _NO_EVENTS)
    except (_Read, Exception):
        return None


def _confirmation_after(
    g: Game, before: dict[str, Any], before_json: str, seat: str, action: Any, events: list[Event]
) -> str:
    """The confirmation from the events and `before`, the top-level values of the state
    before the action (its `__dict__` then); from that state parsed again if it reads more."""
    try:
        return g.confirm(_StandIn(before), seat, action, events)
    except (_Read, Exception):
        return g.confirm(g.load_state(before_json), seat, action, events)


# -- small helpers ---------------------------------------------------------------------------


def _own_copy(t: _Table) -> GameState:
    """The table's state for a picture drawn in a worker thread: its view may share lists
    with the state, which the next action changes in place on the event loop."""
    return t.game.load_state(t.row.state)


def _honour_preferences(
    seats: list[SeatRow], labels: dict[str, str], policy: str = "first_come"
) -> list[SeatRow]:
    """Re-seat players onto the seat whose label their preference names, as the game's
    rulebook allows (`Game.nation_choice`, docs/rulings.md Platform 2): "first_come" in join
    order; "choose" only preferences no other player shares; "agreed" only if every player
    named a different seat; "random" none. Everyone else keeps join order on the seats left."""
    chosen: dict[int, str] = {}
    if policy == "first_come":
        free = list(labels)
        for s in seats:
            want = (s.preference or "").strip().casefold()
            match = next((sid for sid in free if want and _names_seat(want, sid, labels[sid])), None)
            if match is not None:
                chosen[s.user_id] = match
                free.remove(match)
    elif policy in ("choose", "agreed"):
        wants = {}
        for s in seats:
            want = (s.preference or "").strip().casefold()
            match = next((sid for sid in labels if want and _names_seat(want, sid, labels[sid])), None)
            if match is not None:
                wants[s.user_id] = match
        taken = list(wants.values())
        unshared = {uid: sid for uid, sid in wants.items() if taken.count(sid) == 1}
        if policy == "choose":
            chosen = unshared
        elif len(unshared) == len(seats):  # every player named a different nation
            chosen = unshared
    free = [sid for sid in labels if sid not in chosen.values()]
    return [replace(s, seat=chosen.get(s.user_id) or free.pop(0)) for s in seats]


def _names_seat(want: str, seat: str, label: str) -> bool:
    """Whether a casefolded preference names this seat: its id, or a part of its label."""
    return want == seat.casefold() or want in label.casefold()


def _quoted(text: str, limit: int = 40) -> str:
    """A member's text echoed back, cut short (it may be 2,000 characters)."""
    text = " ".join(str(text).split())
    return f"“{text[:limit]}…”" if len(text) > limit else f"“{text}”"


def _matching(choices: list[Choice], typed: str) -> list[Choice]:
    needle = str(typed or "").casefold()
    hits = [c for c in choices if needle in c.label.casefold() or needle in c.value.casefold()]
    return hits[:25]  # Discord shows at most 25


def _fit_names(names: list[str], limit: int) -> list[str]:
    """As many names as fit in `limit` characters (a Discord message holds 2000)."""
    shown, used = [], 0
    for name in names:
        if used + len(name) + 2 > limit:
            break
        shown.append(name)
        used += len(name) + 2
    return shown
