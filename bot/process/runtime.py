"""Settings of the bot's own process (`python -m bot run` and `console`), not of a table."""

from __future__ import annotations

import gc

__all__ = ["GC_YOUNG_THRESHOLD", "CannotStart", "tune_gc"]


class CannotStart(Exception):
    """The process cannot start or go on (an unusable database, a refused token); str() is
    one line naming what and why, which `python -m bot` prints before exiting non-zero."""


# Allocations between collections of the youngest generation (CPython's default is 700).
GC_YOUNG_THRESHOLD = 10_000


def tune_gc() -> None:
    """Collect the youngest generation every 10,000 allocations instead of every 700.

    Every action allocates a few hundred short-lived objects (pydantic models, rows,
    posts) while up to hundreds of tables are in flight at once. At the default threshold
    the collector runs several times per round of actions, finds the in-flight objects
    still alive, promotes them, and rescans them in the older generations: about a sixth
    of the action path's time, and pauses of tens of milliseconds when the oldest
    generation is collected (bench/README.md). Reference counting frees nearly all of
    these objects without the collector, which is only for reference cycles; it still runs.
    """
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, GC_YOUNG_THRESHOLD), middle, old)
