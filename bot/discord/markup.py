"""The service's texts as Discord writes them (docs/architecture.md §1, Texts): each span of a
`Rich` text (bot/render/rich.py) in Discord's own markup. A member is a mention, a channel
a channel link, a moment a timestamp each reader sees in their own time zone, small print
a `-#` line. Everything else of a text is Markdown, which Discord shows as it is."""

from __future__ import annotations

import re

from bot.render.rich import Channel, Member, Moment, Span, Text, render

__all__ = ["markup", "timestamp", "typed_member"]

_MENTION = re.compile(r"<@!?(\d+)>")


def timestamp(unix: float, style: str = "R") -> str:
    """A Discord timestamp: style R reads "in 3 hours", F a full date and time."""
    return f"<t:{int(unix)}:{style}>"


def _span(span: Span) -> str:
    if isinstance(span, Member):
        return f"<@{span.user_id}>"
    if isinstance(span, Channel):
        return f"<#{span.channel_id}>"
    if isinstance(span, Moment):
        return timestamp(span.unix, span.style)
    return "-# "  # small print


def markup(text: Text) -> str:
    """`text` as a Discord message holds it."""
    return render(text, _span)


def typed_member(text: str) -> str:
    """What a member typed, with a mention they typed or picked ("<@123>") as the id it
    names: the service knows members by id, name or nation, never by Discord's markup."""
    return _MENTION.sub(lambda m: m[1], text).strip()
