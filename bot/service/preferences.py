"""Members' notification preferences kept in memory, shared by the loaded-table access
(which reads them when a table of theirs is first used) and `Notifications` (which changes
them). Its own module so that neither of those two imports the other."""

from __future__ import annotations

from ..store import NotifyPrefs, SeatRow, Store
from .bounded import LRU

__all__ = ["Preferences"]


class Preferences:
    """Members' notification preferences kept in memory: read from the store when a table
    of theirs is first used (`TableAccess.with_table`), updated by `/game notify`."""

    def __init__(self, store: Store, size: int) -> None:
        self.store = store
        self.cache: LRU[int, NotifyPrefs] = LRU(size)

    def missing(self, seats: list[SeatRow]) -> list[int]:
        """The members in `seats` whose preferences are not in memory (after the first
        action of a table, usually none: the check costs no await)."""
        return [s.user_id for s in seats if s.user_id > 0 and s.user_id not in self.cache]

    async def load(self, seats: list[SeatRow]) -> None:
        for user_id in self.missing(seats):
            self.cache[user_id] = await self.store.get_notify(user_id)

    def of(self, user_id: int) -> NotifyPrefs:
        return self.cache.get(user_id) or NotifyPrefs(user_id)
