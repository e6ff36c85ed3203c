"""`python -m bot backup --to FILE` and `python -m bot restore FILE`: copies of the SQLite
database that are proven before anyone relies on them, and scheduled backups.

A backup is taken with SQLite's online backup API while the bot may be running (one
step: a consistent snapshot of what was committed, read through the write-ahead log;
the bot's writes go on meanwhile). The copy is made one self-contained file (no
write-ahead log beside it), then checked: `PRAGMA integrity_check`, and every started
game's record, built from the copy, replays to the state the copy holds (as `migrate`
checks a PostgreSQL copy). Only a copy that checks out takes the file's name.

A restore checks the copy the same way, refuses while another process holds the
database (an exclusive lock on it is tried: every open connection holds a shared one),
keeps the database it replaces beside it (`<file>-before-restore-<time>`), and puts the
copy in its place.

PostgreSQL is backed up with its own tools: `pg_dump_command` says how.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from engine import games

from ..store import SqliteStore
from ..store.records import ReplayError, record_from_store, replay

__all__ = [
    "BackupError",
    "BackupRefused",
    "Checked",
    "backup",
    "check_copy",
    "restore",
    "pg_dump_command",
    "ScheduledBackups",
    "BACKUP_FOLDER",
]

log = logging.getLogger(__name__)

BACKUP_FOLDER = "backups"  # scheduled backups go into this folder beside the database


class BackupError(Exception):
    """The copy did not check out; str() says why."""


class BackupRefused(BackupError):
    """Nothing was done: the source, the target or the database's state forbids it."""


@dataclass
class Checked:
    path: Path
    tables: int = 0
    games_replayed: int = 0

    def __str__(self) -> str:
        return (
            f"{self.path}: integrity_check ok, {self.tables} tables, every started game replays "
            f"({self.games_replayed} games)"
        )


def _uri(path: Path, mode: str) -> str:
    return f"{path.resolve().as_uri()}?mode={mode}"


def check_copy(path: Path) -> Checked:
    """Check a copy of the database: SQLite's integrity_check, and every started game's
    record replays to the state the copy holds. BackupError says what failed. The copy is
    only read."""
    result = Checked(path)
    try:
        conn = sqlite3.connect(_uri(path, "ro"), uri=True, isolation_level=None)
        try:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
            if rows != [("ok",)]:
                first = "; ".join(str(r[0]) for r in rows[:3])
                raise BackupError(f"{path}: integrity_check failed ({first})")
            result.tables = conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
            started = [r[0] for r in conn.execute("SELECT channel_id FROM tables WHERE state IS NOT NULL")]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise BackupError(f"{path}: not a Chancellery database ({exc})") from None
    result.games_replayed = asyncio.run(_replay_all(path, started))
    return result


async def _replay_all(path: Path, channels: list[int]) -> int:
    db = await aiosqlite.connect(_uri(path, "ro"), uri=True, isolation_level=None)
    store = SqliteStore(db, path)
    try:
        for channel_id in channels:
            try:
                record = await record_from_store(store, channel_id)
                checked = replay(games.get(record.game), record)
            except ReplayError as exc:
                raise BackupError(f"the game in channel {channel_id} does not replay on the copy: {exc}") from None
            if not checked.ok:
                raise BackupError(f"the game in channel {channel_id} does not replay on the copy: {checked}")
    finally:
        await store.close()
    return len(channels)


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """SQLite's online backup of `source` into `target`, made one self-contained file."""
    dest = sqlite3.connect(target, isolation_level=None)
    try:
        source.backup(dest)  # all pages in one step: one consistent snapshot
        dest.execute("PRAGMA journal_mode=DELETE")
    finally:
        dest.close()
    with open(target, "rb+") as fh:
        os.fsync(fh.fileno())


def _remove(path: Path) -> None:
    for p in (path, path.with_name(path.name + "-journal")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def backup(database: Path, target: Path) -> Checked:
    """Copy `database` to `target` while the bot may be using it, and check the copy; an
    existing `target` is replaced only by a copy that checks out."""
    if not database.is_file():
        raise BackupRefused(f"{database}: no such database file")
    if target.exists() and target.resolve() == database.resolve():
        raise BackupRefused(f"{target} is the database itself; name another file")
    if target.is_dir():
        raise BackupRefused(f"{target} is a folder; name the backup file")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupRefused(f"cannot create {target.parent} ({exc.strerror})") from None
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        try:
            source = sqlite3.connect(_uri(database, "rw"), uri=True, isolation_level=None)
            try:
                source.execute("PRAGMA busy_timeout=5000")
                _copy(source, partial)
            finally:
                source.close()
        except OSError as exc:
            raise BackupRefused(f"cannot write {target} ({exc.strerror})") from None
        except sqlite3.Error as exc:
            raise BackupError(f"cannot copy {database} ({exc})") from None
        checked = check_copy(partial)
        os.replace(partial, target)
    finally:
        _remove(partial)
    checked.path = target
    return checked


def restore(database: Path, source: Path) -> tuple[Checked, Path | None]:
    """Put the checked copy `source` in place of `database`; returns the check and where
    the database it replaced was kept (None when there was none). Refused while another
    process holds the database."""
    if not source.is_file():
        raise BackupRefused(f"{source}: no such backup file")
    if database.exists() and source.resolve() == database.resolve():
        raise BackupRefused(f"{source} is the database itself")
    checked = check_copy(source)
    stage = database.with_name(f".{database.name}.restoring-{os.getpid()}")
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
        copy = sqlite3.connect(_uri(source, "ro"), uri=True, isolation_level=None)
        try:
            _copy(copy, stage)
        finally:
            copy.close()
        kept = _set_aside(database) if database.exists() else None
        os.replace(stage, database)
    except OSError as exc:
        raise BackupRefused(f"cannot write beside {database} ({exc.strerror})") from None
    finally:
        _remove(stage)
    return checked, kept


def _set_aside(database: Path) -> Path:
    """Copy the current database (with what its write-ahead log holds) beside it, while
    holding it exclusively; BackupRefused if another process has it open."""
    conn = sqlite3.connect(_uri(database, "rw"), uri=True, isolation_level=None, timeout=0)
    try:
        try:
            conn.execute("PRAGMA locking_mode=EXCLUSIVE")
            conn.execute("BEGIN EXCLUSIVE")  # fails while any other connection has the file open
            conn.execute("COMMIT")  # the exclusive lock stays until the connection closes
        except sqlite3.OperationalError as exc:
            raise BackupRefused(
                f"{database} is in use by another process (a running bot?): stop it first ({exc})"
            ) from None
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        kept = database.with_name(f"{database.name}-before-restore-{stamp}")
        _copy(conn, kept)
    finally:
        conn.close()  # the last connection: its write-ahead log is checkpointed and removed
    for stale in (database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")):
        stale.unlink(missing_ok=True)  # they belong to the file being replaced
    return kept


def pg_dump_command(url: str, target: Path | str) -> str:
    """The pg_dump line that backs up the PostgreSQL database at `url` into `target`,
    with the password left out of it (pg_dump reads PGPASSWORD or ~/.pgpass)."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    if len(netloc) == 2:
        user = netloc[0].split(":", 1)[0]
        parts = parts._replace(netloc=f"{user}@{netloc[1]}")
    return f"pg_dump --format=custom --file={shlex.quote(str(target))} {shlex.quote(urlunsplit(parts))}"


class ScheduledBackups:
    """Every `every_hours`, a checked backup into `backups/` beside the database, named
    `<name>-<UTC time>.sqlite3`; the newest `keep` are kept. Runs on a thread of its own
    (the copy and the replays are blocking work), so it serves the console too, whose
    event loop waits at its prompt. The first backup is due `every_hours` after the
    newest one found, so restarts do not put it off."""

    RETRY = 3600.0  # seconds to the next try after a failed backup (at most every_hours)

    def __init__(self, database: Path, every_hours: float, keep: int) -> None:
        self.database = database
        self.every = every_hours * 3600.0
        self.keep = keep
        self.folder = database.parent / BACKUP_FOLDER
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def from_config(cls, config: Any, database: Path | str) -> ScheduledBackups | None:
        """Started when `backup_every_hours` is set and the database is an SQLite file."""
        every = getattr(config, "backup_every_hours", None)
        if every is None or not isinstance(database, Path):
            return None
        scheduled = cls(database, every, getattr(config, "backup_keep", 7))
        scheduled.start()
        return scheduled

    def backups(self) -> list[Path]:
        """The scheduled backups, oldest first."""
        prefix = f"{self.database.stem}-"
        found = self.folder.glob(f"{prefix}*.sqlite3") if self.folder.is_dir() else []
        return sorted(p for p in found if p.name[len(prefix) :][:8].isdigit())

    def due_in(self, now: float | None = None) -> float:
        now = time.time() if now is None else now
        made = self.backups()
        return 0.0 if not made else max(0.0, made[-1].stat().st_mtime + self.every - now)

    def run_once(self) -> Checked:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        checked = backup(self.database, self.folder / f"{self.database.stem}-{stamp}.sqlite3")
        for old in self.backups()[: -self.keep]:
            old.unlink(missing_ok=True)
        return checked

    def _loop(self) -> None:
        from ..process import metrics

        wait = self.due_in()
        while not self._stop.wait(wait):
            try:
                checked = self.run_once()
            except Exception as exc:  # a failed backup must not stop the bot; the log says why
                log.error("scheduled backup of %s failed: %s", self.database, exc)
                metrics.backup_made(False)
                wait = min(self.every, self.RETRY)
                continue
            log.info("scheduled backup: %s", checked)
            metrics.backup_made(True)
            wait = self.due_in()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="chancellery-backups", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop scheduling; a backup under way is given `timeout` seconds to finish."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
