"""Board pictures of every game, drawn with Pillow from a view (docs/architecture.md §6).

`draw(game_id, view)` draws a game's board from the public view, or from a player's own
view for a private picture (each game's typed view, `engine/<game>/view_types.py`, which
its module here reads by attribute); it never sees a state, so a picture can show only what the
text for the same reader shows. One module per game; `layout`, `palette` and `fonts` are
shared; `cache` keeps pictures by table and state version; `svg` draws the same pictures as SVG
shapes (the replay page's board at every step).
"""

from __future__ import annotations

from importlib import import_module

from .layout import Picture
from .svg import SvgCanvas, Vector

__all__ = ["Picture", "draw", "draw_private", "draw_vector", "draw_private_vector", "has_pictures"]

_MODULES = {"origins": "origins", "crisis1914": "crisis", "schonbrunn": "schonbrunn"}


def has_pictures(game_id: str) -> bool:
    return game_id in _MODULES


def draw(game_id: str, view: object) -> Picture:
    """The board picture of `view`, a view of a game `game_id`."""
    module = import_module(f"{__name__}.{_MODULES[game_id]}")
    return module.draw(view)


def draw_private(game_id: str, view: object) -> Picture | None:
    """The private picture of `view`, one seat's own view (their Hand, sheet or screen);
    None when the view holds nothing private (a spectator's, or before the start)."""
    module = import_module(f"{__name__}.{_MODULES[game_id]}")
    return module.draw_private(view)


def draw_vector(game_id: str, view: object) -> Vector:
    """The board picture of `view` as SVG shapes, drawn by the same code as its PNG."""
    drawn = import_module(f"{__name__}.{_MODULES[game_id]}").draw(view, canvas=SvgCanvas)
    assert isinstance(drawn, Vector)
    return drawn


def draw_private_vector(game_id: str, view: object) -> Vector | None:
    """The private picture of `view` as SVG shapes; None as for `draw_private`."""
    drawn = import_module(f"{__name__}.{_MODULES[game_id]}").draw_private(view, canvas=SvgCanvas)
    assert drawn is None or isinstance(drawn, Vector)
    return drawn
