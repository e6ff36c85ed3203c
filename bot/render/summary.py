"""The round summary: the channel's record of what happened, one message per Week, round or
turn (docs/rulings.md, Discord adapter 27).

A summary is a view of the table's public log: the public events from a point on, in
order. It starts a new part at each event of the game's `round_event` kind (the round's
own opening line heads it, its name in bold) and whenever the next line would take the
part past `MESSAGE_LIMIT`; the first part of a game is headed by the line that began it.
The Discord adapter keeps the last part in the status message, above the status card,
and leaves each finished part in the channel as a message of its own, so a player who
looks once a day reads everything since they last looked. Pure functions over plain data:
the service reads the log, this module cuts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TypedDict

from .text import MESSAGE_LIMIT, split_message

__all__ = ["Line", "Part", "PartStart", "parts", "round_name"]


@dataclass(slots=True)
class Line:
    kind: str  # the event's kind, as stored
    text: str


class PartStart(TypedDict, total=False):
    """Where a part starts, as stored with the table (JSON; a key it lacks has its default)."""

    since: int
    heading: str
    name: str
    opens_round: bool
    continued: bool


@dataclass(slots=True, kw_only=True)
class Part:
    """One summary message. `since` counts the public events of the log before its first
    line (where it starts, kept with the table so a restart finds it); `heading` is a line
    above the events (the game's start, or "*Week 2, continued*"); `name` names its round
    for a continuation's heading; `opens_round`: its first line is the round's opening;
    `continued`: it carries on the part before it, which was full."""

    since: int
    heading: str = ""
    name: str = ""
    opens_round: bool = False
    continued: bool = False
    lines: list[Line] = field(default_factory=list)

    def text(self) -> str:
        out = [self.heading] if self.heading else []
        for i, line in enumerate(self.lines):
            text = line.text
            if i == 0 and self.opens_round and self.name and text.startswith(self.name):
                text = f"**{self.name}**{text[len(self.name) :]}"  # "**Week 2** begins."
            out.append(text)
        return "\n".join(out)

    def messages(self, limit: int = MESSAGE_LIMIT) -> list[str]:
        """The part as messages: one, unless a single line of it is longer than a message."""
        return split_message(self.text(), limit) or ([self.heading] if self.heading else [])

    def start(self) -> PartStart:
        """Where the part starts, as stored with the table (`Part.resume` reads it back)."""
        return {
            "since": self.since,
            "heading": self.heading,
            "name": self.name,
            "opens_round": self.opens_round,
            "continued": self.continued,
        }

    @classmethod
    def resume(cls, stored: PartStart) -> Part:
        return cls(
            since=int(stored.get("since", 0)),
            heading=str(stored.get("heading", "")),
            name=str(stored.get("name", "")),
            opens_round=bool(stored.get("opens_round", False)),
            continued=bool(stored.get("continued", False)),
        )


_MARKUP = re.compile(r"[*_`]")


def round_name(line: str) -> str:
    """A round's name from the line that opens it (or began the game): its first sentence
    without markup or a closing "begins" ("Week 2 begins." → "Week 2"; "Round 2/4.
    Reparations: …" → "Round 2/4"; "**November 1913**" → "November 1913")."""
    first = _MARKUP.sub("", line.splitlines()[0] if line else "").strip()
    first = first.split(". ")[0].rstrip(".").strip()
    return first.removesuffix(" begins").strip()


def parts(start: Part, lines: list[Line], round_event: str, limit: int = MESSAGE_LIMIT) -> list[Part]:
    """The summary messages from `start` (the part the status message holds, empty) over the
    public events since it began: a new part at each round opening and before a part would
    pass `limit`. The last part is the one still growing; a part whose one line is longer
    than a message is finished as it is (it goes out as several messages, never cut)."""
    out = [Part.resume(start.start())]
    index = start.since
    size = len(out[0].text())  # of the last part, kept as lines are added
    for line in lines:
        current = out[-1]
        if round_event and line.kind == round_event:
            # a new Week, round or turn: its opening line heads the next message; an empty
            # part before it gives way, unless it is the game's opening heading
            new = Part(since=index, name=round_name(line.text), opens_round=True)
            if current.lines:
                out.append(new)
                current = new
            elif current.continued or not current.heading:
                out[-1] = current = new
        elif current.lines and size + 1 + len(line.text) > limit:
            current = _continued(current, index)
            out.append(current)
        current.lines.append(line)
        size = len(current.text()) if len(current.lines) == 1 else size + 1 + len(line.text)
        index += 1
    if size > limit:  # one line longer than a message: finished as it is
        out.append(_continued(out[-1], index))
    return out


def _continued(part: Part, since: int) -> Part:
    heading = f"*{part.name}, continued*" if part.name else "*Continued*"
    return Part(since=since, heading=heading, name=part.name, continued=True)
