"""Which Discord servers one bot process serves (docs/architecture.md §5).

Plain data with no dependencies: the configuration builds it, the store filters its
deadline queries by it and the table service its outage notices.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Shards", "EVERY_SHARD"]


@dataclass(frozen=True)
class Shards:
    """The servers one bot process serves: those on its Discord shards.

    Discord puts a server on shard `(guild_id >> 22) % count`; a process started with
    `shard_ids` serves those shards' tables, their deadlines and their outage notices
    (docs/architecture.md §5). A table with no server (the console's) belongs to shard 0.
    """

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {list(self.ids)} are not all between 0 and {self.count - 1}")

    @property
    def everything(self) -> bool:
        return set(self.ids) == set(range(self.count))

    @property
    def key(self) -> str:
        """Names this set of shards (its heartbeat); "" for a process that serves everything."""
        return "" if self.everything else f"{self.count}:{','.join(map(str, sorted(self.ids)))}"

    def owns(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return 0 in self.ids
        return (guild_id >> 22) % self.count in self.ids

    def sql(self, column: str = "t.guild_id") -> str:
        """The same test as `owns`, as an SQL condition (both dialects); always true for everything.
        Only integers go into it, never text from outside."""
        if self.everything:
            return "1=1"
        ids = ",".join(str(int(i)) for i in self.ids)
        null = f"{column} IS NULL" if 0 in self.ids else "1=0"
        return f"({null} OR (({column} >> 22) % {int(self.count)}) IN ({ids}))"


EVERY_SHARD = Shards()
