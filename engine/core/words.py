"""Small helpers for what a player reads: a count with its noun in the right number."""

from __future__ import annotations

__all__ = ["counted", "signed"]


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`1 card`, `3 cards`, `0 cards`; `plural` when the word does not just take an s."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def signed(n: int) -> str:
    """A change with its sign, `+3` or `-2`; no change is a plain `0`, never `+0`."""
    return f"{n:+d}" if n else "0"
