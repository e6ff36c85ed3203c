"""Which tables a call saved: the front end's apology for a failure says truthfully whether
the table changed (bot/discord/interact.py), and `TableAccess.with_table` notes each save."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["note_saved", "track_saves"]


# The tables saved during one front-end call, so that an apology for a failure can say
# truthfully whether the table changed, and during one of the service's own calls
# (`TableAccess.with_table`). Blocks nest: each collects its own.
_SAVED: ContextVar[tuple[set[int], ...]] = ContextVar("chancellery_saved", default=())


@contextmanager
def track_saves() -> Iterator[set[int]]:
    """Collect the channels whose table is saved by work started inside the block (a
    task copies the context when it is created, so the set follows it)."""
    saved: set[int] = set()
    token = _SAVED.set((*_SAVED.get(), saved))
    try:
        yield saved
    finally:
        _SAVED.reset(token)


def note_saved(channel_id: int) -> None:
    for saved in _SAVED.get():
        saved.add(channel_id)
