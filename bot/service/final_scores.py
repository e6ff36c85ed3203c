"""A finished game's scores after every action, for the chart its final standings carry
(docs/architecture.md §3 and §6).

The save that ends the game works them out (its stored log replayed once from the seed,
under the table's lock) and writes them into its outbox row beside what the status shows
(`Shown.scores`, shown.py); the final board is that row's board view (`Shown.board`). A
front end draws both from the row alone (`FinalScores.pictures`), so delivering the
standings, even again after a restart, reads no table and replays nothing. The scores of
the last few finished games are kept, so `/game` and the console reading a finished
game's pictures (`TableService.final_pictures`) do not replay it again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Sequence

from engine import games
from engine.core import GameState

from ..render.pictures import Picture
from ..render.pictures.cache import PictureCache
from ..render.pictures.chart import score_series
from ..store import EventRow, Store, StoreError
from .gallery import replayed
from .loaded import LoadedTable
from .shown import Board, Scores, Shown

__all__ = ["FinalScores"]

log = logging.getLogger(__name__)

KEPT = 16  # finished games whose scores stay worked out (a game's end, then its readers)

Showing = Callable[[LoadedTable, Sequence[EventRow], int | None], Awaitable[Shown]]


class FinalScores:
    def __init__(self, store: Store, pictures: PictureCache, showing: Showing) -> None:
        self.store = store
        self.cache = pictures
        self.showing = showing  # what a save writes into its outbox otherwise (Posts.shown)
        self._kept: OrderedDict[tuple[int, float, int], Scores | None] = OrderedDict()

    async def shown(self, t: LoadedTable, events: Sequence[EventRow], truncate_from: int | None) -> Shown:
        """What the save of `t` writes into its outbox (`Posts.shown`), with the scores over
        the game once it is finished and has a board picture (`TableAccess.showing`)."""
        shown = await self.showing(t, events, truncate_from)
        if t.row.status == "finished" and shown.board is not None:
            try:
                shown.scores = await self.of(t)
            except StoreError:
                raise
            except Exception:  # the standings go out without their chart rather than not at all
                log.warning("could not work out the scores of table %s", t.row.channel_id, exc_info=True)
        return shown

    async def of(self, t: LoadedTable) -> Scores | None:
        """The scores after every action of finished table `t`: its stored actions
        replayed from the seed, then `t.state` if it is the one a save is storing with the
        last action. None if the stored log does not lead to `t.state`."""
        state = t.state
        assert state is not None
        key = (t.row.channel_id, t.row.created_at, state.step)
        if key not in self._kept:
            actions = [(a.seat, a.action) for a in await self.store.get_actions(t.row.channel_id)]
            self._kept[key] = await asyncio.to_thread(_scores, t, actions)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return self._kept[key]

    async def pictures_of(self, shown: Shown) -> list[Picture]:
        """The final board and the chart, drawn from what the save that ended the game
        stored (`shown`, from its outbox row): no table is read. [] if it stored no scores."""
        if shown.board is None or shown.scores is None:
            return []
        return await self._drawn(shown.channel_id, shown.board, shown.scores)

    async def pictures(self, t: LoadedTable) -> list[Picture]:
        """Finished table `t`'s final board and chart, as its standings carried them."""
        g, state = t.game, t.state
        assert state is not None
        scores = await self.of(t)
        if scores is None:
            return []
        board = Board(g.id, state.seed, state.step, g.view_dict(g.view(state, None)))
        return await self._drawn(t.row.channel_id, board, scores)

    async def board(self, channel_id: int, board: Board) -> Picture | None:
        """The picture of a stored board (`Shown.board`), drawn once per view."""
        return await self.cache.board_of_view(channel_id, games.get(board.game), board.seed, board.step, board.view)

    async def _drawn(self, channel_id: int, board: Board, scores: Scores) -> list[Picture]:
        game = games.get(board.game)
        return await self.cache.final(
            channel_id, game, board.seed, board.step, board.view, scores.series, scores.periods
        )


class _NotLedTo(Exception):
    """The stored log does not lead to the table's state."""


def _scores(t: LoadedTable, actions: list[tuple[str, str]]) -> Scores | None:
    try:
        return Scores(*score_series(t.game, _states(t, actions)))
    except _NotLedTo:
        log.warning("the stored log of table %s does not lead to its state: no score chart", t.row.channel_id)
        return None


def _states(t: LoadedTable, actions: list[tuple[str, str]]) -> Iterator[GameState]:
    """Every state of the game in order, from its setup to `t.state`: the stored actions
    replayed (the same seed gives every draw again); last, `t.state` itself when its save
    is storing the action that led to it (the game's end, saved with that action)."""
    final = t.state
    assert final is not None
    state = final
    for state in replayed(t, actions):
        yield state
    if final.step == state.step + 1:
        yield final
    elif final.step != state.step:
        raise _NotLedTo
