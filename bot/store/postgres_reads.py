"""The PostgreSQL store's reads by key, grouped: the lookups of the same moment in one query.

Loading a table reads its row, its seats and its deadlines, and its members' preferences;
when many tables are loaded at once (a process starting under load, every table acting),
those lookups would each cost a round trip. Lookups that arrive while the previous query
of their kind is in the database wait for it and then go together, in one query over
`= ANY($1)` (`group_commit.GroupCommit`, as the saves: postgres_saves.py). A lookup is
never answered from a query that began before it was asked, so it sees every save that
was committed before it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from .group_commit import GroupCommit

__all__ = ["GroupedReads"]


@dataclass(slots=True)
class _Lookup:
    key: int
    rows: list[asyncpg.Record] = field(default_factory=list)


class GroupedReads:
    """The rows of one key each, read by `sql` for many keys at once. `sql` takes the keys
    as `$1::bigint[]` and selects the key as its first column, in the order each key's rows
    are wanted."""

    def __init__(self, pool: asyncpg.Pool, sql: str):
        self._pool = pool
        self.sql = sql
        self._reads: GroupCommit[_Lookup] = GroupCommit(self._read)

    async def rows(self, key: int) -> list[asyncpg.Record]:
        """The rows of `key`, in the query's order."""
        lookup = _Lookup(key)
        await self._reads.submit(lookup)
        return lookup.rows

    async def _read(self, lookups: list[_Lookup]) -> Sequence[BaseException | None]:
        found: dict[Any, list[asyncpg.Record]] = defaultdict(list)
        for r in await self._pool.fetch(self.sql, list({x.key for x in lookups})):
            found[r[0]].append(r)
        for x in lookups:
            x.rows = found.get(x.key, [])
        return [None] * len(lookups)
