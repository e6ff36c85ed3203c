"""The community: what ties a server's tables together (docs/architecture.md §3).

`Community` reads the archive of finished games (bot/service/archive.py) and the ratings
(bot/service/ratings.py) for `/community history`, `/community leaderboard` and
`/community profile`; keeps a member's community settings (hidden from the leaderboards,
the data kept about them, forgetting them); lists the server's tables
(`/community tables`, in one server or, from a DM, in every server the member shares
with the bot); and keeps a table's `rated` setting, watches and the lobby channel, and
says what a lobby table's entry there reads (bot/service/signups.py).

It reaches tables only through `TableAccess`, as every part does, and writes a table's row
only for its `rated` mark (in the table's meta, beside the game's own options, which
belong to the engine) and a forgotten member's name. Who may see which channel is the
front end's to say: the directory and the profile take a `visible` test of channel ids,
and list nothing else.

A part of the table service like the others (`service.community`), given the store, the
table access, the members' preferences (forgetting resets them) and the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine import games
from engine.core import GameError

from ..render.text import escape, timestamp
from ..store import NotifyPrefs
from ..store.community_rows import DirectoryRow, FinishedGame, FinishedSeat
from . import signups
from .audience import EVERY_CHANNEL, Reader, Seen
from .signups import LobbyNews, jump, option_text
from .tablebase import TableError

if TYPE_CHECKING:
    from ..store import Store
    from .loaded import LoadedTable, TableAccess
    from .preferences import Preferences

__all__ = ["Community", "EVERY_CHANNEL", "FORMER_MEMBER", "PAGE", "Reader", "Server", "jump"]

PAGE = 10  # games, ratings or tables a page
FORMER_MEMBER = "a former member"

@dataclass(frozen=True)
class Server:
    """A server whose tables a directory lists: its id, its name (None: the only one
    listed) and who reads it (which of its channels they may open). Outside any server
    (the console), `channels` names the tables' channels instead."""

    guild_id: int
    name: str | None
    reader: Reader = EVERY_CHANNEL
    channels: tuple[int, ...] | None = None

def game_title(game_id: str) -> str:
    try:
        return games.get(game_id).title
    except GameError:
        return game_id


def _game(game: str | None) -> str | None:
    """A game's id from what was typed, or a refusal naming the games."""
    if not game:
        return None
    try:
        return games.get(game).id
    except GameError as exc:
        raise TableError(str(exc)) from None


def _pages(total: int) -> int:
    return max(1, -(-total // PAGE))


def wins_text(wins: float) -> str:
    """Wins as counted: whole, or to a tenth where members shared a seat."""
    return f"{wins:g}" if float(wins).is_integer() else f"{wins:.1f}"


class Community:
    """The server's archive, ratings, profiles and table directory."""

    def __init__(
        self, store: Store, access: TableAccess, preferences: Preferences, clock: Callable[[], float]
    ) -> None:
        self.store = store
        self.access = access
        self.preferences = preferences
        self.clock = clock

    # -- a table's rated mark --------------------------------------------------------------
    async def set_rated(self, channel_id: int, user_id: int, rated: bool, *, admin: bool = False) -> str:
        """Whether this table's result moves ratings; the host or Manage Server, before the start."""

        async def run(t: LoadedTable) -> str:
            if user_id != t.row.host_id and not admin:
                raise TableError("Only the host or a member with Manage Server can say whether a table is rated.")
            if t.row.status != "lobby":
                raise TableError("Whether a game is rated is settled before it starts; this one has started.")
            await self.access.save(t, row=replace(t.row, meta={**t.row.meta, "rated": rated}))
            return (
                "This table is rated: its result will move the server's ratings."
                if rated
                else "This table is not rated: its result is archived but moves no rating."
            )

        return await self.access.with_table(channel_id, run)

    # -- history ---------------------------------------------------------------------------
    async def history(
        self, reader: Reader, guild_id: int, *, game: str | None = None, user_id: int | None = None, page: int = 1
    ) -> str:
        """The server's finished games the reader may see, newest first, a page at a time."""
        game = _game(game)
        page = max(1, page)
        seen = Seen(self.store.community, guild_id, reader)
        rows, more = await seen.history(game=game, user_id=user_id, offset=(page - 1) * PAGE, limit=PAGE)
        if not rows:
            what = f" of {game_title(game)}" if game else ""
            return f"No finished games{what} on this page." if page > 1 else f"No finished games{what} yet."
        lines = [f"**Finished games**, newest first (page {page}):"]
        for g, seats in rows:
            lines.append(self._history_line(g, seats))
        if more:
            lines.append(f"More: /community history page:{page + 1}")
        lines.append("One game's standings: /community history id:<number>.")
        return "\n".join(lines)

    def _history_line(self, g: FinishedGame, seats: list[FinishedSeat]) -> str:
        winners = _players([s for s in seats if s.rank == 1])
        others = _players([s for s in seats if s.rank != 1])
        where = jump(g.guild_id, g.channel_id, g.message_id)
        rated = "" if g.counted else " (not rated)"
        return (
            f"**#{g.id}** {game_title(g.game)}, {timestamp(g.finished_at, 'd')}: won by {winners or 'nobody'}"
            + (f"; with {others}" if others else "")
            + f"{rated}. {where}"
        )

    async def finished(self, reader: Reader, guild_id: int, game_id: int) -> tuple[str, dict[str, Any]]:
        """One finished game's standings, and its archived record as JSON, if the reader may
        see it (a game they may not see is answered as one that does not exist)."""
        found = await Seen(self.store.community, guild_id, reader).one(game_id)
        if found is None:
            raise TableError(f"This server has no finished game #{game_id}; /community history lists them.")
        g, seats = found
        lines = [
            f"**#{g.id} {game_title(g.game)}**, finished {timestamp(g.finished_at, 'F')} "
            f"({g.reason.rstrip('.')}){'' if g.counted else '; not rated'}."
        ]
        for st in sorted(g.outcome.get("standings", []), key=lambda s: (s["rank"], -s["score"])):
            here = [s for s in seats if s.seat == st["seat"]]
            label = here[0].label if here else st["seat"]
            lines.append(f"{st['rank']}. {label}: {st['score']:g}, played by {_played_by(here) or 'nobody'}")
        lines.append(f"Where it was played: {jump(g.guild_id, g.channel_id, g.message_id)}")
        lines.append(
            "The whole record (seed and every action) comes from /game export in its channel while "
            "that table is still there."
        )
        return "\n".join(lines), _record(g, seats)

    # -- ratings ---------------------------------------------------------------------------
    async def leaderboard(self, reader: Reader, guild_id: int, game: str, page: int = 1) -> str:
        """The ratings of a game, best first, from the finished games the reader may see."""
        game_id = _game(game)
        if game_id is None:
            raise TableError("Name a game, e.g. /community leaderboard game:crisis1914.")
        page = max(1, page)
        rows, total = await Seen(self.store.community, guild_id, reader).ratings(game_id, (page - 1) * PAGE, PAGE)
        title = game_title(game_id)
        if not rows:
            return f"Nobody has a rating in {title} on this server yet." if page == 1 else "No one on this page."
        lines = [f"**{title} leaderboard** (page {page} of {_pages(total)}): rating, games, wins"]
        for n, r in enumerate(rows, (page - 1) * PAGE + 1):
            lines.append(f"{n}. {escape(r.name)}: {r.ordinal:.1f} ({_count(r.games, 'game')}, {wins_text(r.wins)} won)")
        lines.append(
            "The rating is the conservative estimate of skill (mean minus three deviations); it grows "
            "with wins and with games played."
        )
        return "\n".join(lines)

    # -- a member's settings and data -----------------------------------------------------
    async def set_hidden(self, user_id: int, hidden: bool, *, member_id: int | None = None) -> str:
        """Leave the leaderboards or return; `member_id` is the profile named, if any: only
        one's own profile can be hidden or shown, whichever front end asks."""
        if member_id is not None and member_id != user_id:
            raise TableError("Only your own profile can be hidden or shown.")
        await self.store.community.set_hidden(user_id, hidden, self.clock())
        if hidden:
            return "Your profile is hidden: you are left off every leaderboard. /community profile hidden:no shows it again."
        return "Your profile is shown: you appear on the leaderboards of the games you are rated in."

    async def mydata(self, user_id: int) -> dict[str, Any]:
        """What is stored about the member, as JSON values: community rows, notification
        preferences, the tables they sit at now."""
        data = await self.store.community.member_data(user_id)
        prefs = await self.store.get_notify(user_id)
        data["notification_preferences"] = {
            "mode": prefs.mode, "timezone": prefs.timezone, "quiet_hours": prefs.quiet_hours,
        }
        current = []
        for channel_id in await self.store.tables_of_user(user_id):
            try:
                t = await self.access.load(channel_id)
            except TableError:
                continue
            me = t.seat_of(user_id)
            if me is not None:
                current.append(
                    {
                        "server": t.row.guild_id, "channel": channel_id, "game": t.game.id, "status": t.row.status,
                        "name": me.name, "nation": t.label(me.seat) if me.seat else None,
                        "preference": me.preference,
                    }
                )
        data["tables"] = current
        data["abandoned_games"] = [
            {"server": a.guild_id, "channel": a.channel_id, "game": a.game, "abandoned_at": a.abandoned_at}
            for a in await self.store.community.member_abandoned_games(user_id)
        ]
        return {"format": "chancellery-member-data/1", "member": user_id, **data}

    async def forget(self, user_id: int, *, confirm: str) -> str:
        """Remove the member's name and preferences; their finished seats are anonymised and
        their seats in running games kept under "a former member". Only when `confirm` is
        "me", the word the member typed: both front ends pass it, so neither can skip it."""
        if confirm.strip().casefold() != "me":
            raise TableError("Nothing was removed. To be forgotten, type /community forget confirm:me.")
        # one transaction: every table, the archive, the ratings and what waits to be said
        changed = await self.store.community.forget_member(user_id, FORMER_MEMBER)
        await self.store.community.forget_abandoned(user_id)
        for channel_id in changed:  # their versions moved on: nothing shows them as they were
            async with self.access.lock(channel_id):
                try:
                    await self.access.load(channel_id, fresh=True)
                except TableError:
                    continue
        self.preferences.cache[user_id] = NotifyPrefs(user_id)  # the defaults, as stored now
        return (
            "Done: your name and preferences are removed. Every game you played, finished or still "
            "running, shows your seats as “a former member”, and you are off the leaderboards; you "
            "can keep playing the games still running. Messages already posted in Discord stay as "
            "they were."
        )

    # -- profiles --------------------------------------------------------------------------
    async def profile(self, reader: Reader, guild_id: int, user_id: int, name: str) -> str:
        """A member's record on this server as the reader may see it: per game, games
        finished, won and abandoned, the nations played and won with, ratings; answer time
        and reliability; the tables they sit at now and what they owe there. Only what each
        table's channel shows: no secret of a running game."""
        seen = Seen(self.store.community, guild_id, reader)
        record = await seen.member_record(user_id)
        ratings = {r.game: r for r in await seen.member_ratings(user_id)}
        abandoned = await seen.member_abandoned(user_id)
        hidden = await self.store.community.is_hidden(user_id)
        lines = [f"**{escape(name)}**" + (" (hidden from the leaderboards)" if hidden else "")]
        for game in sorted({r["game"] for r in record} | set(abandoned) | set(ratings), key=game_title):
            lines.append(_game_line(game, [r for r in record if r["game"] == game], abandoned.get(game, 0), ratings))
        if len(lines) == 1:
            lines.append("No finished or abandoned games on this server yet.")
        decisions = sum(r["decisions"] for r in record)
        missed = sum(r["missed"] for r in record)
        if decisions:
            answer = sum(r["answer_seconds"] for r in record) / decisions
            lines.append(
                f"Answers a turn in {_duration(answer)} on average (from the table's previous move to "
                "their decision, in finished games)."
            )
        if decisions + missed:
            lines.append(f"Reliability: {100 * missed / (decisions + missed):.1f} deadlines missed per 100 decisions.")
        lines += await self._current(reader, guild_id, user_id)
        return "\n".join(lines)

    async def _current(self, reader: Reader, guild_id: int, user_id: int) -> list[str]:
        """The member's open tables on this server that the reader may see, and what they owe."""
        lines = []
        for channel_id in await self.store.tables_of_user(user_id):
            if not reader.sees(channel_id):
                continue
            try:
                t = await self.access.load(channel_id)
            except TableError:
                continue
            me = t.seat_of(user_id)
            if t.row.guild_id != guild_id or me is None or user_id in t.row.meta.get("forgotten", ()):
                continue  # a forgotten member's seat is nobody's to point at
            where = f"{t.game.title} in <#{channel_id}>"
            if t.row.status == "lobby":
                lines.append(f"• {where}: in the lobby.")
            elif t.row.status == "paused":
                lines.append(f"• {where}: paused.")
            elif me.seat is not None:  # running: the game dealt every seated member a seat
                owed = [t.game.owed(p) for p in t.prompts if p.seat == me.seat]
                owes = f"owes {'; '.join(owed)}" if owed else "owes nothing now"
                lines.append(f"• {where}, as {t.label(me.seat)}: {owes}.")
        return ["Playing now:", *lines] if lines else []

    # -- the table directory ----------------------------------------------------------------
    async def directory(
        self, reader: Reader, guild_id: int, *, game: str | None = None, open_seat: bool = False, page: int = 1
    ) -> str:
        """The server's tables the reader may see, by game and status: lobbies with their open
        seats and options, running tables with whose turn it is and the deadline, paused ones."""
        return await self.directory_of([Server(guild_id, None, reader)], game=game, open_seat=open_seat, page=page)

    async def directory_of(
        self, servers: list[Server], *, game: str | None = None, open_seat: bool = False, page: int = 1
    ) -> str:
        """The tables of these servers that the reader may see in each (from a DM: every
        server the member shares with the bot), a page at a time."""
        game = _game(game)
        order = {"lobby": 0, "running": 1, "paused": 2}
        rows = []
        for server in servers:
            found = await self._rows(server, game)
            rows += [(server.name or "", r) for r in found]
        if open_seat:
            rows = [(n, r) for n, r in rows if r.status == "lobby" and r.seated < _most(r.game)]
        rows.sort(key=lambda nr: (nr[0].casefold(), game_title(nr[1].game), order.get(nr[1].status, 3), nr[1].channel_id))
        if not rows:
            return "No tables with an open seat here." if open_seat else "No tables here that you can see."
        page = min(max(1, page), _pages(len(rows)))
        lines = [f"**Tables** (page {page} of {_pages(len(rows))}):"]
        heading = None
        for name, r in rows[(page - 1) * PAGE : page * PAGE]:
            try:
                t = await self.access.load(r.channel_id)
            except TableError:
                continue
            if name and name != heading:
                heading = name
                lines.append(f"__{escape(name)}__")
            lines.append(_table_line(t))
        if page < _pages(len(rows)):
            lines.append(f"More: /community tables page:{page + 1}")
        return "\n".join(lines)

    async def _rows(self, server: Server, game: str | None) -> list[DirectoryRow]:
        """The server's tables the reader may see."""
        if server.channels is None:
            return await Seen(self.store.community, server.guild_id, server.reader).tables(game)
        rows = []
        for channel_id in filter(server.reader.sees, server.channels):  # outside a server: these channels' tables
            try:
                t = await self.access.load(channel_id)
            except TableError:
                continue
            if t.row.status in ("lobby", "running", "paused") and game in (None, t.game.id):
                rows.append(DirectoryRow(channel_id, t.game.id, t.row.status, len(t.seats)))
        return rows

    async def servers_with_tables(self) -> list[int]:
        """The servers with a lobby, running or paused table (a DM's directory asks which of
        them the member belongs to)."""
        return await self.store.community.servers_with_tables()

    # -- watches and the lobby channel ----------------------------------------------------
    async def watch(self, guild_id: int, user_id: int, game: str, on: bool) -> str:
        game_id = _game(game)
        if game_id is None:
            raise TableError("Name a game, e.g. /community watch game:origins.")
        await self.store.community.set_watch(guild_id, game_id, user_id, on)
        title = game_title(game_id)
        if on:
            return (
                f"You will be told when a table of {title} opens on this server (by DM, or by a mention "
                f"if your DMs are closed or /game notify says mention). /community unwatch game:{game_id} stops it."
            )
        return f"You will no longer be told about new tables of {title} here."

    async def set_lobby(self, guild_id: int, channel_id: int | None, *, admin: bool = True) -> str:
        """Announce the server's lobby tables in `channel_id` (None: nowhere); Manage Server."""
        if not admin:
            raise TableError("Only a member with Manage Server can choose the lobby channel.")
        await self.store.community.set_lobby(guild_id, channel_id, self.clock())
        if channel_id is None:
            return "New tables are no longer announced; their entries in the old lobby channel are removed."
        return (
            f"New tables with open seats are announced in <#{channel_id}>: each entry follows its table as "
            "seats fill and goes when the game starts or is abandoned. A table in a channel that not "
            "everyone there can see is not announced."
        )

    async def lobby_channel(self, guild_id: int) -> int | None:
        return await self.store.community.get_lobby(guild_id)

    async def open_lobbies(self, guild_id: int) -> list[int]:
        """The channels of the server's tables still in their lobby (shown again when the
        lobby channel changes)."""
        # the bot's own look: each entry then passes the lobby channel's rule (announcements.py)
        tables = await Seen(self.store.community, guild_id, EVERY_CHANNEL).tables()
        return [r.channel_id for r in tables if r.status == "lobby"]

    async def lobby_news(self, channel_id: int) -> LobbyNews | None:
        """What the table's lobby-channel entry and its game's watchers need now (signups.py)."""
        return await signups.lobby_news(self.store, self.access, channel_id)

    async def keep_entry(self, news: LobbyNews, message_id: int | None) -> None:
        """The front end showed `news` (its entry's message, if any): kept for next time."""
        await signups.keep(self.store, news, message_id)


def _most(game: str) -> int:
    try:
        return games.get(game).max_players
    except GameError:
        return 0


def _table_line(t: LoadedTable) -> str:
    """One table in the directory: its game, channel, status and what is happening there."""
    where = f"<#{t.row.channel_id}>"
    head = f"{t.game.title} in {where}"
    if t.row.status == "lobby":
        free = t.game.max_players - len(t.seats)
        options = option_text(t)
        rated = "" if t.row.meta.get("rated", True) else "; not rated"
        return (
            f"• {head}: lobby, {len(t.seats)} seated, {free} open seat{'s' if free != 1 else ''}"
            + (f"; options {options}" if options else "")
            + f"{rated}. /game join there."
        )
    if t.row.status == "paused":
        return f"• {head}: paused."
    due = {d.phase: d.due_at for d in t.deadlines}
    waiting = []
    for p in t.prompts:
        when = f", due {timestamp(due[p.phase])}" if p.phase in due else ""
        waiting.append(f"{t.who(p.seat)} ({t.label(p.seat)}){when}")
    return f"• {head}: waiting for {'; '.join(dict.fromkeys(waiting)) or 'nobody'}."


def _game_line(game: str, record: list[dict[str, Any]], abandoned: int, ratings: dict) -> str:
    finished = sum(r["games"] for r in record)
    won = sum(r["wins"] for r in record)
    nations = ", ".join(
        f"{r['label']} {r['games']}" + (f" (won {wins_text(r['wins'])})" if r["wins"] else "") for r in record
    )
    rating = ratings.get(game)
    rated = f"; rating {rating.ordinal:.1f} over {_count(rating.games, 'rated game')}" if rating else ""
    return (
        f"{game_title(game)}: {finished + abandoned} played, {finished} finished, {wins_text(won)} won, "
        f"{abandoned} abandoned{rated}." + (f" Nations: {nations}." if nations else "")
    )


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"


def _players(seats: list[FinishedSeat]) -> str:
    """Who played these seats, members first, each with the seat they played."""
    by_seat: dict[str, list[FinishedSeat]] = {}
    for s in seats:
        by_seat.setdefault(s.seat, []).append(s)
    return ", ".join(f"{_played_by(rows)} ({rows[0].label})" for rows in by_seat.values())


def _played_by(rows: list[FinishedSeat]) -> str:
    """A seat's players by their share of its decisions: "alice", "alice and bob (4 of 10)"."""
    if len(rows) == 1:
        return escape(rows[0].name)
    total = max(rows[0].seat_decisions, 1)
    return " and ".join(f"{escape(s.name)} ({s.decisions + s.missed} of {total} decisions)" for s in rows)


def _record(g: FinishedGame, seats: list[FinishedSeat]) -> dict[str, Any]:
    """A finished game as the archive keeps it, for a member to download."""
    return {
        "format": "chancellery-finished-game/1",
        "game": g.game,
        "title": game_title(g.game),
        "number": g.id,
        "finished_at": g.finished_at,
        "rated": g.counted,
        "outcome": g.outcome,
        "seats": [
            {
                "seat": s.seat, "nation": s.label, "player": s.name, "automatic": s.automatic,
                "rank": s.rank, "score": s.score, "decisions": s.decisions, "missed_deadlines": s.missed,
                "seat_decisions": s.seat_decisions, "automatic_decisions": s.seat_automatic, "win": s.win,
            }
            for s in seats
        ],
    }
