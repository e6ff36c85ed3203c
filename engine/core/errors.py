"""The one small exception tree every engine shares.

Messages are written for the player who sent the order: they say what was wrong and,
where it helps, what would have been allowed.
"""

from __future__ import annotations

__all__ = ["GameError", "IllegalAction", "NotYourTurn", "ContentError"]


class GameError(ValueError):
    """Base of everything an engine raises on purpose."""


class IllegalAction(GameError):
    """The rules forbid this action now. The state is unchanged."""


class NotYourTurn(IllegalAction):
    """The seat owes no decision at this moment."""


class ContentError(GameError):
    """A content file (cards, tables, boards) is malformed; names file, entry and field."""
