"""Where a command acts and who gives it, read from the interaction.

Shared by every command module (table_commands, long_commands, play_commands), so none
of them imports another for these.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import discord
from discord import app_commands

from bot.service.audience import Reader

from .host import host

__all__ = ["table_channel_id", "is_admin", "may_open", "reader_of"]


async def table_channel_id(interaction: discord.Interaction) -> int:
    """The table's channel: a command typed in a table's phase thread acts on the table."""
    channel = interaction.channel
    channel_id = interaction.channel_id or 0
    parent = getattr(channel, "parent_id", None)
    if isinstance(channel, discord.Thread) and parent is not None:
        if await host(interaction).service.table_info(channel_id) is None:
            return parent
    return channel_id


def may_open(guild: discord.Guild, member: discord.Member) -> Callable[[int], bool]:
    """Whether the member may open a channel of the server, by Discord's permissions now (a
    thread: its parent's rule; a channel the bot cannot find, deleted, nobody).
    Every answer about the server's games asks this through a `Reader`
    (bot/service/audience.py)."""

    def visible(channel_id: int) -> bool:
        channel = guild.get_channel_or_thread(channel_id)
        return channel is not None and channel.permissions_for(member).view_channel

    return visible


def reader_of(interaction: discord.Interaction) -> Reader:
    """The caller as a reader of this server's games; outside a server, one who opens nothing."""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return Reader(interaction.user.id, lambda channel_id: False)
    return Reader(member.id, may_open(guild, member))


def is_admin(interaction: discord.Interaction) -> bool:
    """The caller may manage the server: a host's powers at every table in it."""
    return bool(interaction.guild_id) and interaction.permissions.manage_guild


def refuse_in_dms(interaction: discord.Interaction, anywhere: Collection[str], why: str) -> bool:
    """A group's `interaction_check`: a command not in `anywhere` is refused in a DM, with
    `why` (Discord shows it to the caller); otherwise True."""
    command = interaction.command
    if interaction.guild_id is None and (command is None or command.name not in anywhere):
        raise app_commands.NoPrivateMessage(why)
    return True

