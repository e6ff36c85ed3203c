"""The service's texts as the console prints them (docs/architecture.md §6): each span of
a `Rich` text (bot/render/rich.py) in words a terminal shows, and what a member typed as
they typed it."""

from __future__ import annotations

from collections.abc import Callable

from ..render.rich import Channel, Member, Moment, Span, Text, render
from ..render.text import relative, unescape

__all__ = ["Words"]


class Words:
    """How the console writes a text, at the console clock's `now()`."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now

    def __call__(self, text: Text) -> str:
        return unescape(render(text, self._span))

    def _span(self, span: Span) -> str:
        if isinstance(span, Member):
            return f"<@{span.user_id}>"
        if isinstance(span, Channel):
            return f"<#{span.channel_id}>"
        if isinstance(span, Moment):
            return relative(span.unix - self.now())
        return "-# "
