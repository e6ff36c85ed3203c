"""`/community …`: what ties a server's tables together (bot/service/community.py).

The finished games (`history`), the ratings (`leaderboard`), a member's record
(`profile`), the data kept about them (`mydata`, `forget`), the table directory
(`tables`), a table's rated mark (`rated`), sign-ups: the server's lobby channel
(`lobby`, Manage Server) and the games a member watches (`watch`, `unwatch`). Its own
group beside `/game`, which already holds the 25 verbs Discord allows a group.

Who may see which channel is Discord's to say (`context.reader_of`); what a reader sees of
the server's games is the service's one rule (bot/service/audience.py): every answer here
lists only tables and finished games whose channel the caller may open. From a DM, the
directory lists each server the member shares with the bot, read with the member's own
permissions there (`_servers`).
"""

from __future__ import annotations

import json
import logging

import discord
from discord import app_commands

from bot.service.audience import Reader
from bot.service.community import Community, Server, file_name
from bot.service.errors import TableError

from .context import is_admin, may_open, reader_of, refuse_in_dms, table_channel_id
from .host import host
from .interact import answer_file, answer_private, run_refusable, say
from .join_view import join_view
from .markup import markup
from .table_commands import GameNumber, Page, _game_choices

__all__ = ["CommunityGroup"]

log = logging.getLogger(__name__)

# about the caller alone, or every server they share with the bot: they work in a DM too
ANYWHERE = frozenset({"mydata", "forget", "tables"})
DM_SERVERS = 25  # servers with tables a DM's directory looks into (one request each)


def _community(interaction: discord.Interaction) -> Community:
    return host(interaction).service.community


async def _servers(interaction: discord.Interaction, community: Community) -> tuple[list[Server], bool]:
    """The servers with tables that the caller shares with the bot, each with what the caller
    may see there; and whether more were left unsearched (beyond DM_SERVERS)."""
    with_tables = set(await community.servers_with_tables())
    guilds = [g for g in interaction.client.guilds if g.id in with_tables]
    servers = []
    for guild in guilds[:DM_SERVERS]:
        member = guild.get_member(interaction.user.id)
        if member is None:
            try:
                member = await guild.fetch_member(interaction.user.id)
            except discord.HTTPException:  # not a member there
                continue
        servers.append(Server(guild.id, guild.name, Reader(member.id, may_open(guild, member))))
    return servers, len(guilds) > DM_SERVERS


async def _directory(
    interaction: discord.Interaction, game: str | None, open_seat: bool, page: int
) -> tuple[str, list[tuple[int, str]]]:
    """The directory page and the tables on it the caller may join: of this server, or from
    a DM of every server the caller shares with the bot."""
    community = _community(interaction)
    if interaction.guild_id is not None:
        servers = [Server(interaction.guild_id, None, reader_of(interaction))]
        more = False
    else:
        servers, more = await _servers(interaction, community)
        if not servers:
            return "You share no server with tables with me. /community tables in a server lists its tables.", []
    shown = await community.directory_page(servers, game=game, open_seat=open_seat, page=page)
    text = markup(shown.text)
    if more:
        text += f"\nOnly {DM_SERVERS} servers were searched; /community tables in a server lists all of its own."
    return text, shown.joinable


def _join_labels(interaction: discord.Interaction, joinable: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A Join button's label for each table: its game and channel ("Join Crisis: 1914 #balkans")."""
    out = []
    for channel_id, title in joinable:
        channel = interaction.client.get_channel(channel_id)
        name = f" #{channel.name}" if channel is not None and hasattr(channel, "name") else ""
        out.append((channel_id, f"Join {title}{name}"))
    return out


async def _finished(interaction: discord.Interaction, community: Community, number: int) -> tuple[str, bytes, str]:
    """`/community history id:`: the game's standings with its replay page (made as
    /game export format:html makes it) while its channel still holds its table, else with
    the archive's record (JSON); the file named for people: game, channel, date."""
    reader, guild_id = reader_of(interaction), interaction.guild_id or 0
    text, record = await community.finished(reader, guild_id, number)
    about = await community.finished_file(reader, guild_id, number)
    if about is None:  # finished() refused it already; for the type checker
        raise TableError(f"This server has no finished game #{number}.")
    channel = interaction.client.get_channel(about.channel_id)
    name = getattr(channel, "name", "") or ""
    if about.replay:
        try:
            page = await host(interaction).service.history.export_html(about.channel_id, interaction.user.id)
        except TableError:
            page = b""
        if page:
            note = "\n-# The replay page is attached: open it in any browser, on a phone too; it needs no network."
            return markup(text) + note, page, file_name(about.title, name, about.finished_at, "html")
    note = (
        "\n-# A newer table has replaced it in its channel, so the archive's record (JSON) is attached: "
        "the replay page comes from /game export format:html while a finished table is still there."
    )
    data = json.dumps(record, indent=1).encode()
    return markup(text) + note, data, file_name(about.title, name, about.finished_at, "json")


async def _refresh(interaction: discord.Interaction, *channel_ids: int) -> None:
    """Show these tables' lobby-channel entries again (the bot's `Announcements.refresh`)."""
    announce = getattr(host(interaction).delivery, "announce", None)
    if announce is None:  # no lobby channel support
        return
    for channel_id in channel_ids:
        try:
            await announce(channel_id)
        except Exception:  # the answer stands; the entry follows at the table's next change
            log.warning("could not refresh the lobby entry of table %s", channel_id, exc_info=True)


class CommunityGroup(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="community", description="This server's finished games, ratings, profiles, table directory and sign-ups"
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return refuse_in_dms(
            interaction,
            ANYWHERE,
            "This is about a server's tables: use it there. /community mydata, /community forget and "
            "/community tables work here.",
        )

    @app_commands.command(name="history", description="The server's finished games, newest first, or one game")
    @app_commands.describe(
        game="Only this game",
        member="Only games this member played",
        page="Page number, 1 is the newest",
        id="One game's standings and record, by its number in the list",
    )
    @app_commands.autocomplete(game=_game_choices)
    async def history(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        member: discord.Member | None = None,
        page: Page = 1,
        id: GameNumber | None = None,
    ) -> None:
        community, guild_id, reader = _community(interaction), interaction.guild_id or 0, reader_of(interaction)
        if id is None:
            work = community.history(reader, guild_id, game=game, user_id=member.id if member else None, page=page)
            await answer_private(interaction, work)
            return
        ok, found = await run_refusable(interaction, _finished(interaction, community, id))
        if ok:
            text, data, filename = found
            await answer_file(interaction, text, data, filename, ephemeral=True)

    @app_commands.command(name="leaderboard", description="The server's ratings in a game, best first")
    @app_commands.describe(game="Which game", page="Page number")
    @app_commands.autocomplete(game=_game_choices)
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, page: Page = 1
    ) -> None:
        work = _community(interaction).leaderboard(reader_of(interaction), interaction.guild_id or 0, game, page)
        await answer_private(interaction, work)

    @app_commands.command(
        name="profile", description="A member's games, nations, ratings and reliability (hidden: leave the leaderboards)"
    )
    @app_commands.describe(member="Whose profile (default: yours)", hidden="yes: leave every leaderboard; no: return")
    async def profile(
        self, interaction: discord.Interaction, member: discord.Member | None = None, hidden: bool | None = None
    ) -> None:
        community = _community(interaction)
        if hidden is not None:
            await answer_private(
                interaction, community.set_hidden(interaction.user.id, hidden, member_id=member.id if member else None)
            )
            return
        who = member or interaction.user
        work = community.profile(reader_of(interaction), interaction.guild_id or 0, who.id, who.display_name)
        await answer_private(interaction, work)

    @app_commands.command(name="mydata", description="A file of everything stored about you")
    async def mydata(self, interaction: discord.Interaction) -> None:
        ok, data = await run_refusable(interaction, _community(interaction).mydata(interaction.user.id))
        if ok:
            body = json.dumps(data, indent=1, ensure_ascii=False).encode()
            text = "Everything stored about you: your finished games, ratings, settings and the tables you sit at."
            await answer_file(interaction, text, body, "my-chancellery-data.json", ephemeral=True)

    @app_commands.command(name="forget", description="Remove your name and preferences (type me to confirm)")
    @app_commands.describe(confirm="Type me: your finished games are anonymised, your running seats renamed")
    async def forget(self, interaction: discord.Interaction, confirm: str) -> None:
        # the service checks `confirm` (confirm:me), as for the console
        await answer_private(interaction, _community(interaction).forget(interaction.user.id, confirm=confirm))

    @app_commands.command(
        name="tables", description="Every table of this server you can see (in a DM: of every server you share with me)"
    )
    @app_commands.describe(game="Only this game", open_seat="Only lobbies with a seat free", page="Page number")
    @app_commands.autocomplete(game=_game_choices)
    async def tables(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        open_seat: bool = False,
        page: Page = 1,
    ) -> None:
        ok, shown = await run_refusable(interaction, _directory(interaction, game, open_seat, page))
        if ok:
            text, joinable = shown
            await say(interaction, text, view=join_view(*_join_labels(interaction, joinable)))

    @app_commands.command(name="rated", description="Whether this table's result moves ratings (host, before the start)")
    @app_commands.describe(rated="yes (the default) or no")
    async def rated(self, interaction: discord.Interaction, rated: bool) -> None:
        channel_id = await table_channel_id(interaction)
        work = _community(interaction).set_rated(
            channel_id, interaction.user.id, rated, admin=is_admin(interaction)
        )
        ok, text = await run_refusable(interaction, work)
        if ok:
            await say(interaction, text)
            await _refresh(interaction, channel_id)  # the lobby entry says whether it is rated

    @app_commands.command(
        name="lobby", description="Announce new tables in a channel, or stop (Manage Server)"
    )
    @app_commands.describe(channel="Where new tables with open seats are announced; leave out to stop")
    async def lobby(self, interaction: discord.Interaction, channel: discord.TextChannel | None = None) -> None:
        community, guild_id = _community(interaction), interaction.guild_id or 0
        me = interaction.guild.me if interaction.guild is not None else None
        if channel is not None and me is not None and is_admin(interaction):
            if not channel.permissions_for(me).send_messages:
                await say(interaction, f"I cannot post in {channel.mention}: let me see it and send messages there first.")
                return
        work = community.set_lobby(guild_id, channel.id if channel else None, admin=is_admin(interaction))
        ok, text = await run_refusable(interaction, work)
        if ok:
            await say(interaction, text)
            # the tables waiting for players now: their entries move to the new channel (or go)
            await _refresh(interaction, *await community.open_lobbies(guild_id))

    @app_commands.command(name="watch", description="Be told when a table of a game opens on this server")
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=_game_choices)
    async def watch(self, interaction: discord.Interaction, game: str) -> None:
        await _set_watch(interaction, game, True)

    @app_commands.command(name="unwatch", description="Stop being told when a table of a game opens here")
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=_game_choices)
    async def unwatch(self, interaction: discord.Interaction, game: str) -> None:
        await _set_watch(interaction, game, False)


async def _set_watch(interaction: discord.Interaction, game: str, on: bool) -> None:
    """`/community watch` and `unwatch`: the member's watch of a game on this server."""
    work = _community(interaction).watch(interaction.guild_id or 0, interaction.user.id, game, on)
    await answer_private(interaction, work)
