"""The status card: the table's public status laid out for a phone (docs/rulings.md, Discord adapter 28).

One structure for every front end: the Discord adapter draws it as an embed (title,
description, one field per nation, the board picture as its image), the console and a
frozen message as text (`StatusCard.text`). The waiting line comes first, with each
full slash command; then the game's shared facts and a field per nation (its player, its
score and what is public about it, from `Game.layout`). The card stays under `LIMIT`
characters at every player count: when a table's names or a crowded phase would pass it,
the least important lines give way, whole, and the footer says the rest is behind the
status message's "Full status" button (the whole text, `Game.describe`). Nothing is cut
inside a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core import Layout

from .rich import Rich, Text, width

__all__ = ["StatusCard", "Field", "Waiting", "waiting_line", "card_of", "LIMIT", "MORE"]

LIMIT = 1000  # characters of text in the card: a phone's screen or two
MORE = "More of the board: the Full status button below, or /game status."


@dataclass(slots=True)
class Field:
    name: str
    value: str


@dataclass(slots=True, kw_only=True)
class StatusCard:
    title: str
    description: Text = ""  # the waiting line's deadline is a moment (rich.py)
    fields: list[Field] = field(default_factory=list)
    footer: str = ""

    def size(self) -> int:
        """Characters of text, as Discord counts an embed's (title, description, each
        field's name and value, footer)."""
        return (
            len(self.title)
            + width(self.description)
            + sum(len(f.name) + len(f.value) for f in self.fields)
            + len(self.footer)
        )

    def text(self) -> Text:
        """The card as plain text: for the console, a message with no embed, and tests."""
        lines: list[Text] = [f"**{self.title}**"]
        if self.description:
            lines.append(self.description)
        for f in self.fields:
            lines.append(f"**{f.name}**")
            lines += [f"  {line}" for line in f.value.splitlines()]
        if self.footer:
            lines.append(self.footer)
        return Rich.join("\n", lines)


@dataclass(slots=True)
class Waiting:
    """Who owes a decision and what, as the waiting line names it."""

    who: str
    owed: str  # "a bid (/origins bid or /origins pass)"


def waiting_line(owing: list[Waiting], everyone: int, due: Text = "", *, bold: bool = True) -> Text:
    """ "Waiting for anna: a bid (/origins bid or /origins pass) — due in 3 hours": players
    owing the same are named together ("anna, boris and clara: …", or "all 7 players: …"
    when every seated player does), so a simultaneous phase at a full table stays one line."""
    groups: dict[str, list[str]] = {}
    for w in owing:
        names = groups.setdefault(w.owed, [])
        if w.who not in names:
            names.append(w.who)
    parts = []
    for owed, names in groups.items():
        who = f"all {len(names)} players" if len(groups) == 1 and len(names) == everyone > 2 else _and(names)
        parts.append(f"{who}: {owed}")
    head = "**Waiting for** " if bold else "Waiting for "
    return Rich.of(head, "; ".join(parts), *((" — due ", due) if due else ()))


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def card_of(layout: Layout, top: Sequence[Text], players: dict[str, str], bottom: Sequence[str] = ()) -> StatusCard:
    """The card of a game's `layout`: `top` lines first (the waiting line, a pause), then the
    layout's shared lines, then `bottom` (seats to fill, the result); a field per panel,
    named with its player (`players`, by seat). Within `LIMIT`: the layout's shared lines
    give way from the last, then the panels' lines after their first, from the last panel,
    and the footer says where the rest is."""
    shared = list(layout.lines)
    rows = [list(p.lines) for p in layout.panels]

    def build(footer: str) -> StatusCard:
        fields = []
        for panel, lines in zip(layout.panels, rows, strict=True):
            who = players.get(panel.seat or "")
            fields.append(Field(f"{panel.name} · {who}" if who else panel.name, "\n".join(lines) or "—"))
        return StatusCard(
            title=layout.title, description=Rich.join("\n", [*top, *shared, *bottom]), fields=fields, footer=footer
        )

    card = build("")
    while card.size() > LIMIT:
        if shared:
            shared.pop()
        else:
            longest = max(range(len(rows)), key=lambda i: (len(rows[i]), i), default=None)
            if longest is None or len(rows[longest]) <= 1:
                break  # only the essentials are left: a table with many long names
            rows[longest].pop()
        card = build(MORE)
    return card
