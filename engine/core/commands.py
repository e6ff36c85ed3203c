"""Declarative player commands, shared by the Discord adapter and the console.

A game lists its commands once (name, options, how to build the action, what to offer
while the player types); `/origins bid country:GER amount:3` in Discord and
`as alice /origins bid country:GER amount:3` in a console script both end in the same
`Command.build` call. Nothing here knows about Discord.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import IllegalAction
from .names import match_name

__all__ = ["Choice", "Option", "Command", "parse_int", "match_choice"]


@dataclass(frozen=True)
class Choice:
    """One autocomplete entry: what the player reads and the value sent back."""

    label: str
    value: str


@dataclass(frozen=True)
class Option:
    name: str
    description: str
    type: Literal["str", "int", "bool"] = "str"
    required: bool = True
    # (state, seat, options typed so far) -> legal values; None means free input.
    suggest: Callable[[Any, str, dict[str, Any]], list[Choice]] | None = None
    min_value: int | None = None
    max_value: int | None = None


@dataclass(frozen=True)
class Command:
    """`/<game> <name> <options>`: build(state, seat, options) returns the engine action.

    `private` commands answer only the caller (their reply shows their own view). A
    command whose build returns None is a query: it shows the caller's view and changes
    nothing.
    """

    name: str
    description: str
    build: Callable[[Any, str, dict[str, Any]], Any]
    options: tuple[Option, ...] = field(default_factory=tuple)
    private: bool = False


def parse_int(value: Any, what: str) -> int:
    """An integer option from typed text, with an error a player understands."""
    if isinstance(value, bool):
        raise IllegalAction(f"{what} must be a whole number, not {value!r}.")
    if isinstance(value, int):
        return value
    text = str(value).strip()
    shown = text if len(text) <= 20 else text[:20] + "…"
    if len(text.lstrip("+-")) > 18:  # no count in these games is that long (and int() refuses 4,300 digits)
        raise IllegalAction(f"{what} must be a whole number of a sensible size, not {shown!r}.")
    try:
        return int(text)
    except ValueError:
        raise IllegalAction(f"{what} must be a whole number, not {shown!r}.") from None


def match_choice(value: Any, choices: list[Choice], what: str) -> str:
    """Accept a choice by value or label, as players type names (engine/core/names.py:
    accents, quotes and case ignored, a unique prefix or word enough); name the legal ones
    if none matches, the candidates if several do."""
    # a label may add words after " — " (a card's text): its name alone is accepted too
    candidates = [(c.value, c.label.split(" — ")[0], c.label) for c in choices]
    # named as the player reads them (a card's name, not its id), without the added text
    legal = ", ".join(dict.fromkeys(name for _, name, _ in candidates)) or "none right now"
    return match_name(value, candidates, what, unknown=f"{value!r} is not a legal {what}.", listed=f"Legal: {legal}.")
