"""Where a command acts and who gives it, read from the interaction.

Shared by every command module (table_commands, long_commands, play_commands), so none
of them imports another for these.
"""

from __future__ import annotations

from collections.abc import Collection

import discord
from discord import app_commands

from .host import host

__all__ = ["table_channel_id", "is_admin"]


async def table_channel_id(interaction: discord.Interaction) -> int:
    """The table's channel: a command typed in a table's phase thread acts on the table."""
    channel = interaction.channel
    channel_id = interaction.channel_id or 0
    parent = getattr(channel, "parent_id", None)
    if isinstance(channel, discord.Thread) and parent is not None:
        if await host(interaction).service.table_info(channel_id) is None:
            return parent
    return channel_id


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

