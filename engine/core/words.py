"""Small helpers for what a player reads: a count with its noun in the right number."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`1 card`, `3 cards`, `0 cards`; `plural` when the word does not just take an s."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"
