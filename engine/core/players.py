"""The automatic players of a game, by name: what `simulate`, the strength ladder and a
table's automatic seats choose from (docs/architecture.md §2,
"Automatic players").

Every game has "basic" (its `bot_action`, the player the first balance reports used),
"defaults" (what a deadline plays: `default_action`), "random" (uniform among the legal
actions) and, where the game gives its search `Knowledge`, one strong player per named
strength ("quick", "strong", "deep"). A game adds its own `test_players`: the simple
strategies the balance reports found (an all-in on one Objective), kept by name so tests
and reports can check they stay beaten.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .game import AnyGame
from .search import STRENGTHS, Search

__all__ = ["Policy", "players", "player"]

Policy = Callable[[Any, str, random.Random], Any]


def _uniform(game: AnyGame) -> Policy:
    def choose(state: Any, seat: str, rng: random.Random) -> Any:
        actions = game.legal_actions(state, seat)
        return rng.choice(actions) if actions else game.bot_action(state, seat, rng)

    return choose


def _defaults(game: AnyGame) -> Policy:
    return lambda state, seat, rng: game.default_action(state, seat)


def players(game: AnyGame) -> dict[str, Policy]:
    """Every named player of `game`."""
    named: dict[str, Policy] = {
        "basic": game.bot_action,
        "defaults": _defaults(game),
        "random": _uniform(game),
    }
    knowledge = game.knowledge()
    if knowledge is not None:
        for name, strength in STRENGTHS.items():
            named[name] = Search(knowledge, strength).decide
    named.update(game.test_players())
    return named


def player(game: AnyGame, name: str) -> Policy:
    """One named player; ValueError naming the ones there are."""
    named = players(game)
    if name not in named:
        raise ValueError(f"{game.title} has no automatic player {name!r}; it has {', '.join(sorted(named))}.")
    return named[name]
