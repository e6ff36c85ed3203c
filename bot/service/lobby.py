"""The lobby as a part of the table service (docs/architecture.md §3): opening a table,
taking and giving up a seat, and starting the game.

`Lobby` owns a table before its game starts: who is seated and in which order, the host
(the role passes on when the host leaves), each member's nation preference, and the
start: the seed and its commitment, the setup, who gets which nation (the game's
`nation_choice`, docs/rulings.md Platform 2), the opening posts and the first deadlines.
It also seats a newcomer on a free seat of an imported game that waits for players.
Every change runs under the table's lock through `TableAccess.with_table` (a new table
through `Store.create_table`); the automatic seats' first moves are played by `Play`.

Every change to who sits at a lobby table, its creation, its start and its end asks the
front end to show the table's entry in the server's lobby channel again
(`Outbox.lobby_changed`; the entry's text is `Community.lobby_entry`'s); an abandoned game
is archived for its members' profiles (`abandoned`, bot/service/archive.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from pydantic import ValidationError

from engine import games
from engine.core import (
    Choice,
    GameError,
    GameState,
    IllegalAction,
    did_you_mean,
    matches_seat,
    nearest_names,
    seed_commitment,
)
from engine.core.names import fold, seat_names

from ..render import escape, seat_list
from ..render.rich import Rich
from ..store import DatabaseLost, EventRow, SeatHistoryRow, SeatRow, StorageFull, Store, TableExists, TableRow
from ..store.guard import FULL_MESSAGE, LOST_MESSAGE
from .archive import archive_abandoned
from .errors import NOT_SEATED, OVER, TableError, error_message, first_error
from .history import SEED_MAX, SEED_MIN
from .loaded import LoadedTable, dealt_seat, started_state
from .outbox import Outbox, Post
from .phases import deadlines_after
from .posts import SUMMARY
from .reference import check_options
from .saved import note_saved
from .settings import Settings

if TYPE_CHECKING:
    from .loaded import TableAccess
    from .play import Play
    from .posts import Posts

log = logging.getLogger(__name__)

PREFERENCE_CHARS = 40


class Lobby:
    """Create, join, leave and start: a table's life until its game is under way."""

    def __init__(
        self,
        store: Store,
        access: TableAccess,
        posts: Posts,
        play: Play,
        clock: Callable[[], float],
        default_settings: Settings,
        seed_source: Callable[[], int],
    ) -> None:
        self.store = store
        self.access = access
        self.posts = posts
        self.play = play
        self.clock = clock
        self.default_settings = default_settings
        self.seed_source = seed_source  # tests fix it; otherwise a fresh secret seed per game

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
        out.lobby_changed = True  # announced in the lobby channel, its watchers told
        out.posts.append(
            Post(
                to="channel",
                kind="notice",
                text=f"{escape(host_name)} opened a table for **{g.title}** ({g.min_players}-{g.max_players} players). "
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
            out = Outbox(channel_id=channel_id)
            out.lobby_changed = True  # one open seat fewer
            wants = f", hoping for {escape(wish)}" if wish else ""
            out.posts.append(
                Post(to="channel", kind="notice", text=f"{escape(name)} joined{wants}. ({len(t.seats) + 1} seated)")
            )
            t = await self.access.save(t, seats=[*t.seats, seat], outbox=out)
            out.status = self.posts.status(t)
            rule = f" {t.game.nation_rule}" if t.game.nation_rule else ""
            out.reply = "You are seated." + (f" Your preference “{escape(wish)}” is noted.{rule}" if wish else "")
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
            near = _near_seat(preference or "", [(s, t.label(s)) for s in free], names)
            raise TableError(
                f"No free seat is called {_quoted(preference or '')}.{near} "
                f"Free: {', '.join(t.label(s) for s in free)}."
            )
        seat = seat or free[0]
        now = self.clock()
        state = started_state(t)
        row = SeatRow(
            t.row.channel_id,
            user_id,
            name,
            position=state.seats.index(seat) + 1,
            seat=seat,
            joined_at=now,
        )
        seats = sorted([*t.seats, row], key=lambda s: s.position)
        history = [SeatHistoryRow(t.row.channel_id, seat, user_id, name, state.step, now, False, "join")]
        t = await self.access.save(t, seats=seats, history=history)
        out = Outbox(channel_id=t.row.channel_id, status=self.posts.status(t), reply=f"You play {t.label(seat)}.")
        left = t.free_seats()
        more = (
            f" Still free: {', '.join(t.label(s) for s in left)}."
            if left
            else " Every seat is taken; the host can /game resume."
        )
        out.posts.append(Post(to="channel", kind="notice", text=f"{escape(name)} takes {t.label(seat)}.{more}"))
        out.posts.append(
            Post(
                to="seat",
                seat=seat,
                user_id=user_id,
                dm=True,
                kind="briefing",
                text=Rich.of(f"**{t.game.title}**: you play **{t.label(seat)}**.\n", self.posts.private_text(t, seat)),
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
            out.lobby_changed = True  # a seat opened again, or the table closed
            if not rest:
                out.posts.append(
                    Post(to="channel", kind="notice", text=f"{escape(me.name)} left; the table is closed.")
                )
                t = await self.access.save(t, row=replace(t.row, status="abandoned"), seats=[], outbox=out)
            else:
                host, passed = t.row.host_id, ""
                if user_id == host:  # the host role passes to the next in table order
                    host, passed = rest[0].user_id, f" {escape(rest[0].name)} is now the host."
                out.posts.append(Post(to="channel", kind="notice", text=f"{escape(me.name)} left the table.{passed}"))
                t = await self.access.save(t, row=replace(t.row, host_id=host), seats=rest, outbox=out)
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
            seats, state, table_seed = self._dealt(t, seed)
            # `t` keeps the stored row: _save writes the columns that differ from it
            started = t.replaced(seats=seats, deadlines=[], state=state)
            now = self.clock()
            prompts = g.prompts(state)
            deadlines, opened, _ = deadlines_after(started, prompts, now)
            round_label = g.round_label(state) if t.settings.round_threads else None
            order = seat_list([(escape(s.name), started.label(dealt_seat(s))) for s in seats])
            begins = (
                f"**{g.title}** begins.\n{order}\nShuffles and dice come from a secret seed, sealed "
                f"now so it cannot change: Seed commitment: `{seed_commitment(table_seed)}`. The seed "
                "is revealed at the end, and anyone can check it against this."
            )
            # the channel's round summary starts here, headed by that line (posts.py)
            first_round = g.layout(g.view(state, None)).round
            meta = {**t.row.meta, "round": round_label, SUMMARY: self.posts.opening_summary(begins, first_round)}
            history = [
                SeatHistoryRow(channel_id, dealt_seat(s), s.user_id, s.name, 0, now, s.automatic, "start")
                for s in seats
            ]
            opening = g.opening_events(state)  # what setup already did (a First Draw)
            row = replace(t.row, status="running", seed=table_seed, meta=meta)
            # what the start says, read from the table as it will be saved, saved with it
            saving = started.replaced(row=row, seats=seats, deadlines=deadlines, state=state)
            out = Outbox(channel_id=channel_id)
            out.lobby_changed = True  # the entry is removed: the seats are taken for good
            out.posts.append(Post(to="channel", kind="begins", text=begins))
            self.posts.event_posts(saving, out, opening)
            self.posts.prompt_posts(saving, out, [], prompts)
            self.posts.thread_changes(out, opened, [])
            if round_label:
                out.open_thread = round_label
            t = await self.access.save(
                started,
                row=row,
                state=state,
                seats=seats,
                deadlines=deadlines,
                prompts=prompts,
                history=history,
                events=[EventRow(channel_id, None, e.audience, e.kind, e.text, now) for e in opening],
                outbox=out,
            )
            t = await self.play.autoplay(t, out)
            out.status = self.posts.status(t)
            out.reply = "The game has started."
            return out

        return await self.access.with_table(channel_id, run)

    async def abandoned(self, t: LoadedTable, out: Outbox) -> None:
        """The table `t` was just abandoned (its saved version): its lobby entry goes, and
        a game that had started is archived for its members' profiles."""
        out.lobby_changed = True
        await archive_abandoned(self.store, t, self.clock())

    def _dealt(self, t: LoadedTable, seed: int | None) -> tuple[list[SeatRow], GameState, int]:
        """The seats, the game set up and its seed, for a table about to start: the players on
        opaque seat ids, then on the nation their preference names as the game allows."""
        g = t.game
        if len(t.seats) < g.min_players:
            raise TableError(f"{g.title} needs at least {g.min_players} players; {len(t.seats)} seated.")
        ids = [f"s{i}" for i in range(1, len(t.seats) + 1)]
        seats = [replace(s, seat=seat) for s, seat in zip(t.seats, ids, strict=True)]
        options = dict(t.row.options)
        # A game that takes nation preferences says so with a `preferences` option.
        if "preferences" in g.Options.model_fields:
            options["preferences"] = {seat: s.preference for s, seat in zip(seats, ids, strict=True) if s.preference}
        if seed is not None and not SEED_MIN <= seed <= SEED_MAX:
            raise TableError(f"The seed must be a whole number from {SEED_MIN:,} to {SEED_MAX:,}.")
        table_seed = seed if seed is not None else self.seed_source()
        try:
            state = g.setup(list(ids), g.Options.model_validate(options), table_seed)  # setup may keep the list it is given
        except (IllegalAction, ValidationError) as exc:
            raise TableError(f"The game could not start: {error_message(exc)}") from None
        if "preferences" not in g.Options.model_fields:
            # Seat ids are opaque, so who holds which is ours to choose: seat players
            # whose preference names a nation the game dealt out on that nation.
            labels = {seat: g.seat_label(state, seat) for seat in ids}
            policy = "first_come" if options.get("choose_nations") else g.nation_choice
            seats = _honour_preferences(seats, labels, policy, g.nation_names())
        return seats, state, table_seed

    def _checked_preference(self, t: LoadedTable, user_id: int, preference: str | None) -> str | None:
        """A lobby join's preference, if it names a nation or seat the game deals at some
        table size still possible, in the game's words ("Germany" for `germany`): the
        status shows it, never the text typed. Else a refusal listing them."""
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
        for label, sid in labels.items():
            if matches_seat(want, sid, label, g.nation_names()):
                return _named(want, label, g.nation_names())
        near = _near_seat(want, [(sid, label) for label, sid in labels.items()], g.nation_names())
        raise TableError(
            f"{g.title} has no nation or seat called {_quoted(want)}.{near} Choose one of: {', '.join(labels)}; "
            "or join without a preference."
        )

    def nations(self, t: LoadedTable, user_id: int) -> list[Choice]:
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


def _near_seat(
    typed: str, seats: list[tuple[str, str]], alternatives: dict[str, tuple[str, ...]] | None
) -> str:
    """" Did you mean Germany?" for a misspelt preference (`germny`, `sazanov`): the
    nearest one or two seats, each by its name nearest what was typed (a statesman, a
    nation, a common name); "" when none is close."""
    candidates = []
    for sid, label in seats:  # one suggestion a seat, by the name of it nearest what was typed
        names = seat_names(sid, label, alternatives)
        nearest = nearest_names(typed, names, 1)
        if nearest:
            candidates.append((nearest[0], *names))
    near = did_you_mean(typed, candidates)
    return f" {near}" if near else ""


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


def _named(want: str, label: str, alternatives: dict[str, tuple[str, ...]]) -> str:
    """The part of seat `label` a preference names, in the game's words: "Berchtold" for
    `**Berchtold**` or `berch` in "Berchtold (Austria-Hungary)", "Britain" for `England`;
    the whole label when no one part is named (the seat's id)."""
    key = fold(want).replace(" ", "")
    parts = seat_names("", label)  # the label, then each of its parts
    others = {fold(k): v for k, v in alternatives.items()}

    def called(part: str, exact: bool) -> bool:
        names = [part, *others.get(fold(part), ())]
        folded = [fold(n).replace(" ", "") for n in names]
        return any(key == n if exact else key in n for n in folded)

    for exact in (True, False):
        hits = [p for p in parts if called(p, exact)]
        if hits:
            return min(hits, key=len)
    return label


def _quoted(text: str, limit: int = 40) -> str:
    """A member's text echoed back, cut short (it may be 2,000 characters), escaped."""
    text = " ".join(str(text).split())
    return f"“{escape(text[:limit])}…”" if len(text) > limit else f"“{escape(text)}”"
