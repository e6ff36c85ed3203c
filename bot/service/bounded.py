"""Per-key state whose memory stays bounded however many channels and members the bot
meets (docs/architecture.md §3; docs/reliability.md).

A process that serves a server for months sees tens of thousands of channels and
members; a plain dict keyed by them grows by one entry for each, for ever. `LRU` keeps
the most recently used entries up to a size (a cache: a dropped entry is read again from
the store). `KeyedLocks` keeps a channel's lock only while someone holds it or waits for
it, which is exact: a lock nobody holds protects nothing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["LRU", "KeyedLocks"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(OrderedDict[K, V], Generic[K, V]):
    """A dict that forgets its least recently used entries beyond `maxsize`."""

    def __init__(self, maxsize: int):
        super().__init__()
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def get(self, key: K, default=None):  # type: ignore[override]
        if key in self:
            return self[key]
        return default

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.maxsize:
            self.popitem(last=False)


class _Held:
    """`async with locks.hold(key)`: the key's lock, and the count of its users."""

    __slots__ = ("_locks", "_key", "_entry")

    def __init__(self, locks: KeyedLocks, key: Hashable):
        self._locks = locks
        self._key = key
        self._entry: list | None = None

    async def __aenter__(self) -> None:
        entries = self._locks._entries
        entry = entries.get(self._key)
        if entry is None:
            entry = entries[self._key] = [asyncio.Lock(), 0]
        entry[1] += 1  # counted before the wait, so a waiter keeps the entry alive
        self._entry = entry
        try:
            await entry[0].acquire()
        except BaseException:
            self._release_entry()
            raise

    async def __aexit__(self, *exc: object) -> None:
        assert self._entry is not None
        self._entry[0].release()
        self._release_entry()

    def _release_entry(self) -> None:
        entry = self._entry
        assert entry is not None
        entry[1] -= 1
        if entry[1] == 0:
            del self._locks._entries[self._key]


class KeyedLocks:
    """One asyncio.Lock per key, kept only while it is held or awaited."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, list] = {}  # key -> [lock, holders and waiters]

    def hold(self, key: Hashable) -> _Held:
        return _Held(self, key)

    def __len__(self) -> int:
        return len(self._entries)

    def locked(self, key: Hashable) -> bool:
        entry = self._entries.get(key)
        return entry is not None and entry[0].locked()
