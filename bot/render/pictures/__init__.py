"""Board pictures of every game, drawn with Pillow from a view (docs/architecture.md §6).

`draw(game_id, view)` draws a game's board from the public view, or from a player's own
view for a private picture; it never sees a state, so a picture can show only what the
text for the same reader shows. One module per game; `layout`, `palette` and `fonts` are
shared; `cache` keeps pictures by table and state version.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .layout import Picture

__all__ = ["Picture", "draw", "draw_private", "has_pictures"]

_MODULES = {"origins": "origins", "crisis1914": "crisis", "schonbrunn": "schonbrunn"}


def has_pictures(game_id: str) -> bool:
    return game_id in _MODULES


def draw(game_id: str, view: dict[str, Any]) -> Picture:
    """The board picture of `view`, a view of a game `game_id`."""
    module = import_module(f"{__name__}.{_MODULES[game_id]}")
    return module.draw(view)


def draw_private(game_id: str, view: dict[str, Any]) -> Picture | None:
    """The private picture of `view`, one seat's own view (their Hand, sheet or screen);
    None when the view holds nothing private (a spectator's, or before the start)."""
    module = import_module(f"{__name__}.{_MODULES[game_id]}")
    return module.draw_private(view)
