"""The persistent buttons: "Show my hand / orders" and "Full status" on a table's status
message, the log's pages, and turn buttons.

Each is a `DynamicItem` keyed by the channel (the table): it keeps answering after a
restart because `setup_hook` registers the class, and every click re-reads the database.
The seat is the clicking user's own, never carried in the button, so one button on the
shared status message serves every player. "Full status" shows anyone, privately, the
whole public status the card leaves out for room.

The turn buttons and menus live in choices.py and are named here too, where the bot and
its delivery find them (`own_choices`, called by delivery.py). The buttons answer through
interact.py, which gets the caller's turn buttons back from the bot's delivery: so these
modules import interact and not the other way round.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.render.text import MESSAGE_LIMIT

from .choices import ACT_ID, PICK_ID, ActBack, ActChoice, ActMenu, ActPick, choices_view, own_choices
from .host import host
from .interact import answer_private

__all__ = [
    "ShowMine",
    "FullStatus",
    "LogPage",
    "ActChoice",
    "ActPick",
    "ActMenu",
    "ActBack",
    "status_view",
    "log_view",
    "choices_view",
    "own_choices",
    "CUSTOM_ID",
    "FULL_ID",
    "LOG_ID",
    "ACT_ID",
    "PICK_ID",
]

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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowMine:
        return cls(int(match["channel_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = host(interaction).service
        await answer_private(
            interaction, service.me(self.channel_id, interaction.user.id), own_view_of=self.channel_id
        )


FULL_ID = "chan:full:{channel_id}"
FULL_LABEL = "Full status"


class FullStatus(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"chan:full:(?P<channel_id>[0-9]+)"
):
    def __init__(self, channel_id: int, label: str = FULL_LABEL) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=FULL_ID.format(channel_id=channel_id),
            )
        )
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FullStatus:
        return cls(int(match["channel_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_private(interaction, host(interaction).service.status(self.channel_id, interaction.user.id))


def status_view(channel_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShowMine(channel_id))
    view.add_item(FullStatus(channel_id))
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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LogPage:
        return cls(int(match["channel_id"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        text = await host(interaction).service.history.log(self.channel_id, self.page, interaction.user.id)
        await interaction.response.edit_message(
            content=text[:MESSAGE_LIMIT], view=log_view(self.channel_id, text)
        )


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
