"""Sign-ups (docs/architecture.md §3): a lobby table's entry in its server's lobby channel,
and the members watching its game told when it opens.

The service says what must be shown and to whom (`lobby_news`): the entry's text as the
table is now, or that it must go (the game started, the table was abandoned, the server
has no lobby channel any more), and the watchers not yet told. A front end acts on it
(bot/discord/announcements.py posts, edits and deletes the message and sends the notices;
the console prints them) and then keeps what it did (`keep`): the entry's message, and
that the watchers were told, so a restart neither posts a second entry nor tells them
twice. An entry is named by its table's channel and creation, as the archive names a
table: the channel's next table is a new entry.

An entry names its host, says what it takes to join (a front end puts a Join button under
an entry with an open seat: `LobbyNews.joinable`), and lists only the options that differ
from the game's defaults, in words. A watcher who asked for mentions is pinged on the first
line of the table's new entry (`LobbyNews.ping`), so the ping goes with the entry.

Only lobby tables are announced. Who may see the table's channel is the front end's to
say: Discord posts no entry for a table the lobby channel's readers could not open, and
tells no watcher who cannot see it (docs/rulings.md, Platform).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..render.rich import Rich, Text, channel, member, small
from ..render.text import escape
from ..store import Store
from ..store.community_rows import LobbyEntry
from .errors import TableError

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess

__all__ = [
    "LobbyNews", "lobby_news", "keep", "entry_text", "option_text", "jump", "nation_counts", "free_seats", "host_name"
]


def jump(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link a member follows to the channel (and the message, when known)."""
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def _way_to(guild_id: int | None, channel_id: int) -> Text:
    """The channel, as a member reaches it from anywhere: a link, or the channel itself for
    a table outside a server (the console)."""
    return jump(guild_id, channel_id) if guild_id else channel(channel_id)


def option_text(t: LoadedTable) -> str:
    """The table's options that differ from the game's defaults, in words ("Congress Step
    off; Simplified rules"), or "": a default is what a member expects and goes unsaid."""
    fields = t.game.Options.model_fields
    shown = []
    for key, value in sorted(t.row.options.items()):
        field = fields.get(key)
        if key == "preferences" or field is None or value == field.default:
            continue
        words = _short(field.description or "") or key.replace("_", " ").capitalize()
        if value is True:
            shown.append(words)
        elif value is False:
            shown.append(f"off: {words[:1].lower()}{words[1:]}")
        else:
            shown.append(f"{words}: {escape(str(value))}")
    return "; ".join(shown)


def _short(description: str, most: int = 70) -> str:
    """An option's description cut to its first clause, for a line a phone shows whole."""
    text = description.split(" (")[0].split("; ")[0].split(", by default")[0].rstrip(".")
    if len(text) > most:
        text = text.split(": ")[0]
    return text if len(text) <= most else text[: most - 1].rsplit(" ", 1)[0] + "…"


def nation_counts(t: LoadedTable) -> bool:
    """Whether a nation asked for when joining can count at this table: the game lets players
    choose (or agree), or the host set choose_nations. Else the deal is at random."""
    return t.game.nation_choice != "random" or bool(t.row.options.get("choose_nations"))


def free_seats(t: LoadedTable) -> int:
    """The seats still open at a table gathering players."""
    return max(0, t.game.max_players - len(t.seats)) if t.row.status == "lobby" else 0


@dataclass
class LobbyNews:
    """What a lobby table's entry and its watchers need now."""

    table_channel: int
    guild_id: int  # 0: a table outside a server (the console)
    game: str  # the game's id
    title: str  # the game's title
    lobby_channel: int | None  # where the entry belongs now; None: nowhere
    text: Text | None  # the entry as the table is now; None: it must go
    previous: LobbyEntry | None  # as kept: its message is edited, or deleted when it must go
    entry: LobbyEntry  # what to keep once the front end has acted (`keep`)
    tell: list[int] = field(default_factory=list)  # watchers to tell now
    host: str = ""  # escaped, as every name in a message
    open: bool = False  # the table is in its lobby: its entry is kept
    joinable: bool = False  # it has an open seat: a front end offers a way to take it there

    def notice(self, server: str | None = None, *, button: bool = False) -> Text:
        """What a watcher is told (by DM): the game, the host, the open seats, where;
        `button`: a Join button goes with it."""
        where = f" on **{escape(server)}**" if server else ""
        tap = "tap Join below or " if button else ""
        return Rich.of(
            f"A table of **{self.title}** is open{where}, hosted by {self.host}. To take a seat, {tap}use /game join in ",
            _way_to(self.guild_id, self.table_channel),
            ".\n",
            small(f"You watch {self.title}: /community unwatch game:{self.game} stops these notices."),
        )

    def mention(self, user_ids: list[int]) -> Text:
        """The same notice as one public line that pings `user_ids` (their DMs are closed,
        or they asked for mentions). Posted with the entry, it goes with the entry."""
        return Rich.of(
            _pings(user_ids),
            f" a table of **{self.title}** is open, hosted by {self.host}: /game join in ",
            _way_to(self.guild_id, self.table_channel),
            " takes a seat.",
        )

    def ping(self, user_ids: list[int]) -> Text:
        """The line above a new entry that pings its game's watchers: the entry under it
        says the rest, and goes (ping and all) when the table starts or is abandoned."""
        return Rich.of(_pings(user_ids), f": a table of **{self.title}**, a game you watch, is open.")

    def must_remove(self) -> bool:
        """Whether the kept message must be deleted: the table is no longer open, the lobby
        channel changed, or it belongs to the channel's previous table."""
        p = self.previous
        if p is None or p.message_id is None:
            return False
        same_table = p.created_at == self.entry.created_at
        return self.text is None or not same_table or p.lobby_channel != self.lobby_channel


def _pings(user_ids: list[int]) -> Text:
    return Rich.join(" ", [member(uid) for uid in user_ids])


def entry_text(t: LoadedTable) -> Text:
    """A lobby table's entry: game, host, who sits, open seats, options, where and how to join."""
    g = t.game
    host = host_name(t)
    free = free_seats(t)
    names = ", ".join(escape(s.name) + (" (automatic)" if s.automatic else "") for s in t.seats)
    link = channel(t.row.channel_id)  # the lobby channel is in the table's server: a mention reads "#name"
    lines: list[Text] = [f"**{g.title}**, hosted by {host}: {len(t.seats)} of {g.max_players} seated ({names})."]
    if free > 0:
        ask = " (add preference: and a nation to ask for one)" if nation_counts(t) else ""
        lines.append(Rich.of(f"{_seats(free)} open. To take one, tap Join or use /game join in ", link, f"{ask}."))
    else:
        lines.append(Rich.of(f"Full: waiting for {host} to begin with /game start in ", link, "."))
    if len(t.seats) < g.min_players:
        lines.append(f"It can start with {g.min_players} players.")
    options = option_text(t)
    if options:
        lines.append(f"Options: {options}.")
    if not t.row.meta.get("rated", True):  # rated is the default, and goes unsaid
        lines.append("Not rated: its result moves no rating.")
    return Rich.join("\n", lines)


def _seats(n: int) -> str:
    return "1 seat" if n == 1 else f"{n} seats"


def host_name(t: LoadedTable) -> str:
    """The host's name, escaped."""
    return next((escape(s.name) for s in t.seats if s.user_id == t.row.host_id), "a member")


async def lobby_news(store: Store, access: TableAccess, channel_id: int) -> LobbyNews | None:
    """What the table in `channel_id` needs shown in its lobby channel and told to its
    game's watchers; None when there is nothing there (no table, nothing kept)."""
    previous = await store.community.get_lobby_entry(channel_id)
    try:
        t = await access.load(channel_id)
    except TableError:
        t = None
    if t is None:
        if previous is None:
            return None
        return LobbyNews(channel_id, previous.guild_id or 0, "", "", None, None, previous, previous)
    guild = t.row.guild_id or 0
    is_open = t.row.status == "lobby"
    lobby = await store.community.get_lobby(guild) if is_open else None
    same = previous is not None and previous.created_at == t.row.created_at
    told = same and previous is not None and previous.told
    entry = LobbyEntry(channel_id, t.row.created_at, t.row.guild_id, lobby, None, True)
    text = entry_text(t) if is_open and lobby else None
    news = LobbyNews(
        channel_id,
        guild,
        t.game.id,
        t.game.title,
        lobby,
        text,
        previous,
        entry,
        host=host_name(t),
        open=is_open,
        joinable=free_seats(t) > 0,
    )
    if is_open and not told:  # the table's first showing: its game's watchers hear of it
        seated = {s.user_id for s in t.seats}
        news.tell = [uid for uid in await store.community.watchers(guild, t.game.id) if uid not in seated]
    return news


async def keep(store: Store, news: LobbyNews, message_id: int | None) -> None:
    """Keep what the front end did: the entry's message (None: none is shown), and that the
    watchers were told. A table no longer in its lobby is forgotten: it never reopens."""
    if not news.open:
        if news.previous is not None:
            await store.community.delete_lobby_entry(news.table_channel)
        return
    entry = replace(news.entry, message_id=message_id)
    if entry != news.previous:  # a join that changes nothing kept (no lobby channel) writes nothing
        await store.community.set_lobby_entry(entry)
