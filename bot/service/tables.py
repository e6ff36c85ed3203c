"""The table service (docs/architecture.md §3): the only place that loads, locks, applies and saves.

One table per channel. Every call takes the table's lock, reads the table (from a small
cache checked by the store's version on write), changes it through the engine, saves in
one transaction, and returns an `Outbox` of what each front end must deliver. Refusals
raise `TableError` whose text is shown privately to the caller.

`TableService` is a small façade: it keeps a table's life cycle (create, join, leave,
start, abandon), play (act, command, turn buttons), reading (status, pictures, settings)
and builds the parts that own the rest, each reached as an attribute:

- `access` (loaded.py): locks, the cache of loaded tables, loading and saving;
- `play` (play.py): one action's step and the automatic moves after it;
- `posts` (posts.py): status texts, the status card, the round summary, a step's posts;
- `notifications` (notify.py): notification preferences, DM bookkeeping, `/game mine`;
- `deadlines` (deadlines.py): reminders, expiry, the host's deadline tools, outages;
- `controls` (controls.py): pause, substitutes, automatic seats, standing orders, undo,
  talks;
- `sessions` (live_sessions.py): the table's weekly live sessions (`/game session`);
- `history` (history.py): the log, export, import and publishing.

The parts talk through public methods only; none of them holds a table of its own.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from engine import games
from engine.core import Choice, GameError, GameState, IllegalAction, matches_seat, rng_for, seed_commitment

from ..render import button_labels, seat_list
from ..render.pictures import Picture
from ..render.pictures.cache import PictureCache
from ..store import (
    EVERY_SHARD,
    DatabaseLost,
    EventRow,
    SeatHistoryRow,
    SeatRow,
    Shards,
    StorageFull,
    Store,
    TableExists,
    TableRow,
)
from ..store.guard import FULL_MESSAGE, LOST_MESSAGE
from .automatic import AutomaticPlayers
from .controls import Controls
from .deadlines import Deadlines
from .history import SEED_MAX, SEED_MIN, History
from .live_sessions import LiveSessions
from .loaded import LoadedTable, TableAccess
from .notify import Notifications
from .outbox import Outbox, Post
from .play import Play
from .posts import SUMMARY, Posts
from .preferences import Preferences
from .reference import check_options, options_text
from .tablebase import (
    CACHE_SIZE,
    NOT_SEATED,
    OVER,
    RULES_NAMES_CHARS,
    SeatInfo,
    Settings,
    TableError,
    TableInfo,
    deadlines_after,
    error_message,
    first_error,
    note_saved,
)

__all__ = ["TableError", "Settings", "SeatInfo", "TableInfo", "TableService"]

# Members whose notification preferences are kept in memory; the seats of every table in
# use are among the most recent, and the rest are read again when their table loads.
PREFS_CACHE_SIZE = 4096

log = logging.getLogger(__name__)


PREFERENCE_CHARS = 40


def _most_seats() -> int:
    return max(g.max_players for g in games.all())


def _random_seed() -> int:
    return secrets.randbits(63)


CHOICE_EXPIRED = "That choice has expired; here are your current options."


class ChoiceExpired(TableError):
    """A turn button pressed after the table moved on: the front end offers fresh ones."""


class TableService:
    """The façade: a table's life cycle and play; the parts below own the rest."""

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
        automatic_workers: int = 1,
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
        self.preferences = Preferences(store, max(PREFS_CACHE_SIZE, _most_seats() * cache_size))
        self.access = TableAccess(store, clock, self.preferences, cache_size)
        self.pictures = PictureCache()
        # who plays automatic seats: the search in `automatic_workers` processes of its own
        # (0: a thread of this one), so that it never slows the human tables
        self.automatic = AutomaticPlayers(workers=automatic_workers)
        # False: no board pictures at all, for whole-game tests that do not look at them
        # (a picture takes tens of ms; drawing one per action was most of their cost)
        self.draw_pictures = draw_pictures
        # the parts, each given what it uses (no part knows one built after it)
        self.notifications = Notifications(self.access, self.preferences, clock)
        self.posts = Posts(self.access, self.notifications, clock)
        self.play = Play(self.access, self.posts, self.automatic, clock)
        self.history = History(self.access, self.posts, clock, self.default_settings)
        self.deadlines = Deadlines(self.access, self.play, self.posts, self.notifications, shards, clock)
        self.controls = Controls(self.access, self.play, self.posts, clock)
        self.sessions = LiveSessions(self.access, self.posts, clock)

    def set_clock(self, clock: Callable[[], float]) -> None:
        """Read the time from `clock` from now on, here and in every part (the console's
        `wait` moves it)."""
        self.clock = clock
        parts = (self.access, self.notifications, self.posts, self.play, self.history, self.deadlines)
        for part in (*parts, self.controls, self.sessions):
            part.clock = clock

    def close(self) -> None:
        """Stop the automatic players' worker processes (the process is shutting down)."""
        self.automatic.close()

    async def load(self, channel_id: int, *, fresh: bool = False) -> LoadedTable:
        """The table as loaded now (for tests and tools that look inside it)."""
        return await self.access.load(channel_id, fresh=fresh)

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
            raise TableError(f"Those options do not fit {g.title}: {first_error(exc)}") from None
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
        async with self.access.lock(channel_id):
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
            table = LoadedTable(row=row, seats=[host], deadlines=[], game=g, state=None)
            self.access.remember(table)
        out = Outbox(channel_id=channel_id, status=self.posts.status(table))
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
        async def run(t: LoadedTable) -> Outbox:
            if t.row.status in ("running", "paused") and t.free_seats():
                return await self._join_free_seat(t, user_id, name, preference)
            if t.row.status != "lobby":
                raise TableError(self.posts.closed_text(t, "join"))
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
            t = await self.access.save(t, seats=[*t.seats, seat])
            out = Outbox(channel_id=channel_id, status=self.posts.status(t))
            wants = f", hoping for {wish}" if wish else ""
            out.posts.append(
                Post(to="channel", kind="notice", text=f"{name} joined{wants}. ({len(t.seats)} seated)")
            )
            rule = f" {t.game.nation_rule}" if t.game.nation_rule else ""
            out.reply = "You are seated." + (f" Your preference “{wish}” is noted.{rule}" if wish else "")
            return out

        return await self.access.with_table(channel_id, run)

    async def _join_free_seat(self, t: LoadedTable, user_id: int, name: str, preference: str | None) -> Outbox:
        """An imported game waits for players: a newcomer takes a free seat (the one their
        preference names, else the first) and is briefed like a substitute."""
        if t.seat_of(user_id):
            raise TableError("You are already seated at this table.")
        free = t.free_seats()
        names = t.game.nation_names()
        seat = next((s for s in free if matches_seat(preference or "", s, t.label(s), names)), None)
        if (preference or "").strip() and seat is None:
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
        t = await self.access.save(t, seats=seats, history=history)
        out = Outbox(channel_id=t.row.channel_id, status=self.posts.status(t), reply=f"You play {t.label(seat)}.")
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
                text=f"**{t.game.title}**: you play **{t.label(seat)}**.\n{self.posts.private_text(t, seat)}",
            )
        )
        return out

    async def leave(self, channel_id: int, user_id: int) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
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
                t = await self.access.save(t, row=replace(t.row, status="abandoned"), seats=[])
                out.posts.append(
                    Post(to="channel", kind="notice", text=f"{me.name} left; the table is closed.")
                )
            else:
                host, passed = t.row.host_id, ""
                if user_id == host:  # the host role passes to the next in table order
                    host, passed = rest[0].user_id, f" {rest[0].name} is now the host."
                t = await self.access.save(t, row=replace(t.row, host_id=host), seats=rest)
                out.posts.append(Post(to="channel", kind="notice", text=f"{me.name} left the table.{passed}"))
            out.status = self.posts.status(t)
            out.reply = "You left the table."
            return out

        return await self.access.with_table(channel_id, run)

    async def start(self, channel_id: int, user_id: int, seed: int | None = None) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            if t.row.status != "lobby":
                raise TableError(self.posts.closed_text(t, "start"))
            if user_id != t.row.host_id:
                raise TableError(f"Only the host ({self.posts.host_name(t)}) can start the game.")
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
                raise TableError(f"The game could not start: {error_message(exc)}") from None
            if "preferences" not in g.Options.model_fields:
                # Seat ids are opaque, so who holds which is ours to choose: seat players
                # whose preference names a nation the game dealt out on that nation.
                labels = {s.seat: g.seat_label(state, s.seat) for s in seats}
                policy = "first_come" if options.get("choose_nations") else g.nation_choice
                seats = _honour_preferences(seats, labels, policy, g.nation_names())
            # `t` keeps the stored row: _save writes the columns that differ from it
            started = t.replaced(seats=seats, deadlines=[], state=state)
            now = self.clock()
            prompts = g.prompts(state)
            deadlines, opened, _ = deadlines_after(started, prompts, now)
            round_label = g.round_label(state) if t.settings.round_threads else None
            order = seat_list([(s.name, started.label(s.seat)) for s in seats])
            begins = (
                f"**{g.title}** begins.\n{order}\nSeed commitment: `{seed_commitment(table_seed)}` "
                "(SHA-256; the seed is revealed at the end, and `python -m bot replay` checks every "
                "shuffle and roll against it)."
            )
            # the channel's round summary starts here, headed by that line (posts.py)
            first_round = g.layout(g.view(state, None)).round
            meta = {**t.row.meta, "round": round_label, SUMMARY: self.posts.opening_summary(begins, first_round)}
            history = [
                SeatHistoryRow(channel_id, s.seat, s.user_id, s.name, 0, now, s.automatic, "start")
                for s in seats
            ]
            opening = g.opening_events(state)  # what setup already did (a First Draw)
            t = await self.access.save(
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
            self.posts.event_posts(t, out, opening)
            self.posts.prompt_posts(t, out, [], prompts)
            self.posts.thread_changes(out, opened, [])
            if round_label:
                out.open_thread = round_label
            t = await self.play.autoplay(t, out)
            out.status = self.posts.status(t)
            out.reply = "The game has started."
            return out

        return await self.access.with_table(channel_id, run)

    async def abandon(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            if t.row.status in ("finished", "abandoned"):
                raise TableError(OVER)
            if user_id != t.row.host_id and not admin:
                raise TableError(
                    f"Only the host ({self.posts.host_name(t)}) or a member with Manage Server can abandon the game."
                )
            closed = [d for d in t.deadlines if d.thread]
            t = await self.access.save(t, row=replace(t.row, status="abandoned"), deadlines=[])
            out = Outbox(channel_id=channel_id, close_thread=bool(closed))
            who = next((s.name for s in t.seats if s.user_id == user_id), "A server manager")
            out.posts.append(Post(to="channel", kind="notice", text=f"{who} abandoned the game."))
            out.status = self.posts.status(t)
            out.reply = "The game is abandoned."
            return out

        return await self.access.with_table(channel_id, run)

    # -- play ------------------------------------------------------------------------------
    async def act(self, channel_id: int, user_id: int, action: Any) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            seat = self.play.acting_seat(t, user_id)
            return await self.play.apply(t, seat, user_id, action)

        return await self.access.with_table(channel_id, run)

    async def choices(self, channel_id: int, user_id: int) -> tuple[int, list[tuple[int, str, str]]]:
        """The step and the caller's legal actions as (index, label, key), for turn buttons:
        [] when they owe nothing or the game lists no actions. Their own seat only, so
        choices from their Hand are never shown to anyone else. Each label fits a Discord
        button (80 characters) and no two read the same (`render.button_labels`); the key
        names the choice itself, so a button outlives other members' moves (`act_choice`)."""
        async with self.access.lock(channel_id):
            t = await self.access.load(channel_id)
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
        async with self.access.lock(channel_id):
            t = await self.access.load(channel_id)
            me = t.seat_of(user_id)
            if me is None or me.seat is None or t.state is None or t.state.step != step:
                return {}
            g, state = t.game, t.state
            details = (g.action_detail(state, me.seat, x) for x in g.legal_actions(state, me.seat))
            return {i: text for i, text in enumerate(details) if text}

    def _choice_key(self, t: LoadedTable, seat: str, action: Any) -> str:
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

        async def run(t: LoadedTable) -> Outbox:
            me = t.seat_of(user_id)
            if me is None or me.seat is None:
                raise TableError(NOT_SEATED)
            if t.state is None or (t.state.step != step and key is None):
                raise ChoiceExpired(CHOICE_EXPIRED)
            if t.state.step != step and (
                t.row.status != "running" or not any(p.seat == me.seat for p in t.prompts)
            ):
                raise ChoiceExpired(CHOICE_EXPIRED)
            seat = self.play.acting_seat(t, user_id)
            legal = t.game.legal_actions(t.state, seat)
            if t.state.step != step:
                index_now = next((i for i, x in enumerate(legal) if self._choice_key(t, seat, x) == key), None)
                if index_now is None:
                    raise ChoiceExpired(CHOICE_EXPIRED)
                return await self.play.apply(t, seat, user_id, legal[index_now])
            if not 0 <= index < len(legal):
                raise ChoiceExpired(CHOICE_EXPIRED)
            return await self.play.apply(t, seat, user_id, legal[index])

        return await self.access.with_table(channel_id, run)

    async def command(self, channel_id: int, user_id: int, name: str, options: dict[str, Any]) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
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
                return Outbox(channel_id=channel_id, reply=self.posts.private_text(t, me.seat))
            seat = self.play.acting_seat(t, user_id)
            return await self.play.apply(t, seat, user_id, action)

        return await self.access.with_table(channel_id, run)

    async def auto(self, channel_id: int, player: str = "basic") -> Outbox | None:
        """One automatic move: the first seat that owes a decision plays the automatic
        player named `player` (bot/service/automatic.py; seeded from the table seed and step). None
        when nobody owes one. The console's `auto` drives games forward with the basic one
        (`auto all` plays a whole game in seconds); automatic seats follow the table's setting."""

        async def run(t: LoadedTable) -> Outbox | None:
            if t.row.status != "running" or not t.prompts:
                return None
            seat = t.prompts[0].seat
            holder = t.holder(seat)
            rng = rng_for(t.state.seed, t.state.step, "auto")
            action = await self.automatic.choose(t.game, t.state, seat, rng, player)
            return await self.play.apply(t, seat, holder.user_id if holder else None, action)

        return await self.access.with_table(channel_id, run)

    async def suggest(
        self, channel_id: int, user_id: int, name: str, option: str, typed: dict[str, Any], current: str
    ) -> list[Choice]:
        try:
            t = await self.access.load(channel_id)
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

    def _checked_preference(self, t: LoadedTable, user_id: int, preference: str | None) -> str | None:
        """A lobby join's preference, if it names a nation or seat the game deals at some
        table size still possible; else a refusal listing them. The text is echoed in the
        public status, so nothing else is kept."""
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
        if any(matches_seat(want, sid, label, g.nation_names()) for label, sid in labels.items()):
            return want
        raise TableError(
            f"{g.title} has no nation or seat called {_quoted(want)}. Choose one of: {', '.join(labels)}; "
            "or join without a preference."
        )

    def _nations(self, t: LoadedTable, user_id: int) -> list[Choice]:
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

    # -- reading ---------------------------------------------------------------------------
    async def status(self, channel_id: int) -> str:
        return self.posts.status(await self.access.load(channel_id), result=True)

    async def picture(self, channel_id: int) -> Picture | None:
        """The table's public board picture; None before the start, for a game without one, or
        when this service draws none."""
        t = await self.access.load(channel_id)
        if t.state is None or not self.draw_pictures:
            return None
        # keyed by the state itself, not the row's version: a save of bookkeeping alone (where
        # the round summary starts, a thread) draws nothing again
        return await self.pictures.board(channel_id, hash(t.row.state), t.game, _own_copy(t))

    async def final_pictures(self, channel_id: int) -> list[Picture]:
        """A finished game's final board and the chart of the scores over the game (every
        state replayed from the stored log); [] for a game not finished or without pictures."""
        from .records import record_from_store

        t = await self.access.load(channel_id)
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
        t = await self.access.load(channel_id)
        me = t.seat_of(user_id)
        if t.state is None or me is None or me.seat is None or not self.draw_pictures:
            return None
        return await self.pictures.private(channel_id, hash(t.row.state), t.game, _own_copy(t), me.seat)

    async def me(self, channel_id: int, user_id: int) -> str:
        t = await self.access.load(channel_id)
        me = t.seat_of(user_id)
        if me is None:
            raise TableError(NOT_SEATED)
        if t.state is None or me.seat is None:
            return "You are seated; the game has not started yet."
        return self.posts.private_text(t, me.seat)

    async def aid(self, channel_id: int, user_id: int, game: str | None = None) -> str:
        """The player aid of `game`, or of this channel's table's game; at a started table,
        with the caller's own figures (their seat's view of public facts only)."""
        try:
            t: LoadedTable | None = await self.access.load(channel_id)
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
        async def run(t: LoadedTable) -> Outbox:
            current = t.settings
            if not changes:
                return Outbox(channel_id=channel_id, reply=f"Settings:\n{current.describe()}")
            if user_id != t.row.host_id and not admin:
                raise TableError(
                    f"Only the host ({self.posts.host_name(t)}) or a member with Manage Server can change settings."
                )
            new = current
            for key, value in changes.items():
                new = new.changed(key, value, t.game.deadline_settings)
            t = await self.access.save(t, row=replace(t.row, settings=new.to_json()))
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

        return await self.access.with_table(channel_id, run)

    async def seat_user(self, channel_id: int, seat: str) -> int | None:
        try:
            t = await self.access.load(channel_id)
        except TableError:
            return None
        holder = t.holder(seat)
        return holder.user_id if holder else None

    async def table_info(self, channel_id: int) -> TableInfo | None:
        try:
            t = await self.access.load(channel_id)
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

        async def run(t: LoadedTable) -> None:
            await self.access.save(t, row=replace(t.row, status_message_id=message_id))

        await self.access.with_table(channel_id, run)

    async def set_thread(self, channel_id: int, thread_id: int | None) -> None:
        async def run(t: LoadedTable) -> None:
            await self.access.save(t, row=replace(t.row, thread_id=thread_id))

        await self.access.with_table(channel_id, run)


# -- small helpers ---------------------------------------------------------------------------


def _own_copy(t: LoadedTable) -> GameState:
    """The table's state for a picture drawn in a worker thread: its view may share lists
    with the state, which the next action changes in place on the event loop."""
    return t.game.load_state(t.row.state)


def _honour_preferences(
    seats: list[SeatRow],
    labels: dict[str, str],
    policy: str = "first_come",
    alternatives: dict[str, tuple[str, ...]] | None = None,
) -> list[SeatRow]:
    """Re-seat players onto the seat whose label their preference names, as the game's
    rulebook allows (`Game.nation_choice`, docs/rulings.md Platform 2): "first_come" in join
    order; "choose" only preferences no other player shares; "agreed" only if every player
    named a different seat; "random" none. Everyone else keeps join order on the seats left."""
    chosen: dict[int, str] = {}
    if policy == "first_come":
        free = list(labels)
        for s in seats:
            want = s.preference or ""
            match = next((sid for sid in free if matches_seat(want, sid, labels[sid], alternatives)), None)
            if match is not None:
                chosen[s.user_id] = match
                free.remove(match)
    elif policy in ("choose", "agreed"):
        wants = {}
        for s in seats:
            want = s.preference or ""
            match = next((sid for sid in labels if matches_seat(want, sid, labels[sid], alternatives)), None)
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
