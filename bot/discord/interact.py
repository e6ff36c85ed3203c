"""Answering an interaction: within Discord's 3-second limit, privately, with clear errors.

The work starts at once; if it is done within `DEFER_AFTER` seconds the answer is the
interaction's one response, otherwise the interaction is deferred first and answered by a
follow-up. One call instead of two on the common, fast path keeps within the Discord API
budget of about 1.5 calls per player action.

The buttons (views.py) answer through this module, and its answers carry the caller's
turn buttons: so that the import goes one way, the buttons come from the bot's delivery,
reached like the service through `host.host(interaction)`, never by importing the bot.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.render.pictures import Picture
from bot.render.rich import Text
from bot.render.text import split_message
from bot.service.outbox import Outbox
from bot.service.saved import track_saves
from bot.service.tables import TableError
from engine.core.errors import GameError

from .host import host
from .markup import markup

if TYPE_CHECKING:
    from discord.types.interactions import SelectMessageComponentInteractionData

__all__ = [
    "answer_private",
    "answer_outbox",
    "answer_file",
    "picture_file",
    "run_refusable",
    "say",
    "REFUSALS",
    "DEFER_AFTER",
    "APOLOGY",
    "APOLOGY_SAVED",
    "APOLOGY_UNKNOWN",
]

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0  # seconds; Discord drops an interaction not answered within 3
APOLOGY = "Sorry, something went wrong on my side. The table is unchanged; please try again."
# The apology must be true: these when the table was saved, or may have been.
APOLOGY_SAVED = (
    "Sorry, something went wrong on my side after your action was saved: it stands, but the "
    "table may not have been told everything. /game status shows where the game is."
)
APOLOGY_UNKNOWN = "Sorry, something went wrong on my side. /game status shows whether anything changed."

# Errors whose text is meant for the player: the service's refusals and the engine's.
REFUSALS: tuple[type[BaseException], ...] = (TableError, GameError)


async def say(
    interaction: discord.Interaction,
    text: Text,
    *,
    ephemeral: bool = True,
    view: discord.ui.View | None = None,
    picture: Picture | None = None,
) -> None:
    """The private answer: the response if none was sent yet, else follow-ups. A `view`
    (turn buttons) and a `picture` go with the last part."""
    parts = split_message(markup(text)) or ["Done."]
    for n, part in enumerate(parts):
        extra: dict[str, Any] = {"view": view} if view is not None and n == len(parts) - 1 else {}
        if picture is not None and n == len(parts) - 1:
            extra["file"] = picture_file(picture)
        if interaction.response.is_done():
            await interaction.followup.send(part, ephemeral=ephemeral, **extra)
        else:
            await interaction.response.send_message(part, ephemeral=ephemeral, **extra)


# Given a refusal, the view to show under it (fresh turn buttons for an expired one).
OnRefusal = Callable[[BaseException], Awaitable["discord.ui.View | None"]]


async def run_refusable(interaction: discord.Interaction, work: Awaitable[Any]) -> tuple[bool, Any]:
    """Run `work` within Discord's limit: (True, its result), or (False, None) once the
    caller has been told the refusal or the apology."""
    return await _run(interaction, work)


async def _run(
    interaction: discord.Interaction, work: Awaitable[Any], on_refusal: OnRefusal | None = None
) -> tuple[bool, Any]:
    with track_saves() as saved:  # the task keeps the set: it copies the context now
        task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        return True, await task
    except REFUSALS as exc:
        await say(interaction, str(exc), view=await on_refusal(exc) if on_refusal else None)
    except Exception:
        log.exception(
            "interaction %s failed", interaction.command.qualified_name if interaction.command else "?"
        )
        await say(interaction, APOLOGY_SAVED if saved else APOLOGY)
    return False, None


def selected(interaction: discord.Interaction) -> str:
    """The option a member chose in a select menu ("" if none): for a select's own callback,
    so the interaction's data is a select's (its type covers every kind of interaction)."""
    data = cast("SelectMessageComponentInteractionData", interaction.data or {})
    values = data.get("values") or []
    return str(values[0]) if values else ""


def picture_file(picture: Picture) -> discord.File:
    """A picture as an attachment, its alt text as Discord's description."""
    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.description)


async def _own_picture(interaction: discord.Interaction, channel_id: int) -> Picture | None:
    """The caller's private picture, or None; a picture that fails leaves the text alone."""
    try:
        return await host(interaction).service.my_picture(channel_id, interaction.user.id)
    except Exception:
        log.warning("could not draw the private picture at table %s", channel_id, exc_info=True)
        return None


async def answer_private(
    interaction: discord.Interaction, work: Awaitable[Text], *, own_view_of: int | None = None
) -> None:
    """A read-only answer (status, me, log, rules) shown only to the caller.

    `own_view_of` is the table channel when the answer is the caller's own view: their
    pending turn notices there are then moot, and their private picture (Hand, sheet or
    screen) goes with the text in the same response.
    """
    ok, text = await _run(interaction, work)
    if not ok:
        return
    if own_view_of is None:
        await say(interaction, text)
        return
    # The caller's own view: with their turn buttons and picture, seen by them alone.
    delivery = host(interaction).delivery
    view = await delivery.turn_buttons(own_view_of, interaction.user.id, full_status=True)
    picture = await _own_picture(interaction, own_view_of)
    await say(interaction, text, view=view, picture=picture)
    delivery.seen(own_view_of, interaction.user.id)


async def answer_outbox(
    interaction: discord.Interaction,
    work: Awaitable[Outbox],
    *,
    new_status: bool = False,
    on_refusal: OnRefusal | None = None,
) -> Outbox | None:
    """Run a service call that changes a table: answer the caller, then deliver the rest.
    If the caller owes a decision next, their ephemeral answer carries its buttons."""
    ok, outbox = await _run(interaction, work, on_refusal)
    if not ok:
        return None
    bot = host(interaction)
    bot.delivery.seen(outbox.channel_id, interaction.user.id)
    menu = outbox.caller_menu.read() if outbox.caller_menu is not None else None  # no second read of the table
    view = await bot.delivery.turn_buttons(outbox.channel_id, interaction.user.id, menu=menu)
    await say(interaction, bot.delivery.private_reply(outbox, interaction.user.id), view=view)
    try:
        await bot.delivery.deliver(outbox, caller_id=interaction.user.id, new_status=new_status)
    except Exception:  # the action is saved; only its announcement failed: no apology to the player
        log.exception("could not deliver the outbox of table %s", outbox.channel_id)
    bot.poke()  # the action may have set a deadline earlier than the one slept towards
    return outbox


async def answer_file(
    interaction: discord.Interaction, text: Text, data: bytes, filename: str, *, ephemeral: bool
) -> None:
    """An answer with a file attached (a game record): the response, or the follow-up of a
    deferral (which Discord keeps as private as the deferral was)."""
    file = discord.File(io.BytesIO(data), filename=filename)
    if interaction.response.is_done():
        await interaction.followup.send(markup(text), file=file, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(markup(text), file=file, ephemeral=ephemeral)
