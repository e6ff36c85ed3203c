"""The table's status message as Discord's Components V2 draw it (docs/architecture.md §3,
"The path of one action", step 8; docs/rulings.md, Discord adapter 28).

One message per table, edited in place, read from the top on a phone:

1. the title and the waiting line: who is awaited, for what, and by when;
2. the board picture at the message's full width (a media gallery), its alt text the
   picture's description;
3. one compact line per seat: nation, player, and what is public about them;
4. the round so far (the live round summary), under a separator;
5. the buttons ("Show my hand / orders", "Full status"), under the card.

A V2 message holds no text outside its components, so a summary that is finished keeps
its message as a single text component (`summary_layout`). Discord counts at most 4,000
characters of text in a V2 message: the card stays under 1,000 (bot/render/status.py) and
a summary message under 2,000 (bot/render/summary.py).
"""

from __future__ import annotations

import json
from typing import Any

import discord

from bot.render.pictures import Picture
from bot.render.status import StatusCard

from .markup import markup
from .views import FullStatus, ShowMine

__all__ = ["status_layout", "summary_layout", "seat_line", "layout_digest", "TEXT_LIMIT"]

TEXT_LIMIT = 4000  # Discord: characters of text in one Components V2 message
ALT_LIMIT = 256  # Discord: characters of a media gallery item's description
ACCENT = discord.Colour(0x8C6D46)  # the boards' brass


def seat_line(name: str, value: str) -> str:
    """A seat as one line: "**Russia · anna** — 14 Prestige · 3 cards in Hand"."""
    parts = [line.strip() for line in value.splitlines() if line.strip() and line.strip() != "—"]
    return f"**{name}**" + (" — " + " · ".join(parts) if parts else "")


def _card_texts(card: StatusCard) -> list[str]:
    head = "\n".join(x for x in (f"### {card.title}", markup(card.description)) if x)
    seats = "\n".join(seat_line(f.name, f.value) for f in card.fields)
    return [head, seats] if seats else [head]


def status_layout(
    channel_id: int, card: StatusCard, summary: str = "", picture: Picture | None = None
) -> discord.ui.LayoutView:
    """The living status message: the card, the board, the seats, the round so far, the buttons."""
    head, *seats = _card_texts(card)
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=ACCENT)
    container.add_item(discord.ui.TextDisplay(head))
    if picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{picture.filename}", description=_alt(picture.description))
        container.add_item(discord.ui.MediaGallery(item))
    for text in seats:
        container.add_item(discord.ui.TextDisplay(text))
    if card.footer:
        container.add_item(discord.ui.TextDisplay(f"-# {card.footer}"))
    if summary.strip():
        container.add_item(discord.ui.Separator())
        container.add_item(discord.ui.TextDisplay(summary))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    buttons: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    buttons.add_item(ShowMine(channel_id))
    buttons.add_item(FullStatus(channel_id))
    view.add_item(buttons)
    return view


def summary_layout(text: str) -> discord.ui.LayoutView:
    """A finished round summary: its text alone, no card, picture or buttons."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(text))
    return view


def _alt(text: str) -> str:
    """A gallery item's alt text: at most Discord's 256 characters, cut after a word (the
    whole description stays the attachment's own, up to 1,024)."""
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1].rsplit(" ", 1)[0] + "…"


def layout_digest(view: discord.ui.LayoutView) -> str:
    """What a layout shows, to skip an edit that would change nothing."""
    return json.dumps(view.to_components(), sort_keys=True)
