"""The service's texts as the console prints them (docs/architecture.md §1, Texts): each span of
a `Rich` text (bot/render/rich.py) in words a terminal shows, and what a member typed as
they typed it. A member is their console name ("@alice"), a channel the console's own
("#table", "#lobby"), a moment words from the console clock ("in 10 min"), small print a
line like any other."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..render.rich import Channel, Member, Moment, Span, Text, render
from ..render.text import relative, unescape

__all__ = ["Words"]


class Words:
    """How the console writes a text, at the console clock's `now()`, naming members from
    `names` (user id -> console name) and channels from `channels` (id -> name)."""

    def __init__(self, now: Callable[[], float], names: Mapping[int, str], channels: Mapping[int, str]) -> None:
        self.now = now
        self.names = names
        self.channels = channels

    def __call__(self, text: Text) -> str:
        return unescape(render(text, self._span))

    def _span(self, span: Span) -> str:
        if isinstance(span, Member):
            return "@" + self.names.get(span.user_id, "a member")
        if isinstance(span, Channel):
            return "#" + self.channels.get(span.channel_id, "another channel")
        if isinstance(span, Moment):
            return relative(span.unix - self.now())
        return ""  # small print: a terminal has one size
