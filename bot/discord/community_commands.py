"""`/community …`: what ties a server's tables together (bot/service/community.py).

The finished games (`history`), the ratings (`leaderboard`), a member's record
(`profile`), the data kept about them (`mydata`, `forget`), the table directory
(`tables`) and a table's rated mark (`rated`). Its own group beside `/game`, which
already holds the 25 verbs Discord allows a group.

Who may see which channel is Discord's to say: the directory and the profile list only
tables whose channel the caller may view (`_viewer`), so no private table leaks into
another member's answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import discord
from discord import app_commands

from bot.service.community import Community, community_of

from .context import is_admin, refuse_in_dms, table_channel_id
from .host import host
from .interact import answer_file, answer_private, run_refusable, say
from .table_commands import _game_choices

__all__ = ["CommunityGroup"]

ANYWHERE = frozenset({"mydata", "forget"})  # about the caller alone: they work in a DM too


def _community(interaction: discord.Interaction) -> Community:
    return community_of(host(interaction).service)


def _viewer(interaction: discord.Interaction) -> Callable[[int], bool]:
    """Whether the caller may view a channel of this server (a thread: its parent's rule)."""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return lambda channel_id: False

    def visible(channel_id: int) -> bool:
        channel = guild.get_channel_or_thread(channel_id)
        return channel is not None and channel.permissions_for(member).view_channel

    return visible


class CommunityGroup(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="community", description="This server's finished games, ratings, profiles and table directory"
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return refuse_in_dms(
            interaction,
            ANYWHERE,
            "This is about a server's tables: use it there. /community mydata and /community forget work here.",
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
        page: app_commands.Range[int, 1] = 1,
        id: app_commands.Range[int, 1] | None = None,
    ) -> None:
        community, guild_id = _community(interaction), interaction.guild_id or 0
        if id is None:
            work = community.history(guild_id, game=game, user_id=member.id if member else None, page=page)
            await answer_private(interaction, work)
            return
        ok, found = await run_refusable(interaction, community.finished(guild_id, id))
        if ok:
            text, record = found
            data = json.dumps(record, indent=1).encode()
            await answer_file(interaction, text, data, f"finished-game-{id}.json", ephemeral=True)

    @app_commands.command(name="leaderboard", description="The server's ratings in a game, best first")
    @app_commands.describe(game="Which game", page="Page number")
    @app_commands.autocomplete(game=_game_choices)
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, page: app_commands.Range[int, 1] = 1
    ) -> None:
        await answer_private(interaction, _community(interaction).leaderboard(interaction.guild_id or 0, game, page))

    @app_commands.command(
        name="profile", description="A member's games, nations, ratings and reliability (hidden: leave the leaderboards)"
    )
    @app_commands.describe(member="Whose profile (default: yours)", hidden="yes: leave every leaderboard; no: return")
    async def profile(
        self, interaction: discord.Interaction, member: discord.Member | None = None, hidden: bool | None = None
    ) -> None:
        community = _community(interaction)
        if hidden is not None:
            if member is not None and member.id != interaction.user.id:
                await say(interaction, "Only your own profile can be hidden or shown.")
                return
            await answer_private(interaction, community.set_hidden(interaction.user.id, hidden))
            return
        who = member or interaction.user
        work = community.profile(interaction.guild_id or 0, who.id, who.display_name, _viewer(interaction))
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
        if confirm.strip().casefold() != "me":
            await say(interaction, "Nothing was removed. To be forgotten, type /community forget confirm:me.")
            return
        await answer_private(interaction, _community(interaction).forget(interaction.user.id))

    @app_commands.command(name="tables", description="Every table of this server you can see, by game and status")
    @app_commands.describe(game="Only this game", open_seat="Only lobbies with a seat free", page="Page number")
    @app_commands.autocomplete(game=_game_choices)
    async def tables(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        open_seat: bool = False,
        page: app_commands.Range[int, 1] = 1,
    ) -> None:
        work = _community(interaction).directory(
            interaction.guild_id or 0, game=game, open_seat=open_seat, visible=_viewer(interaction), page=page
        )
        await answer_private(interaction, work)

    @app_commands.command(name="rated", description="Whether this table's result moves ratings (host, before the start)")
    @app_commands.describe(rated="yes (the default) or no")
    async def rated(self, interaction: discord.Interaction, rated: bool) -> None:
        channel_id = await table_channel_id(interaction)
        work = _community(interaction).set_rated(
            channel_id, interaction.user.id, rated, admin=is_admin(interaction)
        )
        await answer_private(interaction, work)
