"""Which automatic player takes a table's automatic seats, and where it thinks
(docs/architecture.md §3).

A table's `automatic_player` setting names it: "strong" (the default: the game's search
at its default strength, `engine/core/search.py`), "quick" (the same search with fewer
iterations) or "basic" (the game's `bot_action`). A game without a strong player yet
plays "basic" whatever the setting says, and a game whose search is not yet measurably
stronger than its basic player plays its best one (BEST_FOR). The search takes up to about a second of CPU,
so it runs on one worker thread of its own: the event loop keeps serving the other
tables meanwhile, and at most one search runs at a time, so automatic seats never take
more than one core however many tables have them.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.core import Game
from engine.core.players import player

__all__ = ["AUTOMATIC_PLAYERS", "AutomaticPlayers", "name_for"]

AUTOMATIC_PLAYERS = ("strong", "quick", "basic")  # the setting's values, strongest first

# The strongest player this process runs, whatever a table asks. The test suite caps it at
# "basic" (tests/conftest.py) so that its many whole games with automatic seats stay fast;
# the tests of the strong players themselves lift the cap.
STRONGEST = "strong"

# A game whose search is not yet measurably stronger than another of its players: its
# "strong" and "quick" seats play that one instead, so a real seat never gets a player
# weaker than the basic one. Origins: the search did not beat the basic player in the
# strength ladder; "reserve" (engine/origins/planner.py: the basic player keeping PFs at
# home for the last turn's 10-PF cap, and bidding for the last word of the last turn) wins
# about 2x its fair share among basic players and leaves basic 0.2-0.4x among it
# (docs/balance/origins.md, Issue 16).
BEST_FOR = {"origins": "reserve"}


def name_for(game: Game, setting: str) -> str:
    """The player a table's setting gives in `game`: no stronger than STRONGEST, and
    "basic" where the game has no search, its best player where its search is not yet the
    best (BEST_FOR)."""
    if AUTOMATIC_PLAYERS.index(setting) < AUTOMATIC_PLAYERS.index(STRONGEST):
        setting = STRONGEST
    if setting != "basic" and game.knowledge() is None:
        return "basic"
    if setting != "basic" and game.id in BEST_FOR:
        return BEST_FOR[game.id]
    return setting


class AutomaticPlayers:
    """Runs automatic players' decisions off the event loop, one at a time."""

    def __init__(self) -> None:
        self._thread: ThreadPoolExecutor | None = None

    async def choose(self, game: Game, state: Any, seat: str, rng: random.Random, setting: str) -> Any:
        """The action the table's automatic player takes for `seat` now."""
        name = name_for(game, setting)
        decide = player(game, name)
        if name == "basic":  # a few microseconds: not worth a thread hop
            return decide(state, seat, rng)
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="automatic-player")
        return await asyncio.get_running_loop().run_in_executor(self._thread, decide, state, seat, rng)

    def close(self) -> None:
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None
