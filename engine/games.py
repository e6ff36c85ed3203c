"""The registry: the one entry point other code uses to find a game.

    from engine import games
    game = games.get("origins")

Each game subpackage exposes `GAME`; the registry imports the known ones on first use,
so adding a game is one line in `_MODULES`.
"""

from __future__ import annotations

import importlib

from .core import AnyGame
from .core.errors import GameError

__all__ = ["get", "all", "ids", "register"]

_MODULES = ("engine.crisis1914", "engine.origins", "engine.schonbrunn")
_GAMES: dict[str, AnyGame] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


def register(game: AnyGame) -> AnyGame:
    _GAMES[game.id] = game
    for alias in (game.id, *game.aliases):
        _ALIASES[alias.casefold()] = game.id
    return game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in _MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # a game module missing from this install is skipped
                continue
            raise
        game = getattr(module, "GAME", None)
        if game is None:  # a module without a GAME offers no game
            continue
        register(game)


def get(name: str) -> AnyGame:
    _load()
    key = _ALIASES.get(name.strip().casefold())
    if key is None:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise GameError(f"No game called {name!r}. Games: {known}.")
    return _GAMES[key]


def all() -> list[AnyGame]:  # noqa: A001 - the registry's documented name
    _load()
    return [_GAMES[k] for k in sorted(_GAMES)]


def ids() -> list[str]:
    return [g.id for g in all()]
