"""What a player may read about a game's content (docs/architecture.md §2): one `Entry` per
card, objective, ability, head, Treaty, Reparation, Ally and table entry, with its text and
provenance. The physical games print these on cards and player aids; ours are data, so
every front end shows them from here (`/game card`, the console's `card`)."""

from __future__ import annotations

from .content import Provenance
from .model import Model

__all__ = ["Entry"]


class Entry(Model):
    """One piece of content a player can look up by name."""

    name: str  # what a player types: unique within its game
    kind: str  # what it is, in the game's words: "Card", "National Objective", "Treaty"
    text: str  # everything the printed piece would say, in plain sentences
    provenance: Provenance
