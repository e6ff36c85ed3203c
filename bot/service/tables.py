"""The table service (docs/architecture.md §3): the only place that loads, locks, applies and saves.

One table per channel. Every call takes the table's lock, reads the table (from a small
cache checked by the store's version on write), changes it through the engine, saves in
one transaction, and returns an `Outbox` of what each front end must deliver. Refusals
raise `TableError` whose text is shown privately to the caller.

`TableService` is a small façade: it keeps abandoning a table, play (act, command, turn
buttons), reading (status, pictures, `me`, aids, rules, suggestions) and settings, and
builds the parts that own the rest, each reached as an attribute:

- `lobby` (lobby.py): create, join, leave and start;
- `access` (loaded.py): locks, the cache of loaded tables, loading and saving;
- `play` (play.py): one action's step and the automatic moves after it;
- `posts` (posts.py): status texts, the status card, the round summary, a step's posts;
- `final_scores` (final_scores.py): the scores over a finished game, worked out by the
  save that ends it, and its final board and chart drawn from them;
- `notifications` (notify.py): notification preferences, DM bookkeeping, `/game mine`;
- `deadlines` (deadlines.py): reminders, expiry, the host's deadline tools, outages;
- `controls` (controls.py): pause, substitutes, automatic seats, standing orders, undo,
  talks;
- `sessions` (live_sessions.py): the table's weekly live sessions (`/game session`);
- `history` (history.py): the log, export, import and publishing;
- `diplomacy` (diplomacy.py): showing one's hidden things, pacts on record;
- `gallery` (gallery.py): spectators, what they are sent, and what any member may read
  of a table (`Gallery.read`, which every reading method here goes through).

The parts talk through public methods only; none of them holds a table of its own.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import games
from engine.core import Choice, GameError, IllegalAction, did_you_mean, rng_for

from ..render import button_labels, escape
from ..render.pictures import Picture, has_pictures
from ..render.pictures.cache import PictureCache
from ..render.rich import Text
from ..store import (
    EVERY_SHARD,
    Shards,
    Store,
)
from .automatic import AutomaticPlayers
from .community import Community
from .controls import Controls
from .deadlines import Deadlines
from .deliveries import Deliveries
from .digest import Digest
from .diplomacy import Diplomacy
from .errors import NOT_SEATED, OVER, TableError, host_only
from .final_scores import FinalScores
from .gallery import CHANNEL_SHOWS_ALL, Gallery
from .history import History
from .limits import CACHE_SIZE, RULES_NAMES_CHARS
from .live_sessions import LiveSessions
from .loaded import LoadedTable, TableAccess, dealt_seat, started_state
from .lobby import Lobby
from .menus import NextMenu, SheetNow, TurnChoice, choice_key, menu_of, sheets_of, turn_choices
from .notify import Notifications
from .outbox import Outbox, Post
from .play import Play
from .posts import Posts
from .preferences import Preferences
from .reference import options_text
from .reviews import Reviews
from .settings import Settings
from .shown import Shown
from .table_info import SeatInfo, TableInfo

__all__ = ["TableError", "Settings", "SeatInfo", "TableInfo", "TableService", "SheetNow", "TurnChoice", "turn_choices"]

# Members whose notification preferences are kept in memory; the seats of every table in
# use are among the most recent, and the rest are read again when their table loads.
PREFS_CACHE_SIZE = 4096

log = logging.getLogger(__name__)



def _most_seats() -> int:
    return max(g.max_players for g in games.all())


def _random_seed() -> int:
    return secrets.randbits(63)


CHOICE_EXPIRED = "That choice has expired; here are your current options."


class ChoiceExpired(TableError):
    """A turn button pressed after the table moved on: the front end offers fresh ones."""


class TableService:
    """The façade: abandoning, play, reading and settings; the parts below own the rest."""

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
        self.digest = Digest(self.access, self.preferences)  # members' daily digests (digest.py)
        self.posts = Posts(self.access, self.notifications, clock)
        # every save writes into its outbox what the status shows then (shown.py), and the
        # one that ends the game the scores over it, for the final standings' chart
        self.posts.boards = draw_pictures
        self.final_scores = FinalScores(store, self.pictures, self.posts.shown)
        self.access.showing = self.final_scores.shown
        self.gallery = Gallery(self.access, clock)  # spectators, and what a member may read
        self.play = Play(self.access, self.posts, self.automatic, clock, self.gallery)
        self.history = History(self.access, self.posts, clock, self.default_settings, self.gallery)
        self.deadlines = Deadlines(self.access, self.play, self.posts, self.notifications, shards, clock)
        self.lobby = Lobby(store, self.access, self.posts, self.play, clock, self.default_settings, seed_source)
        self.controls = Controls(self.access, self.play, self.posts, clock)
        self.sessions = LiveSessions(self.access, self.posts, clock)
        # showing with the referee's word, and pacts on record (/diplomacy)
        self.diplomacy = Diplomacy(self.access, clock)
        # what the tables still have to say, kept until a front end has said it
        self.deliveries = Deliveries(store, self.access, clock)
        self.deliveries.showing = self.posts.shown_now
        # the server's games: archive, ratings, profiles, the directory, sign-ups
        self.community = Community(store, self.access, self.preferences, clock)
        # finished games' reviews, begun at the end, computed behind live decisions (reviews.py)
        self.reviews = Reviews(self.access, self.automatic, clock)
        self.play.reviews = self.reviews

    def set_clock(self, clock: Callable[[], float]) -> None:
        """Read the time from `clock` from now on, here and in every part (the console's
        `wait` moves it)."""
        self.clock = clock
        parts = (self.access, self.notifications, self.posts, self.gallery, self.play, self.history, self.deadlines)
        for part in (*parts, self.lobby, self.controls, self.sessions, self.deliveries, self.community, self.diplomacy):
            part.clock = clock
        self.reviews.clock = clock

    def close(self) -> None:
        """Stop the reviews under way and the automatic players' worker processes (the
        process is shutting down)."""
        self.reviews.stop()
        self.automatic.close()

    async def load(self, channel_id: int, *, fresh: bool = False) -> LoadedTable:
        """The table as loaded now (for tests and tools that look inside it)."""
        return await self.access.load(channel_id, fresh=fresh)

    # -- life cycle (the lobby is `self.lobby`) ------------------------------------------------
    async def abandon(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            if t.row.status in ("finished", "abandoned"):
                raise TableError(OVER)
            host_only(t, user_id, admin, "abandon the game")
            closed = [d for d in t.deadlines if d.thread]
            out = Outbox(channel_id=channel_id, close_thread=bool(closed))
            who = next((escape(s.name) for s in t.seats if s.user_id == user_id), "A server manager")
            out.posts.append(Post(to="channel", kind="notice", text=f"{who} abandoned the game."))
            out.lobby_changed = True  # its lobby entry, if any, removed
            row = await self.gallery.catch_up(t, [], out, replace(t.row, status="abandoned"))
            t = await self.access.save(t, row=row, deadlines=[], outbox=out)
            await self.lobby.abandoned(t, out)  # its lobby entry removed, the game archived
            out.status = self.posts.status(t)
            out.reply = "The game is abandoned."
            return out

        return await self.access.with_table(channel_id, run)

    # -- play ------------------------------------------------------------------------------
    async def act(self, channel_id: int, user_id: int, action: Any) -> Outbox:
        async def run(t: LoadedTable) -> Outbox:
            seat = self.play.acting_seat(t, t.seat_of(user_id))
            return self._answered(channel_id, user_id, await self.play.apply(t, seat, user_id, action))

        return await self.access.with_table(channel_id, run)

    async def choices(self, channel_id: int, user_id: int) -> tuple[int, list[tuple[int, str, str]]]:
        """The step and the caller's legal actions as (index, label, key), for turn buttons:
        [] when they owe nothing or the game lists no actions. Their own seat only, so
        choices from their Hand are never shown to anyone else. Each label fits a Discord
        button (80 characters) and no two read the same (`render.button_labels`); the key
        names the choice itself, so a button outlives other members' moves (`act_choice`)."""
        async with self.access.lock(channel_id):
            t = (await self.gallery.read(channel_id, user_id)).table
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
            t = (await self.gallery.read(channel_id, user_id)).table
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
        return choice_key(t.game, next((p.phase for p in t.prompts if p.seat == seat), ""), action)

    async def turn_menu(self, channel_id: int, user_id: int) -> tuple[int, list[TurnChoice]]:
        """`choices` with each one's group and menu line, in one read (the turn buttons')."""
        async with self.access.lock(channel_id):
            t = (await self.gallery.read(channel_id, user_id)).table
            me = t.seat_of(user_id)
            if me is None:
                raise TableError(NOT_SEATED)
            return menu_of(t, me)

    async def own_sheets(self, channel_id: int, user_id: int) -> list[SheetNow]:
        """The caller's own Origins sheets while they may still write them (Phase 4, not
        handed in), for the sheet writer's selects; [] otherwise. Their own seat only."""
        async with self.access.lock(channel_id):
            t = (await self.gallery.read(channel_id, user_id)).table
            return sheets_of(t, t.seat_of(user_id))

    def _answered(self, channel_id: int, user_id: int, out: Outbox) -> Outbox:
        """`out` with where the caller's next turn buttons and sheets are read from (`NextMenu`):
        the table as their action left it, taken in the action's own lock, so the answer
        shows them with no second lock or read of the table."""
        t = self.access.cache.get(channel_id)
        me = t.seat_of(user_id) if t is not None else None
        if t is not None and me is not None:
            out.caller_menu = NextMenu(t, me)
        return out

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
            moved_on = t.state.step != step
            try:
                seat = self.play.acting_seat(t, me)
            except TableError:
                if moved_on:  # the table moved on and the caller owes nothing now: expired
                    raise ChoiceExpired(CHOICE_EXPIRED) from None
                raise
            legal = t.game.legal_actions(t.state, seat)
            if moved_on:
                index_now = next((i for i, x in enumerate(legal) if self._choice_key(t, seat, x) == key), None)
                if index_now is None:
                    raise ChoiceExpired(CHOICE_EXPIRED)
                return self._answered(channel_id, user_id, await self.play.apply(t, seat, user_id, legal[index_now]))
            if not 0 <= index < len(legal):
                raise ChoiceExpired(CHOICE_EXPIRED)
            return self._answered(channel_id, user_id, await self.play.apply(t, seat, user_id, legal[index]))

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
                group = t.game.group
                known = ", ".join(c.name for c in t.game.commands)
                near = did_you_mean(name, [(f"/{group} {c.name}", c.name) for c in t.game.commands])
                hint = f" {near}" if near else ""
                raise TableError(f"There is no /{group} {name}.{hint} Commands: {known}.")
            missing = [o for o in cmd.options if o.required and options.get(o.name) in (None, "")]
            if missing:
                need = " ".join(f"{o.name}:<{o.description}>" for o in missing)
                raise TableError(f"/{t.game.group} {cmd.name} needs {need}.")
            mine = dealt_seat(me)
            try:
                action = cmd.build(t.state, mine, dict(options))
            except IllegalAction as exc:
                raise TableError(str(exc)) from None
            if action is None:  # a query: show the caller their own view, change nothing
                return Outbox(channel_id=channel_id, reply=self.posts.private_text(t, mine))
            seat = self.play.acting_seat(t, me)
            return self._answered(channel_id, user_id, await self.play.apply(t, seat, user_id, action))

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
            state = started_state(t)
            rng = rng_for(state.seed, state.step, "auto")
            action = await self.automatic.choose(t.game, state, seat, rng, player)
            return await self.play.apply(t, seat, holder.user_id if holder else None, action)

        return await self.access.with_table(channel_id, run)

    async def suggest(
        self, channel_id: int, user_id: int, name: str, option: str, typed: dict[str, Any], current: str
    ) -> list[Choice]:
        try:
            t = (await self.gallery.read(channel_id, user_id)).table
            if name == "join" and option == "preference":
                return _matching(self.lobby.nations(t, user_id), current)
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

    # -- reading ---------------------------------------------------------------------------
    async def status(self, channel_id: int, reader: int | None = None) -> Text:
        """The public status (`/game status`), as member `reader` may read it: a spectator
        of a game in play reads it as it stood some rounds ago (bot/service/gallery.py)."""
        r = await self.gallery.read(channel_id, reader)
        if r.behind is not None:
            return await self.gallery.status(r)
        return self.posts.status(r.table, result=True)

    async def picture(self, channel_id: int, reader: int | None = None) -> Picture | None:
        """The table's public board picture, as member `reader` may see it; None before the
        start, for a game without one, when this service draws none, or when a spectator may
        see nothing yet."""
        r = await self.gallery.read(channel_id, reader)
        t = r.table
        if t.state is None or not self.draw_pictures:
            return None
        state = t.state if r.behind is None else await self.gallery.state_at(r)  # a spectator's: rounds behind
        if state is None:
            return None
        # drawn from the public view and kept by it, as the status message's is (shown.py): one
        # state is drawn once, for the status message, /game status and a spectator alike
        g = t.game
        return await self.pictures.board_of_view(channel_id, g, state.seed, state.step, g.view_dict(g.view(state, None)))

    async def final_pictures(self, channel_id: int) -> list[Picture]:
        """A finished game's final board and the chart of the scores over the game, as its
        final standings carried them (the scores replayed from the stored log, unless this
        process worked them out lately); [] for a game not finished or without pictures.
        Delivering the standings draws them from its outbox row instead (`final_pictures_of`)."""
        t = (await self.gallery.read(channel_id, None)).table  # a finished game: all of it is public
        if t.row.status != "finished" or t.state is None or not self.draw_pictures or not has_pictures(t.game.id):
            return []
        return await self.final_scores.pictures(t)

    async def final_pictures_of(self, channel_id: int, shown: Shown | None) -> list[Picture]:
        """The final board and chart for an outbox's standings or published history: drawn
        from what its save stored (`shown`) with no table read; read from the table and its
        log (`final_pictures`) only for an outbox no save wrote, or a row an older bot stored
        without the scores."""
        if shown is not None and (shown.scores is not None or shown.board is None):
            return await self.final_scores.pictures_of(shown)
        return await self.final_pictures(channel_id)

    async def stored_board(self, shown: Shown) -> Picture | None:
        """The board picture drawn from the public view a save stored (`shown.board`),
        cached as the status message's is; None where the save stored no board."""
        return await self.final_scores.board(shown.channel_id, shown.board) if shown.board else None

    async def my_picture(self, channel_id: int, user_id: int) -> Picture | None:
        """The caller's private picture (their Hand, sheet or screen); None if they hold no
        seat in a started game."""
        t = (await self.gallery.read(channel_id, user_id)).table
        me = t.seat_of(user_id)
        if t.state is None or me is None or me.seat is None or not self.draw_pictures:
            return None
        return await self.pictures.private(channel_id, hash(t.row.state), t.game, t.state, me.seat)

    async def me(self, channel_id: int, user_id: int) -> Text:
        t = (await self.gallery.read(channel_id, user_id)).table
        me = t.seat_of(user_id)
        if me is None:
            raise TableError(NOT_SEATED)
        if t.state is None or me.seat is None:
            return "You are seated; the game has not started yet."
        return self.posts.private_text(t, me.seat)

    async def aid(self, channel_id: int, user_id: int, game: str | None = None) -> str:
        """The player aid of `game`, or of this channel's table's game; at a started table,
        with the caller's own figures (their seat's view of public facts only)."""
        behind = False
        try:
            read = await self.gallery.read(channel_id, user_id)
            t: LoadedTable | None = read.table
            behind = read.behind is not None  # a spectator: the aid without the live table's figures
        except TableError:  # no table here
            t = None
        try:
            g = games.get(game) if game else (t.game if t is not None else None)
        except GameError as exc:
            raise TableError(str(exc)) from None
        if g is None:
            raise TableError("There is no table here: name a game, e.g. /game help game:crisis1914 aid:True.")
        if t is None or t.game.id != g.id or t.state is None or behind:
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
            host_only(t, user_id, admin, "change settings")
            new = current
            for key, value in changes.items():
                new = new.changed(key, value, t.game.deadline_settings)
            t = await self.access.save(t, row=replace(t.row, settings=new.to_json()))
            said = ", ".join(f"{k} = {v}" for k, v in changes.items())
            reply = f"Settings:\n{new.describe()}"
            gallery_only = all(k.strip().lower() == "spectator_delay" for k in changes)
            if any(k.strip().lower() == "spectator_delay" for k in changes):
                # the gallery cannot hide the channel itself (docs/rulings.md: the gallery)
                reply += f"\n{CHANNEL_SHOWS_ALL}"
            out = Outbox(channel_id=channel_id, reply=reply)
            out.posts.append(
                Post(
                    to="channel",
                    kind="notice",
                    text=f"Settings changed: {said}. "
                    + ("It applies at once." if gallery_only else "They apply from the next phase."),
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
        front = await self.posts.front.of(t)  # what Discord answered: the front end's row
        return TableInfo(
            t.row.channel_id,
            t.row.guild_id,
            t.game.id,
            t.row.status,
            t.row.host_id,
            seats,
            front.thread_id,
            front.status_message_id,
        )

    async def set_status_message(self, channel_id: int, message_id: int | None) -> None:
        """Remember the table's one public status message (edited in place): kept in the
        front end's row, no save of the table (front_rows.py)."""
        await self.posts.front.keep(channel_id, status_message_id=message_id)

    async def set_thread(self, channel_id: int, thread_id: int | None) -> None:
        """Remember the table's phase thread (None: archived), in the front end's row."""
        await self.posts.front.keep(channel_id, thread_id=thread_id)


# -- small helpers ---------------------------------------------------------------------------


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
