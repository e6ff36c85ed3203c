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

__all__ = ["ShowMine", "LogPage", "status_view", "log_view", "CUSTOM_ID", "LOG_ID"]

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


# ---------------------------------------------------------------------- the log's pages

LOG_ID = "chan:log:{channel_id}:{page}"
_PAGE = re.compile(r"page (\d+) of (\d+)")


class LogPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chan:log:(?P<channel_id>[0-9]+):(?P<page>[0-9]+)",
):
    """Prev / Next under a `/game log` answer: each button carries the page it shows, so
    it keeps working after a restart and every click re-reads the log."""

    def __init__(self, channel_id: int, page: int, label: str = "Next", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=LOG_ID.format(channel_id=channel_id, page=page),
                disabled=disabled,
            )
        )
        self.channel_id = channel_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> LogPage:
        return cls(int(match["channel_id"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = interaction.client.service  # type: ignore[attr-defined]
        text = await service.log(self.channel_id, self.page)
        await interaction.response.edit_message(content=text[:2000], view=log_view(self.channel_id, text))


def log_view(channel_id: int, text: str) -> discord.ui.View | discord.utils.MISSING:  # type: ignore[valid-type]
    """Page 1 is the newest: "Older" goes up a page number, "Newer" down. Without the
    service's "page N of M" (an empty log) there is nothing to page."""
    found = _PAGE.search(text)
    if found is None:
        return discord.utils.MISSING
    page, pages = int(found[1]), int(found[2])
    view = discord.ui.View(timeout=None)
    # Both ids must differ even when disabled; 0 and pages+1 are never shown pages.
    view.add_item(LogPage(channel_id, page + 1, "Older", disabled=page >= pages))
    view.add_item(LogPage(channel_id, page - 1, "Newer", disabled=page <= 1))
    return view
