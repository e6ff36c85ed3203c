"""The community: what ties a server's tables together (docs/architecture.md §3).

`Community` reads the archive of finished games (bot/service/archive.py) and the ratings
(bot/service/ratings.py) for `/community history`, `/community leaderboard` and
`/community profile`; keeps a member's community settings (hidden from the leaderboards,
the data kept about them, forgetting them); lists the server's tables
(`/community tables`, in one server or, from a DM, in every server the member shares
with the bot, with the tables on the page the reader may join) and says what a Join
button offers at a table (`join_offer`); and keeps a table's `rated` setting, watches and
the lobby channel, and says what a lobby table's entry there reads (bot/service/signups.py).

Its texts are written for a phone: short lines, no count of nothing, no placeholder, a
footnote after a blank line (Discord would set it inside the list above it); a finished
game's files are named for people (`file_name`: game, channel, date).

It reaches tables only through `TableAccess`, as every part does, and writes a table's row
only for its `rated` mark (in the table's meta, beside the game's own options, which
belong to the engine) and a forgotten member's name. Who may see which channel is the
front end's to say: every read takes a `Reader` (bot/service/audience.py) and lists
nothing it may not open.

A part of the table service like the others (`service.community`), given the store, the
table access, the members' preferences (forgetting resets them) and the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from engine import games
from engine.core import GameError

from ..render.rich import Rich, Text, channel, moment, small
from ..render.text import escape
from ..store import NotifyPrefs
from ..store.community_rows import DirectoryRow, FinishedGame, FinishedSeat
from . import community_texts as ct
from . import signups
from .audience import EVERY_CHANNEL, Reader, Seen
from .community_texts import file_name, game_title, rating_text
from .errors import TableError
from .signups import LobbyNews, jump

if TYPE_CHECKING:
    from ..store import Store
    from .loaded import LoadedTable, TableAccess
    from .preferences import Preferences

__all__ = [
    "Community", "DirectoryPage", "EVERY_CHANNEL", "FinishedFile", "FORMER_MEMBER", "JoinOffer", "PAGE", "Reader", "Server",
    "file_name", "game_title", "jump", "rating_text",
]

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

@dataclass
class DirectoryPage:
    """A page of the table directory, and the tables on it the reader may join: (their
    channel, their game's title)."""

    text: Text
    joinable: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class FinishedFile:
    """A finished game as its files are named and made (`Community.finished_file`)."""

    title: str
    channel_id: int
    finished_at: float
    replay: bool  # its channel still holds its table: the replay page can be made


@dataclass(frozen=True)
class JoinOffer:
    """A table as a Join button meets it (`Community.join_offer`)."""

    channel_id: int
    guild_id: int
    title: str
    seated: bool  # the member sits there already
    open: bool  # a seat is free
    choose: bool  # a nation asked for can count: offer the nations


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
    ) -> Text:
        """The server's finished games the reader may see, newest first, a page at a time."""
        game = _game(game)
        page = max(1, page)
        seen = Seen(self.store.community, guild_id, reader)
        rows, more = await seen.history(game=game, user_id=user_id, offset=(page - 1) * PAGE, limit=PAGE)
        if not rows:
            what = f" of {ct.game_title(game)}" if game else ""
            return f"No finished games{what} on this page." if page > 1 else f"No finished games{what} yet."
        lines: list[Text] = [f"**Finished games**, newest first (page {page}):"]
        for g, seats in rows:
            lines.append(self._history_line(g, seats))
        example = rows[0][0].id
        lines.append("")  # a footnote under a list, not in it
        lines.append(
            small(
                f"One game's standings and replay: /community history id: and its number, e.g. id:{example}."
                + (f" More: /community history page:{page + 1}" if more else "")
            )
        )
        return Rich.join("\n", lines)

    def _history_line(self, g: FinishedGame, seats: list[FinishedSeat]) -> Text:
        """A finished game in two short lines: number, game, date; who won, who else, where."""
        winners = ct.players_text([s for s in seats if s.rank == 1])
        others = ", ".join(dict.fromkeys(ct.played_by([s]) for s in seats if s.rank != 1))
        rated = "" if g.counted else " · not rated"
        won = f"Won by {winners}" if winners else "Nobody won"
        return Rich.of(
            f"**#{g.id} {ct.game_title(g.game)}** · ",
            moment(g.finished_at, "d"),
            f"{rated}\n{won}" + (f", against {others}" if others else "") + ". ",
            ct.finished_link(g),
        )

    async def finished(self, reader: Reader, guild_id: int, game_id: int) -> tuple[Text, dict[str, Any]]:
        """One finished game's standings, and its archived record as JSON, if the reader may
        see it (a game they may not see is answered as one that does not exist)."""
        found = await Seen(self.store.community, guild_id, reader).one(game_id)
        if found is None:
            raise TableError(f"This server has no finished game #{game_id}; /community history lists them.")
        g, seats = found
        rated = "" if g.counted else "; not rated"
        lines: list[Text] = [Rich.of(f"**#{g.id} {ct.game_title(g.game)}**, finished ", moment(g.finished_at, "D"), f"{rated}.")]
        if g.reason:
            lines.append(f"{g.reason[:1].upper()}{g.reason[1:].rstrip('.')}.")
        for st in sorted(g.outcome.get("standings", []), key=lambda s: (s["rank"], -s["score"])):
            here = [s for s in seats if s.seat == st["seat"]]
            label = here[0].label if here else st["seat"]
            lines.append(f"{st['rank']}. {ct.played_by(here) or 'nobody'} as {label}: {st['score']:g}")
        lines += ["", small(Rich.of("Where it was played: ", ct.finished_link(g)))]
        return Rich.join("\n", lines), ct.finished_record(g, seats)

    async def finished_file(self, reader: Reader, guild_id: int, game_id: int) -> FinishedFile | None:
        """What a finished game's file is made from, if the reader may see the game: its
        title, channel and end, and whether its channel still holds its table (the replay
        page is made there, as /game export format:html makes it; a newer table replaced it
        otherwise, and the archive's record is all there is)."""
        found = await Seen(self.store.community, guild_id, reader).one(game_id)
        if found is None:
            return None
        g = found[0]
        try:
            t = await self.access.load(g.channel_id)
            here = t.row.status == "finished" and t.row.created_at == g.created_at
        except TableError:
            here = False
        return FinishedFile(ct.game_title(g.game), g.channel_id, g.finished_at, here)

    # -- ratings ---------------------------------------------------------------------------
    async def leaderboard(self, reader: Reader, guild_id: int, game: str, page: int = 1) -> Text:
        """The ratings of a game, best first, from the finished games the reader may see."""
        game_id = _game(game)
        if game_id is None:
            raise TableError("Name a game, e.g. /community leaderboard game:crisis1914.")
        page = max(1, page)
        rows, total = await Seen(self.store.community, guild_id, reader).ratings(game_id, (page - 1) * PAGE, PAGE)
        title = ct.game_title(game_id)
        if not rows:
            return f"Nobody has a rating in {title} on this server yet." if page == 1 else "No one on this page."
        lines: list[Text] = [f"**{title} leaderboard** (page {page} of {_pages(total)})"]
        for n, r in enumerate(rows, (page - 1) * PAGE + 1):
            won = f", {ct.wins_text(r.wins)} won" if r.wins else ""
            lines.append(f"{n}. {escape(r.name)}: rating {ct.rating_text(r.ordinal)} · {ct.count(r.games, 'game')}{won}")
        lines += ["", ct.RATING_NOTE]
        if page < _pages(total):
            lines.append(small(f"More: /community leaderboard game:{game_id} page:{page + 1}"))
        return Rich.join("\n", lines)

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
            "digest": prefs.digest, "digest_due": prefs.digest_due, "digest_sent": prefs.digest_sent,
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
    async def profile(self, reader: Reader, guild_id: int, user_id: int, name: str) -> Text:
        """A member's record on this server as the reader may see it: per game, games
        finished, won and abandoned, the nations played and won with, ratings; answer time
        and reliability; the tables they sit at now and what they owe there. Only what each
        table's channel shows: no secret of a running game."""
        seen = Seen(self.store.community, guild_id, reader)
        record = await seen.member_record(user_id)
        ratings = {r.game: r for r in await seen.member_ratings(user_id)}
        abandoned = await seen.member_abandoned(user_id)
        hidden = await self.store.community.is_hidden(user_id)
        lines: list[Text] = [f"**{escape(name)}**" + (" (hidden from the leaderboards)" if hidden else "")]
        for game in sorted({r["game"] for r in record} | set(abandoned) | set(ratings), key=game_title):
            lines += ct.game_lines(game, [r for r in record if r["game"] == game], abandoned.get(game, 0), ratings)
        if len(lines) == 1:
            lines.append("No finished or abandoned games on this server yet.")
        lines.append(ct.pace(record))
        lines += await self._current(reader, guild_id, user_id)
        if ratings:
            lines += ["", ct.RATING_NOTE]
        return Rich.join("\n", lines)

    async def _current(self, reader: Reader, guild_id: int, user_id: int) -> list[Text]:
        """The member's open tables on this server that the reader may see, and what they owe."""
        lines: list[Text] = []
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
            where = Rich.of(f"• {t.game.title} in ", channel(channel_id))
            if t.row.status == "lobby":
                lines.append(Rich.of(where, ": gathering players."))
            elif t.row.status == "paused":
                lines.append(Rich.of(where, ": paused."))
            elif me.seat is not None:  # running: the game dealt every seated member a seat
                owed = [t.game.owed(p) for p in t.prompts if p.seat == me.seat]
                owes = f"owes {'; '.join(owed)}" if owed else "owes nothing now"
                lines.append(Rich.of(where, f", as {t.label(me.seat)}: {owes}."))
        return ["Playing now:", *lines] if lines else []

    # -- the table directory ----------------------------------------------------------------
    async def directory(
        self, reader: Reader, guild_id: int, *, game: str | None = None, open_seat: bool = False, page: int = 1
    ) -> Text:
        """The server's tables the reader may see, by game and status: lobbies with their open
        seats and options, running tables with whose turn it is and the deadline, paused ones."""
        return await self.directory_of([Server(guild_id, None, reader)], game=game, open_seat=open_seat, page=page)

    async def directory_of(
        self, servers: list[Server], *, game: str | None = None, open_seat: bool = False, page: int = 1
    ) -> Text:
        """The tables of these servers that the reader may see in each (from a DM: every
        server the member shares with the bot), a page at a time."""
        return (await self.directory_page(servers, game=game, open_seat=open_seat, page=page)).text

    async def directory_page(
        self, servers: list[Server], *, game: str | None = None, open_seat: bool = False, page: int = 1
    ) -> DirectoryPage:
        """`directory_of`'s page, with the tables on it the reader may join (a front end
        puts a Join button under it for each)."""
        game = _game(game)
        order = {"lobby": 0, "running": 1, "paused": 2}
        rows = []
        for server in servers:
            found = await self._rows(server, game)
            rows += [(server, r) for r in found]
        if open_seat:
            rows = [(n, r) for n, r in rows if r.status == "lobby" and r.seated < ct.most_players(r.game)]
        rows.sort(
            key=lambda sr: ((sr[0].name or "").casefold(), ct.game_title(sr[1].game), order.get(sr[1].status, 3), sr[1].channel_id)
        )
        if not rows:
            return DirectoryPage("No tables with an open seat here." if open_seat else "No tables here that you can see.")
        page = min(max(1, page), _pages(len(rows)))
        shown = DirectoryPage(f"**Tables** (page {page} of {_pages(len(rows))}):")
        lines: list[Text] = [shown.text]
        heading = None
        for server, r in rows[(page - 1) * PAGE : page * PAGE]:
            try:
                t = await self.access.load(r.channel_id)
            except TableError:
                continue
            if server.name and server.name != heading:
                heading = server.name
                lines.append(f"__{escape(server.name)}__")
            me = server.reader.user_id
            lines.append(ct.table_line(t, me))
            if signups.free_seats(t) and (me is None or t.seat_of(me) is None):
                shown.joinable.append((t.row.channel_id, t.game.title))
        if page < _pages(len(rows)):
            lines += ["", small(f"More: /community tables page:{page + 1}")]
        shown.text = Rich.join("\n", lines)
        return shown

    async def join_offer(self, channel_id: int, user_id: int) -> JoinOffer:
        """What a Join button offers the member at the table in `channel_id`: whether they
        sit there already, whether a seat is open, and whether a nation they ask for counts."""
        t = await self.access.load(channel_id)
        return JoinOffer(
            channel_id,
            t.row.guild_id or 0,
            t.game.title,
            seated=t.seat_of(user_id) is not None,
            open=signups.free_seats(t) > 0 or (t.row.status in ("running", "paused") and bool(t.free_seats())),
            choose=t.row.status == "lobby" and signups.nation_counts(t),
        )

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
        title = ct.game_title(game_id)
        if on:
            return (
                f"You will be told when a table of {title} opens on this server (by DM, or by a mention "
                f"if your DMs are closed or /game notify says mention). /community unwatch game:{game_id} stops it."
            )
        return f"You will no longer be told about new tables of {title} here."

    async def set_lobby(self, guild_id: int, channel_id: int | None, *, admin: bool = True) -> Text:
        """Announce the server's lobby tables in `channel_id` (None: nowhere); Manage Server."""
        if not admin:
            raise TableError("Only a member with Manage Server can choose the lobby channel.")
        await self.store.community.set_lobby(guild_id, channel_id, self.clock())
        if channel_id is None:
            return "New tables are no longer announced; their entries in the old lobby channel are removed."
        return Rich.of(
            "New tables with open seats are announced in ",
            channel(channel_id),
            ": each entry follows its table as seats fill and goes when the game starts or is abandoned. "
            "A table in a channel that not everyone there can see is not announced.",
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
