"""Board pictures kept by table and what they show (the board by its public view, a seat's
own picture by state version), so one state is never drawn twice (docs/architecture.md §6).

A status message is edited after every action, and the same table's picture is asked for
again by a second delivery, `/game status` or the console; the drawing (tens of ms) runs
once per state, in a worker thread so the event loop keeps answering interactions.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from engine.core import Game, GameState

from . import draw, draw_private, has_pictures
from .layout import Picture

__all__ = ["PictureCache"]


class PictureCache:
    def __init__(self, size: int = 128) -> None:
        self.size = size
        self.drawn = 0  # pictures actually drawn, for tests and the benchmark
        # one picture by board, private or final key (the last ends in "final", where the
        # others end in a view's digest or a seat): a finished game's chart
        self._pictures: OrderedDict[Hashable, Picture] = OrderedDict()

    async def board_of_view(
        self, channel_id: int, game: Game, seed: int, step: int, view: dict[str, Any]
    ) -> Picture | None:
        """The public board drawn from the public view alone (`view`, as `Game.view_dict`
        wrote it: what a save stored for its delivery), with no state at hand; None for a
        game that has no picture. Keyed by the table's seed and step and what the view
        holds: a picture is a function of its view, so a save that changes nothing shown
        (a setting, a deadline) draws nothing again."""
        if not has_pictures(game.id):
            return None
        digest = hashlib.sha1(json.dumps(view, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        key = (channel_id, game.id, seed, step, digest)
        picture = self._pictures.get(key)
        if picture is None:
            picture = await asyncio.to_thread(draw, game.id, game.view_from_dict(view))
            self.drawn += 1
            self._pictures[key] = picture
            if len(self._pictures) > self.size:
                self._pictures.popitem(last=False)
        else:
            self._pictures.move_to_end(key)
        return picture

    async def private(
        self, channel_id: int, version: int, game: Game, state: GameState, seat: str
    ) -> Picture | None:
        """One seat's private picture (their Hand, sheet or screen), from their own view."""
        if not has_pictures(game.id):
            return None
        key = (channel_id, game.id, state.seed, state.step, version, seat)
        if key not in self._pictures:
            view: dict[str, Any] = game.view(state, seat)
            picture = await asyncio.to_thread(draw_private, game.id, view)
            if picture is None:
                return None
            self.drawn += 1
            self._pictures[key] = picture
            if len(self._pictures) > self.size:
                self._pictures.popitem(last=False)
        self._pictures.move_to_end(key)
        return self._pictures[key]

    async def final(
        self,
        channel_id: int,
        game: Game,
        seed: int,
        step: int,
        view: dict[str, Any],
        series: dict[str, list[float]],
        periods: list[tuple[int, str]],
    ) -> list[Picture]:
        """A finished game's final board and the chart of every player's score over the
        game, drawn from what the save that ended it stored: the final public view (as
        `board_of_view` takes it: the status message's last board, drawn once for both)
        and the scores after every action (`chart.score_series`)."""
        board = await self.board_of_view(channel_id, game, seed, step, view)
        if board is None:
            return []
        key = (channel_id, game.id, seed, step, "final")
        chart = self._pictures.get(key)
        if chart is None:
            from .chart import chart as draw_chart  # only a finished game needs it

            chart = await asyncio.to_thread(draw_chart, game, series, periods, game.view_from_dict(view))
            self.drawn += 1
            self._pictures[key] = chart
            if len(self._pictures) > self.size:
                self._pictures.popitem(last=False)
        return [board, chart]
