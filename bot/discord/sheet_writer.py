"""Writing an Origins secret sheet by taps: Phase 4's Political Factors Simultaneous
Placement Sheets (rulebook §4, §6 Phase 4) from the turn notice, without typing
(docs/architecture.md §6, front ends).

Beside the "Hand in your sheets as written" button of the placement notice and of
`/game me`, one button per country the seat plays: "Write Germany's sheet". A tap answers
privately with that sheet as it stands and a select of the embassies where the country
may place, each saying what is written there now ("Serbia ▸ 3 written"). Choosing an
embassy edits the message in place to a select of the amounts the rules allow there (0,
which clears the line, up to the cap per embassy or the PFs still free); choosing an
amount writes it through the service exactly as `/origins place` does, so every rule and
private answer stays the engine's, and answers privately with the sheet as it stands and
the embassy select again. The same select lists "Eliminate in Germany" where the country
has PFs of its own: up to 5 of them, written as `/origins remove` does. "Done" shows the
turn buttons (the hand-in) again.

Taps: one to open the writer, then two per sheet line (the embassy or elimination, then
the amount); the next line is again two taps, from the answer to the last one.

Everything is private: the buttons go only under the seat's own notice or `/game me`, and
every answer is ephemeral. Every item is a `DynamicItem` keyed by the table's channel, the
country and the embassy, so it works after a restart; every tap re-reads the table, and a
tap once the sheets are handed in or Phase 4 is over is answered with the current options.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.service.tables import CHOICE_EXPIRED, SheetNow, TableService
from engine.core.words import counted

from .host import host
from .interact import run_refusable, say, selected

__all__ = ["WriteSheet", "SheetEmbassy", "SheetAmount", "SheetDone", "add_sheet_buttons", "writer_view"]

WRITE_ID = "chan:sheet:{channel_id}:{country}"
EMBASSY_ID = "chan:sheet-at:{channel_id}:{country}"
AMOUNT_ID = "chan:sheet-n:{channel_id}:{country}:{embassy}"
DONE_ID = "chan:sheet-done:{channel_id}"
SEP = " ▸ "

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- words and views


def sheet_text(sheet: SheetNow) -> str:
    """ "Germany's sheet: Serbia 3, Romania 2. 7 PFs left to write, at most 5 in each
    embassy this turn." """
    names = {**sheet.embassies, sheet.country: sheet.name}
    lines = ", ".join(
        [f"{names.get(e, e)} {n}" for e, n in sheet.written.items()]
        + [f"remove {n} in {names.get(e, e)}" for e, n in sheet.removed.items()]
    )
    return f"{sheet.name}'s sheet: {lines or 'nothing written yet'}. {_left(sheet)}"


def _left(sheet: SheetNow) -> str:
    return f"{counted(max(sheet.left, 0), 'PF')} left to write, at most {sheet.cap} in each embassy this turn."


def most(sheet: SheetNow, line: str) -> int:
    """The most PFs the rules allow on a line: in an embassy ("SER"), the cap or what is
    free plus what is written there now (writing replaces it); eliminated ("-SER"), up to
    5 of the country's own PFs there."""
    if line.startswith("-"):
        return sheet.removable.get(line[1:], 0)
    return max(0, min(sheet.cap, sheet.left + sheet.written.get(line, 0)))


def _where(sheet: SheetNow, line: str) -> str:
    """The embassy's name of a line ("-GER": Germany, the country's own embassy too)."""
    code = line.lstrip("-")
    return sheet.name if code == sheet.country else sheet.embassies.get(code, code)


def _lines(sheet: SheetNow) -> list[str]:
    """The lines the sheet may hold: "SER" places in Serbia, "-SER" eliminates there."""
    return list(sheet.embassies) + [f"-{e}" for e in sheet.removable]


def _embassy_select(channel_id: int, sheet: SheetNow) -> SheetEmbassy:
    options = []
    for line in _lines(sheet)[:25]:
        where, code = _where(sheet, line), line.lstrip("-")
        if line.startswith("-"):
            n, label = sheet.removed.get(code, 0), f"Eliminate in {where}"
        else:
            n, label = sheet.written.get(code, 0), where
        options.append(discord.SelectOption(label=f"{label}{SEP}{n} written" if n else label, value=line))
    verbs = "place or eliminate" if sheet.removable else "place"
    return SheetEmbassy(channel_id, sheet.country, options, f"Where does {sheet.name} {verbs} PFs…")


def writer_view(channel_id: int, sheet: SheetNow, embassy: str | None = None) -> discord.ui.View:
    """The embassy select, with the amount select for `embassy` above it once one is
    chosen, and Done."""
    view = discord.ui.View(timeout=None)
    if embassy is not None:
        where, now = _where(sheet, embassy), {**sheet.written, **{f"-{e}": n for e, n in sheet.removed.items()}}
        options = [
            discord.SelectOption(
                label=f"0 (clear {where})" if n == 0 else counted(n, "PF"),
                value=str(n),
                default=n == now.get(embassy, -1),
            )
            for n in range(most(sheet, embassy) + 1)
        ]
        view.add_item(SheetAmount(channel_id, sheet.country, embassy, options, _question(sheet, embassy)[:150]))
    view.add_item(_embassy_select(channel_id, sheet))
    view.add_item(SheetDone(channel_id))
    return view


async def add_sheet_buttons(
    service: TableService,
    channel_id: int,
    user_id: int,
    view: discord.ui.View | None,
    sheets: list[SheetNow] | None = None,
) -> discord.ui.View | None:
    """The turn buttons `view` with one "Write Germany's sheet" button per country whose
    sheet the member may still write (none outside Origins' Phase 4); `sheets`: those
    sheets where the caller has them, else they are read."""
    if view is None:
        return None
    if sheets is None:
        try:
            sheets = await service.own_sheets(channel_id, user_id)
        except Exception:  # a refusal or a gone table: the turn buttons alone, never an error
            return view
    for sheet in sheets:
        view.add_item(WriteSheet(channel_id, sheet.country, f"Write {sheet.name}'s sheet"))
    return view


async def _sheet(interaction: discord.Interaction, channel_id: int, country: str) -> SheetNow | None:
    """The caller's sheet of `country` as it stands now, or None once it may no longer be
    written (they were told so, with their current options)."""
    bot = host(interaction)
    try:
        sheets = await bot.service.own_sheets(channel_id, interaction.user.id)
    except Exception:  # a refusal (not seated) or a gone table: the usual expired answer
        sheets = []
    found = next((s for s in sheets if s.country == country), None)
    if found is None:
        await say(interaction, CHOICE_EXPIRED, view=await bot.delivery.turn_buttons(channel_id, interaction.user.id))
    return found


def _question(sheet: SheetNow, line: str) -> str:
    if line.startswith("-"):
        return f"How many of {sheet.name}'s PFs in {_where(sheet, line)} does it eliminate?"
    return f"How many new PFs does {sheet.name} place in {_where(sheet, line)}?"


# ---------------------------------------------------------------------- the items


class WriteSheet(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chan:sheet:(?P<channel_id>[0-9]+):(?P<country>[A-Z]+)",
):
    """ "Write Germany's sheet": the sheet as it stands and the embassy select, privately."""

    def __init__(self, channel_id: int, country: str, label: str = "Write the sheet") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=WRITE_ID.format(channel_id=channel_id, country=country),
            )
        )
        self.channel_id, self.country = channel_id, country

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WriteSheet:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["channel_id"]), match["country"], label or "Write the sheet")

    async def callback(self, interaction: discord.Interaction) -> None:
        sheet = await _sheet(interaction, self.channel_id, self.country)
        if sheet is not None:
            await say(interaction, sheet_text(sheet), view=writer_view(self.channel_id, sheet))


class SheetEmbassy(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chan:sheet-at:(?P<channel_id>[0-9]+):(?P<country>[A-Z]+)",
):
    """The embassies where the country may place; choosing one shows its amounts in place."""

    def __init__(
        self,
        channel_id: int,
        country: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=EMBASSY_ID.format(channel_id=channel_id, country=country),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…", value="…")],
            )
        )
        self.channel_id, self.country = channel_id, country

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SheetEmbassy:
        return cls(int(match["channel_id"]), match["country"])

    async def callback(self, interaction: discord.Interaction) -> None:
        sheet = await _sheet(interaction, self.channel_id, self.country)
        if sheet is None:
            return
        line = selected(interaction)
        if line not in _lines(sheet):  # not a line this country may write: the sheet again
            await say(interaction, sheet_text(sheet), view=writer_view(self.channel_id, sheet))
            return
        text = f"{sheet_text(sheet)}\n{_question(sheet, line)}"
        embassy = line
        await interaction.response.edit_message(content=text, view=writer_view(self.channel_id, sheet, embassy))


class SheetAmount(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chan:sheet-n:(?P<channel_id>[0-9]+):(?P<country>[A-Z]+):(?P<embassy>-?[A-Z]+)",
):
    """The amounts allowed on one line (placed in an embassy, or "-SER" eliminated there):
    choosing one writes it as `/origins place` (or `/origins remove`) does and answers with the sheet and the embassy select again."""

    def __init__(
        self,
        channel_id: int,
        country: str,
        embassy: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=AMOUNT_ID.format(channel_id=channel_id, country=country, embassy=embassy),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="0", value="0")],
            )
        )
        self.channel_id, self.country, self.embassy = channel_id, country, embassy

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SheetAmount:
        return cls(int(match["channel_id"]), match["country"], match["embassy"])

    async def callback(self, interaction: discord.Interaction) -> None:
        amount = selected(interaction)
        if not amount.isdigit() or await _sheet(interaction, self.channel_id, self.country) is None:
            return
        bot, user_id = host(interaction), interaction.user.id
        command = "remove" if self.embassy.startswith("-") else "place"
        options = {"embassy": self.embassy.lstrip("-"), "amount": int(amount), "country": self.country}
        work = bot.service.command(self.channel_id, user_id, command, options)
        ok, outbox = await run_refusable(interaction, work)
        if not ok:  # the engine's refusal was said; the selects above still work
            return
        bot.delivery.seen(outbox.channel_id, user_id)
        reply = bot.delivery.private_reply(outbox, user_id)
        sheet = next((s for s in await bot.service.own_sheets(self.channel_id, user_id) if s.country == self.country), None)
        if sheet is None:
            await say(interaction, reply, view=await bot.delivery.turn_buttons(self.channel_id, user_id))
        else:
            await say(interaction, f"{reply}\n{_left(sheet)}", view=writer_view(self.channel_id, sheet))
        try:
            await bot.delivery.deliver(outbox, caller_id=user_id)
        except Exception:  # the line is saved; only its announcement failed: no apology to the player
            log.exception("could not deliver the outbox of table %s", outbox.channel_id)
        bot.poke()


class SheetDone(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chan:sheet-done:(?P<channel_id>[0-9]+)",
):
    """Done writing: the message shows the turn buttons (the hand-in) in place of the selects."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Done", style=discord.ButtonStyle.primary, custom_id=DONE_ID.format(channel_id=channel_id)
            )
        )
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SheetDone:
        return cls(int(match["channel_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = await host(interaction).delivery.turn_buttons(self.channel_id, interaction.user.id)
        await interaction.response.edit_message(view=view)
