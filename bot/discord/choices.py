"""Turn buttons and menus: a player's legal actions under their turn notice (DM) and in
`/game me`, every one at most two taps away (docs/architecture.md §6, front ends).
Buttons for a few choices, one grouped menu for up to 25, up to five menus side by side
for up to 125, a menu of groups past that: which choices go where, and in what words, is
choice_layout.py's (pure); here are the discord.ui items, their callbacks and the views.

Every item is a `DynamicItem` keyed by the channel and the step: it keeps working after a
restart, and every click re-reads the table. An option plays "index:key" (the service's
`act_choice`); a group's option carries its place in the tree and a short hash of its
name, so a group that is no longer there is answered with the current choices. The seat
is always the clicking member's own.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.service.menus import CallerMenu
from bot.service.tables import CHOICE_EXPIRED, ChoiceExpired, TableService, TurnChoice

from .choice_layout import (
    MAX_BUTTONS,
    MAX_OPTIONS,
    MAX_ROWS,
    Branch,
    Option,
    arrange,
    branch_placeholder,
    by_group,
    find,
    group_name,
    menu_options,
    menu_placeholder,
    option_label,
    pack,
    pick_options,
    placeholder,
)
from .host import host
from .interact import answer_outbox, say, selected
from .sheet_writer import add_sheet_buttons

__all__ = [
    "ActChoice",
    "ActPick",
    "ActMenu",
    "ActBack",
    "Branch",
    "arrange",
    "pack",
    "menu_placeholder",
    "choices_view",
    "branch_view",
    "option_label",
    "own_choices",
    "ACT_ID",
    "PICK_ID",
    "MENU_ID",
    "BACK_ID",
    "MAX_ROWS",
]

ACT_ID = "chan:act:{channel_id}:{step}:{index}:{key}"
PICK_ID = "chan:pick:{channel_id}:{step}:{part}"
MENU_ID = "chan:menu:{channel_id}:{step}:{path}"
BACK_ID = "chan:back:{channel_id}:{step}:{path}"


# ---------------------------------------------------------------------- the items


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
    """One of the menus side by side of a decision of 26 to 125 choices (`part`: its place
    among them): choosing an option plays it. Its value is "index:key" (the index alone in
    older notices)."""

    def __init__(
        self,
        channel_id: int,
        step: int,
        part: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=PICK_ID.format(channel_id=channel_id, step=step, part=part),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…", value="0")],
            )
        )
        self.channel_id, self.step = channel_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActPick:
        return cls(int(match["channel_id"]), int(match["step"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = selected(interaction)
        if value:
            index, _, key = value.partition(":")
            await _act(interaction, self.channel_id, self.step, int(index), key or None)


class ActMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chan:menu:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<path>[0-9.]*)",
):
    """A select of choices and groups at `path` in the tree ("" the first menu). A choice's
    value is "index:key"; a group's "g:path:tag", which shows that group's menu."""

    def __init__(
        self,
        channel_id: int,
        step: int,
        path: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=MENU_ID.format(channel_id=channel_id, step=step, path=path),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…", value="0")],
            )
        )
        self.channel_id, self.step = channel_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActMenu:
        return cls(int(match["channel_id"]), int(match["step"]), match["path"])

    async def callback(self, interaction: discord.Interaction) -> None:
        value = selected(interaction)
        if value.startswith("g:"):
            _, path, tag = value.split(":", 2)
            await _show(interaction, self.channel_id, path, tag)
        elif value:
            index, _, key = value.partition(":")
            await _act(interaction, self.channel_id, self.step, int(index), key or None)


class ActBack(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chan:back:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<path>[0-9.]*)",
):
    """Back from a group's menu to the menu at `path` (the first, when empty)."""

    def __init__(self, channel_id: int, step: int, path: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label="Back",
                style=discord.ButtonStyle.secondary,
                custom_id=BACK_ID.format(channel_id=channel_id, step=step, path=path),
            )
        )
        self.channel_id, self.path = channel_id, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActBack:
        return cls(int(match["channel_id"]), int(match["step"]), match["path"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _show(interaction, self.channel_id, self.path, None)


async def _show(interaction: discord.Interaction, channel_id: int, path: str, tag: str | None) -> None:
    """Edit the message in place to the menu at `path` of the caller's current choices;
    a group that is gone (`tag` no longer matches) is answered with the current choices."""
    service = host(interaction).service
    try:
        step, choices = await service.turn_menu(channel_id, interaction.user.id)
    except Exception:  # a refusal (not seated) or a gone table: the usual expired answer
        step, choices = 0, []
    branch = find(arrange(choices), path) if len(choices) > MAX_OPTIONS and path else None
    if path and (branch is None or (tag is not None and branch.tag() != tag)):
        await say(interaction, CHOICE_EXPIRED, view=choices_view(channel_id, step, choices))
        return
    kept = _kept(interaction)  # /game me keeps its Full status button, in a row of its own
    view = branch_view(channel_id, step, path, branch) if branch is not None else None
    view = view or choices_view(channel_id, step, choices, MAX_ROWS - (1 if kept else 0))
    for button in kept:
        view = view or discord.ui.View(timeout=None)
        view.add_item(button)
    await interaction.response.edit_message(view=view)


def _kept(interaction: discord.Interaction) -> list[discord.ui.Button[Any]]:
    """The message's Full status button, as it was: its registered item (views.py)
    answers it by its id, as on any message."""
    rows = interaction.message.components if interaction.message is not None else []
    return [
        discord.ui.Button(label=c.label, style=c.style, custom_id=c.custom_id)
        for row in rows
        for c in getattr(row, "children", [])
        if isinstance(c, discord.components.Button) and (c.custom_id or "").startswith("chan:full:")
    ]


# ---------------------------------------------------------------------- the views


def _select_options(options: list[Option]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=o.label, value=o.value, description=o.description) for o in options]


def choices_view(
    channel_id: int, step: int, choices: list[TurnChoice], rows: int = MAX_ROWS
) -> discord.ui.View | None:
    """The first view of a decision: buttons for a few choices, one grouped menu for up
    to 25, up to `rows` menus side by side for more, the menu of groups beyond; None for
    none. `rows`: the message's rows left for the choices (the rest hold other buttons)."""
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    if len(choices) <= MAX_BUTTONS:
        for c in choices:
            view.add_item(ActChoice(channel_id, step, c.index, c.label, c.key))
        return view
    names = [group_name(c) for c in choices]
    menus = pack(choices, rows) if len(choices) > MAX_OPTIONS else None
    if len(choices) <= MAX_OPTIONS:
        grouped = len(set(names)) > 1
        options = _select_options(menu_options(list(choices), "", grouped))
        view.add_item(ActMenu(channel_id, step, "", options, placeholder(names)))
    elif menus is not None:
        groups = {group_name(g[0]): g for g in by_group(choices)}
        for part, menu in enumerate(menus):
            options = _select_options(pick_options(menu, groups))
            view.add_item(ActPick(channel_id, step, part, options, menu_placeholder(menu, groups)))
    else:
        options = _select_options(menu_options(arrange(choices), "", False))
        view.add_item(ActMenu(channel_id, step, "", options, placeholder(names)))
    return view


def branch_view(channel_id: int, step: int, path: str, branch: Branch) -> discord.ui.View:
    """A group's own menu, its options without the group's words, and Back."""
    view = discord.ui.View(timeout=None)
    options = _select_options(menu_options(list(branch.entries), path, False, within=branch.name))
    view.add_item(ActMenu(channel_id, step, path, options, branch_placeholder(branch)))
    view.add_item(ActBack(channel_id, step, path.rpartition(".")[0]))
    return view


async def own_choices(
    service: TableService, channel_id: int, user_id: int, spare_rows: int = 0, menu: CallerMenu | None = None
) -> discord.ui.View | None:
    """The member's current turn buttons, or None (no seat, nothing owed, or no list),
    leaving `spare_rows` of the message's rows free (`/game me`'s Full status). `menu`: what
    their action's outbox says they may do next (read in the action's lock); without it,
    the table is read."""
    if menu is not None:
        step, choices, sheets_now = menu.step, menu.choices, menu.sheets
    else:
        try:
            step, choices = await service.turn_menu(channel_id, user_id)
        except Exception:  # a refusal (not seated) or a gone table: no buttons, never an error
            return None
        sheets_now = None
    if len(choices) <= MAX_BUTTONS:  # the sheet buttons share the turn buttons' rows
        return await add_sheet_buttons(service, channel_id, user_id, choices_view(channel_id, step, choices), sheets_now)
    # Origins' Phase 4: a "Write Germany's sheet" button per country beside the hand-in,
    # in rows of their own below the menus
    sheets = await add_sheet_buttons(service, channel_id, user_id, discord.ui.View(timeout=None), sheets_now)
    extra = list(sheets.children) if sheets is not None else []
    taken = -(-len(extra) // MAX_BUTTONS)  # rows of five buttons
    view = choices_view(channel_id, step, choices, MAX_ROWS - spare_rows - taken)
    if view is not None:
        for item in extra:
            view.add_item(item)
    return view
