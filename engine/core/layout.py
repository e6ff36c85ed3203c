"""The public status laid out for a phone (docs/architecture.md §2).

`Game.layout(view)` gives the same facts as `Game.describe(view)`, arranged for a status
card: a title, the shared facts most important first, and one panel per nation with its
score and what is public about it. The table service adds the players' names and the
waiting line; a front end draws it (the Discord adapter as an embed, the console as
text). `describe` stays the whole text: what a layout leaves out for room is there.

Plain dataclasses: a layout is built for every status and never stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Layout", "Panel"]


@dataclass(slots=True, kw_only=True)
class Panel:
    """One nation's public facts. `seat` says whose it is (the service names the player);
    `lines` are short, the first the most important (the score)."""

    name: str
    lines: list[str] = field(default_factory=list)
    seat: str | None = None


@dataclass(slots=True, kw_only=True)
class Layout:
    """`title` names the game, the round and the phase; `round` names the current Week,
    round or turn alone ("Week 2", "October 1913"; the channel's summary is headed by it);
    `lines` are the shared facts, most important first; `panels` are in the order the
    table reads them (the turn or Initiative order where the game has one)."""

    title: str
    round: str = ""
    lines: list[str] = field(default_factory=list)
    panels: list[Panel] = field(default_factory=list)
