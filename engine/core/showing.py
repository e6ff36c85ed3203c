"""What a player may show of their own hidden things, and where a table is in the game's
calendar: the two facts the table service's diplomacy (showing, pacts) asks each game.

`Game.showable(state, seat)` lists the seat's hidden things, each a `Showable` with the
words a referee would vouch for ("she holds Hoyos now"); a thing the rules keep hidden even
from its owner is listed with the reason it cannot be shown. `Game.period(state)` says
which Week, round or turn the table is in (a `Period`), so that a pact "until Week 3"
knows when it has passed. Both are pure and read the state only (docs/architecture.md §2).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Showable", "Period"]


@dataclass(frozen=True)
class Showable:
    """One hidden thing of a seat: `name` as a player types it ("Hoyos"), `text` what the
    referee vouches for (the card's text, the sheet as written), `kind` in the game's words
    ("card in Hand"). `refused`: why it may not be shown (the rules hide it even from its
    owner); empty when it may."""

    name: str
    text: str
    kind: str
    refused: str = ""


@dataclass(frozen=True)
class Period:
    """Where a game is in its calendar: `number` counts its Weeks, rounds or turns from 1;
    `word` is what the game calls one ("Week"), `words` every word a player may type for
    it, `names` each period's own name where it has one (Origins' months, by number - 1),
    `last` the last one there can be (None: not known in advance)."""

    word: str
    number: int
    last: int | None = None
    words: tuple[str, ...] = ()
    names: tuple[str, ...] = ()

    def label(self, number: int | None = None) -> str:
        """'Week 3', or 'Turn 4 (January 1914)' where the period has a name."""
        n = self.number if number is None else number
        named = self.names[n - 1] if 0 < n <= len(self.names) else ""
        return f"{self.word} {n}" + (f" ({named})" if named else "")
