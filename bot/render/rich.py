"""Text as the service writes it for a person, before a front end shows it (docs/architecture.md §1, Texts).

Most of a message is Markdown, the format the game's record keeps and its exports hold:
`**strong**`, list lines, and what a member typed kept as typed (`text.escape`). What
each front end shows its own way is a span: a member, a channel, a moment in time, and a
line of small print. The Discord adapter writes a span as Discord's markup (a mention, a
timestamp each reader sees in their own time zone: `bot/discord/markup.py`); the console
writes it in words ("@alice", "#table", "in 10 min": `bot/console/words.py`). The service
never writes either.

A text with no span stays a plain `str`, so most texts are strings: `Rich.of` and
`Rich.join` give a `Rich` only where a span is. A `Rich` refuses to become a string by
accident (`str()`, an f-string): the front end renders it, nobody else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

__all__ = [
    "Rich",
    "Text",
    "Span",
    "Member",
    "Channel",
    "Moment",
    "SmallPrint",
    "member",
    "channel",
    "moment",
    "small",
    "render",
    "searchable",
    "width",
    "text_json",
]


@dataclass(frozen=True, slots=True)
class Member:
    """A member of the server, by their Discord id: a mention that may ping them."""

    user_id: int


@dataclass(frozen=True, slots=True)
class Channel:
    """A channel of the server, by its Discord id."""

    channel_id: int


# How a moment reads: R relative ("in 3 hours"), t/T a time, d/D a date, f/F a date and time.
Style: TypeAlias = Literal["R", "t", "T", "d", "D", "f", "F"]


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment in time (unix seconds), shown in each reader's own time zone where the
    front end knows it."""

    unix: int
    style: Style = "R"


@dataclass(frozen=True, slots=True)
class SmallPrint:
    """The rest of its line is small print: a hint under the text."""


Span: TypeAlias = str | Member | Channel | Moment | SmallPrint


class Rich:
    """A text with spans in it: Markdown strings and the spans between them, in order."""

    __slots__ = ("spans",)

    def __init__(self, *parts: Text | Span) -> None:
        # every save writes a few of these (the status card's deadline): plain type checks
        spans: list[Span] = []
        for part in parts:
            for span in part.spans if isinstance(part, Rich) else (part,):
                if type(span) is not str:
                    spans.append(span)
                elif spans and type(spans[-1]) is str:
                    spans[-1] += span  # type: ignore[operator]
                elif span:
                    spans.append(span)
        self.spans: tuple[Span, ...] = tuple(spans)

    @staticmethod
    def of(*parts: Text | Span) -> Text:
        """The parts one after another: a `str` when none is a span."""
        for p in parts:
            if type(p) is not str:
                return Rich(*parts)
        return "".join(parts)  # type: ignore[arg-type]

    @staticmethod
    def join(separator: str, texts: Iterable[Text]) -> Text:
        """`separator.join(texts)` for texts that may hold spans: a `str` when none does."""
        texts = list(texts)
        if all(type(t) is str for t in texts):
            return separator.join(texts)  # type: ignore[arg-type]
        parts: list[Text] = []
        for n, t in enumerate(texts):
            parts += [separator, t] if n else [t]
        return Rich(*parts)

    def __add__(self, other: Text) -> Rich:
        return Rich(self, other)

    def __radd__(self, other: str) -> Rich:
        return Rich(other, self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rich) and other.spans == self.spans

    def __hash__(self) -> int:
        return hash(self.spans)

    def __repr__(self) -> str:
        return f"Rich{self.spans!r}"

    def __str__(self) -> str:
        raise TypeError("a text with spans is shown by a front end, never made a str (bot/render/rich.py)")

    def __format__(self, spec: str) -> str:
        raise TypeError(
            "a text with spans cannot go into an f-string: build it with Rich.of (bot/render/rich.py)"
        )

    def to_json(self) -> list[Any]:
        """The spans as JSON (an outbox row keeps a post's text): a string as itself, a span
        as a one-key object."""
        out: list[Any] = []
        for span in self.spans:
            if isinstance(span, str):
                out.append(span)
            elif isinstance(span, Member):
                out.append({"member": span.user_id})
            elif isinstance(span, Channel):
                out.append({"channel": span.channel_id})
            elif isinstance(span, Moment):
                out.append({"moment": span.unix, "style": span.style})
            else:
                out.append({"small": True})
        return out

    @staticmethod
    def from_json(data: str | list[Any]) -> Text:
        """What `to_json` wrote (or a plain string, as rows kept before spans hold)."""
        if isinstance(data, str):
            return data
        spans: list[Span] = []
        for item in data:
            if isinstance(item, str):
                spans.append(item)
            elif "member" in item:
                spans.append(Member(int(item["member"])))
            elif "channel" in item:
                spans.append(Channel(int(item["channel"])))
            elif "moment" in item:
                spans.append(Moment(int(item["moment"]), item.get("style", "R")))
            else:
                spans.append(SmallPrint())
        return Rich(*spans)


Text: TypeAlias = str | Rich


def text_json(text: Text) -> str | list[Any]:
    """A text as JSON: a `str` as itself."""
    return text if isinstance(text, str) else text.to_json()


def member(user_id: int) -> Rich:
    return Rich(Member(user_id))


def channel(channel_id: int) -> Rich:
    return Rich(Channel(channel_id))


def moment(unix: float, style: Style = "R") -> Rich:
    """`unix` seconds as a reader reads it: style R "in 3 hours", F a full date and time."""
    return Rich(Moment(int(unix), style))


def small(line: Text) -> Rich:
    """`line` as small print."""
    return Rich(SmallPrint(), line)


def width(text: Text) -> int:
    """Characters `text` takes toward a message's limit. A span counts as its Discord
    markup does ("<t:1767225600:R>" is 16), the most any front end writes for it: Discord
    counts the markup, not what it shows."""
    if isinstance(text, str):
        return len(text)
    total = 0
    for span in text.spans:
        if isinstance(span, str):
            total += len(span)
        elif isinstance(span, Member):
            total += len(str(span.user_id)) + 3
        elif isinstance(span, Channel):
            total += len(str(span.channel_id)) + 3
        elif isinstance(span, Moment):
            total += len(str(span.unix)) + 6
        else:
            total += 3
    return total


def searchable(text: Text) -> str:
    """`text`'s own words with each span as U+FFFC, the object replacement character: for
    finding a phrase in a text, never for showing it."""
    return render(text, lambda span: "\ufffc")


def render(text: Text, span: Any) -> str:
    """`text` with each span written by `span(span) -> str` (a front end's renderer)."""
    if isinstance(text, str):
        return text
    return "".join(s if isinstance(s, str) else span(s) for s in text.spans)
