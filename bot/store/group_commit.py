"""Group commit for both stores, and background checkpoints for the SQLite store.

Saves that arrive while the database is busy with a batch wait for it and then go
together in one transaction: under load the commit, the pages it writes and the trip to
the database thread (SQLite) or the server (PostgreSQL, postgres_saves.py) are paid once
per batch, not once per save. Each caller still returns only after its own save is
committed, and a save that fails fails only its own caller (the store runs a failed batch
again one save at a time). The PostgreSQL store groups its reads by key the same way
(postgres_reads.py).

Checkpoints copy the write-ahead log back into the database file, with an fsync.
SQLite's automatic checkpoint runs inside the commit that crosses its limit, and every
save in that batch waits for it; `Checkpoints` runs them on a thread of its own instead,
beside the writes.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Generic, TypeVar

__all__ = [
    "GroupCommit",
    "Checkpoints",
    "CHECKPOINT_EVERY",
    "CHECKPOINT_EVERY_COMMITS",
    "WAL_SAFETY_PAGES",
]

log = logging.getLogger(__name__)
W = TypeVar("W")

# A background checkpoint after this many saves, or this many commits if sooner (a
# commit of one save writes a few pages, a batch's far fewer per save). SQLite's own
# automatic checkpoint stays as a safety net, at a log size the background one keeps it
# from reaching.
CHECKPOINT_EVERY = 500
CHECKPOINT_EVERY_COMMITS = 200
WAL_SAFETY_PAGES = 10_000


class GroupCommit(Generic[W]):
    """Queues writes and hands them to `write_batch` in batches, one batch at a time.

    `write_batch` gets every write queued since the last batch began and returns, for
    each, None or the exception its caller should see. `after_batch` is told how many
    writes a batch committed or refused.
    """

    def __init__(
        self,
        write_batch: Callable[[list[W]], Awaitable[Sequence[BaseException | None]]],
        after_batch: Callable[[int], None] = lambda count: None,
    ):
        self._write_batch = write_batch
        self._after_batch = after_batch
        self._queued: list[tuple[W, asyncio.Future[None]]] = []
        self._writer: asyncio.Future[None] | None = None  # drains _queued while writes arrive

    async def submit(self, write: W) -> None:
        """Return once `write` is committed; raise what refused it."""
        done = asyncio.get_running_loop().create_future()
        self._queued.append((write, done))
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._drain())
            self._writer.add_done_callback(self._stopped)
        await done

    async def _drain(self) -> None:
        batch: list[tuple[W, asyncio.Future[None]]] = []
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                try:
                    failures = await self._write_batch([w for w, _ in batch])
                except Exception as exc:  # the connection itself failed (closed, say)
                    failures = [exc] * len(batch)
                for (_, done), failure in zip(batch, failures, strict=True):
                    if done.done():  # its caller was cancelled; the outcome stays in the database
                        continue
                    if failure is None:
                        done.set_result(None)
                    else:
                        done.set_exception(failure)
                self._after_batch(len(batch))
                batch = []
        except asyncio.CancelledError:  # the loop is shutting down: nobody will write these
            self._cancel(batch + self._queued)
            raise
        finally:
            self._writer = None

    def _stopped(self, writer: asyncio.Future[None]) -> None:
        if self._writer is writer:  # cancelled before its first step: _drain never ran
            self._writer = None
            self._cancel(self._queued)

    def _cancel(self, waiting: list[tuple[W, asyncio.Future[None]]]) -> None:
        for _, done in waiting:
            done.cancel()
        self._queued = []


class Checkpoints:
    """PASSIVE checkpoints of the database at `path` on a thread of their own, after
    every CHECKPOINT_EVERY saves or CHECKPOINT_EVERY_COMMITS commits: each copies what is
    committed and neither waits for nor blocks the writer."""

    def __init__(self, path: Path):
        self.path = path
        self._saves = 0
        self._commits = 0
        self._running: asyncio.Future[None] | None = None
        self._conn: sqlite3.Connection | None = None  # used on the checkpoint thread only

    def saved(self, count: int, commits: int = 1) -> None:
        self._saves += count
        self._commits += commits
        due = self._saves >= CHECKPOINT_EVERY or self._commits >= CHECKPOINT_EVERY_COMMITS
        if due and self._running is None:
            self._saves = self._commits = 0
            self._running = asyncio.ensure_future(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            await asyncio.to_thread(self._checkpoint_now)
        except Exception:  # a missed checkpoint is made up by the next, or by SQLite's own
            log.warning("background checkpoint of %s failed", self.path, exc_info=True)
        finally:
            self._running = None

    def _checkpoint_now(self) -> None:
        if self._conn is None:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA busy_timeout=5000")
        # fetched to the end: a statement left open would keep a read transaction open,
        # and the log could then never start over from its beginning
        self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    async def close(self) -> None:
        if self._running is not None:
            await self._running
        if self._conn is not None:
            self._conn.close()
            self._conn = None
