"""The persistent buttons: "Show my hand / orders" and "Full status" on a table's status
message, the log's pages, and turn buttons.

Each is a `DynamicItem` keyed by the channel (the table): it keeps answering after a
restart because `setup_hook` registers the class, and every click re-reads the database.
The seat is the clicking user's own, never carried in the button, so one button on the
shared status message serves every player. "Full status" shows anyone, privately, the
whole public status the card leaves out for room.

The buttons answer through interact.py, which gets the caller's turn buttons back from
the bot's delivery (`own_choices` here, called by delivery.py): so this module imports
interact and not the other way round.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.render.text import MESSAGE_LIMIT
from bot.service.tables import ChoiceExpired, TableService

from .host import host
from .interact import answer_outbox, answer_private

if TYPE_CHECKING:
    from discord.types.interactions import SelectMessageComponentInteractionData

__all__ = [
    "ShowMine",
    "FullStatus",
    "LogPage",
    "ActChoice",
    "ActPick",
    "status_view",
    "log_view",
    "choices_view",
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


# ---------------------------------------------------------------------- turn buttons

ACT_ID = "chan:act:{channel_id}:{step}:{index}:{key}"
PICK_ID = "chan:pick:{channel_id}:{step}:{part}"
MAX_BUTTONS = 20  # beyond this a turn's choices go in select menus
MAX_OPTIONS = 25  # Discord: options per select menu
MAX_ROWS = 5  # Discord: rows per message, one select menu each


async def _act(
    interaction: discord.Interaction, channel_id: int, step: int, index: int, key: str | None
) -> None:
    """Play the chosen legal action. A choice that is no longer legal for the caller is
    refused with their current options; the service checks seat and turn under its lock.
    Other members' moves do not expire it: the key names the choice."""
    service = host(interaction).service

    async def fresh(exc: BaseException) -> discord.ui.View | None:
        if not isinstance(exc, ChoiceExpired):
            return None
        return await own_choices(service, channel_id, interaction.user.id)

    await answer_outbox(
        interaction, service.act_choice(channel_id, interaction.user.id, step, index, key), on_refusal=fresh
    )


class ActChoice(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # older buttons carry no key: they still work at their own step
    template=r"chan:act:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<index>[0-9]+)(?::(?P<key>[0-9a-f]+))?",
):
    """One legal action of the player who owes, by its index in `legal_actions` at `step`
    and its key (`TableService.choices`). Shown only privately (their ephemeral reply or
    DM): it may name cards in their Hand."""

    def __init__(
        self, channel_id: int, step: int, index: int, label: str = "Act", key: str | None = None
    ) -> None:
        custom_id = ACT_ID.format(channel_id=channel_id, step=step, index=index, key=key)
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.primary,
                custom_id=custom_id if key else custom_id.rsplit(":", 1)[0],
            )
        )
        self.channel_id, self.step, self.index, self.key = channel_id, step, index, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActChoice:
        label = item.label if isinstance(item, discord.ui.Button) else None  # the clicked button's
        return cls(int(match["channel_id"]), int(match["step"]), int(match["index"]), label or "Act", match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _act(interaction, self.channel_id, self.step, self.index, self.key)


class ActPick(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chan:pick:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<part>[0-9]+)",
):
    """A select menu of up to 25 legal actions, for turns with too many for buttons. An
    option's value is "index:key" (or the index alone, on an older menu)."""

    def __init__(
        self,
        channel_id: int,
        step: int,
        part: int,
        options: list[tuple[int, str, str]] | None = None,
        details: dict[int, str] | None = None,
    ) -> None:
        details = details or {}
        super().__init__(
            discord.ui.Select(
                custom_id=PICK_ID.format(channel_id=channel_id, step=step, part=part),
                placeholder="Choose your action…" if part == 0 else "More choices…",
                options=[
                    discord.SelectOption(
                        label=label[:100], value=f"{i}:{key}", description=_line(details.get(i))
                    )
                    for i, label, key in options or []
                ]
                or [discord.SelectOption(label="…", value="0")],
            )
        )
        self.channel_id, self.step = channel_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActPick:
        return cls(int(match["channel_id"]), int(match["step"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # a select's own callback, so a select's data (the type covers every kind of interaction)
        data = cast("SelectMessageComponentInteractionData", interaction.data or {})
        values = data.get("values") or []
        if not values:
            return
        index, _, key = str(values[0]).partition(":")
        await _act(interaction, self.channel_id, self.step, int(index), key or None)


def _line(text: str | None) -> str | None:
    """A menu option's description: at most Discord's 100 characters, cut after a word."""
    if not text:
        return None
    return text if len(text) <= 100 else text[:99].rsplit(" ", 1)[0] + "…"


def choices_view(
    channel_id: int, step: int, choices: list[tuple[int, str, str]], details: dict[int, str] | None = None
) -> discord.ui.View | None:
    """Buttons for a short list of choices, select menus for a long one; None for none.
    Beyond five menus (125 choices) the rest stay with the slash commands. `details` (by
    index) is the line under each menu option: the card's text, an attack's odds."""
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    if len(choices) <= MAX_BUTTONS:
        for index, label, key in choices:
            view.add_item(ActChoice(channel_id, step, index, label, key))
        return view
    for part in range(min(MAX_ROWS, -(-len(choices) // MAX_OPTIONS))):
        shown = choices[part * MAX_OPTIONS : (part + 1) * MAX_OPTIONS]
        view.add_item(ActPick(channel_id, step, part, shown, details))
    return view


async def own_choices(service: TableService, channel_id: int, user_id: int) -> discord.ui.View | None:
    """The member's current turn buttons, or None (no seat, nothing owed, or no list)."""
    try:
        step, choices = await service.choices(channel_id, user_id)
        # buttons have no room for more; menus show each option's card text or odds
        details = (
            await service.choice_details(channel_id, user_id, step) if len(choices) > MAX_BUTTONS else {}
        )
    except Exception:  # a refusal (not seated) or a gone table: no buttons, never an error
        return None
    return choices_view(channel_id, step, choices, details)
