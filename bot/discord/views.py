"""The persistent "Show my hand / orders" button on a table's status message.

A `DynamicItem` keyed by the channel (the table): it keeps answering after a restart
because `setup_hook` registers the class, and every click re-reads the caller's view from
the database. The seat is the clicking user's own, never carried in the button, so one
button on the shared status message serves every player.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from .interact import answer_private

__all__ = ["ShowMine", "status_view", "CUSTOM_ID"]

CUSTOM_ID = "chan:me:{channel_id}"
LABEL = "Show my hand / orders"


class ShowMine(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"chan:me:(?P<channel_id>[0-9]+)"):
    def __init__(self, channel_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=LABEL,
                style=discord.ButtonStyle.secondary,
                custom_id=CUSTOM_ID.format(channel_id=channel_id),
            )
        )
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ShowMine:
        return cls(int(match["channel_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = interaction.client.service  # type: ignore[attr-defined]
        await answer_private(
            interaction, service.me(self.channel_id, interaction.user.id), own_view_of=self.channel_id
        )


def status_view(channel_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShowMine(channel_id))
    return view
