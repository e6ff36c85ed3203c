"""Start-up and running checks of the SQLite file (docs/architecture.md §4; docs/reliability.md).

Before the store opens a file, `check_database` makes sure it is one the bot can use: a
file that is not SQLite, is truncated or damaged, cannot be read or written, or sits in a
read-only folder ends the start with one line naming the file and the cause
(`DatabaseUnusable`), instead of a traceback and a process that never exits.

A database is never silently replaced by an empty one. Once the store has opened a
file, a marker beside it (`<file>-marker`) records that tables were kept there; a start
that finds the marker but not the file (or an empty file) refuses, and says how to go on.
While the bot runs, `DatabaseWatch` notices the file being removed or replaced (every
commit and every heartbeat look): from then on nothing more is acknowledged, and the
rows still reachable through the open connection are copied beside the marker so an
operator can put them back.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path

from ..process.runtime import CannotStart
from .base import StoreError

__all__ = [
    "DatabaseUnusable",
    "DatabaseLost",
    "DatabaseWatch",
    "check_database",
    "mark_database",
    "marker_path",
    "LOST_MESSAGE",
]

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"
HEADER_SIZE = 100  # SQLite's database header; a shorter file cannot be a database

# What a player reads once the file is gone: said plainly, no path (they cannot act on it).
LOST_MESSAGE = (
    "The bot's database was removed while it was running, so nothing more can be saved. "
    "Your last action may not have been kept. The bot's operator has been told; "
    "please wait until it is restored."
)


# What a player reads when the disk is full: nothing was saved, said plainly.
FULL_MESSAGE = (
    "The bot's disk is full, so this was not saved and nothing changed. "
    "The bot's operator has been told; please try again later."
)


class DatabaseUnusable(StoreError, CannotStart):
    """The file cannot serve as the bot's database; the text names the file and the cause."""

    def __init__(self, path: Path, cause: str):
        self.path = path
        self.cause = cause
        super().__init__(f"{path}: {cause}")


class DatabaseLost(StoreError):
    """The database file was removed or replaced while the bot ran; nothing more is saved."""

    def __str__(self) -> str:
        return LOST_MESSAGE


def marker_path(path: Path) -> Path:
    return path.with_name(path.name + "-marker")


def _read_marker(marker: Path) -> dict:
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def check_database(path: Path) -> None:
    """Refuse, with DatabaseUnusable, a file the store must not open. Creates the folder of
    a first run. Costs one small read and SQLite's quick_check (milliseconds for a
    database of thousands of games)."""
    marker = marker_path(path)
    if path.is_dir():
        raise DatabaseUnusable(path, "this is a folder, not a database file")
    if not path.exists():
        if marker.exists():
            raise DatabaseUnusable(path, _missing(marker, "the file is missing"))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnusable(path, f"cannot create its folder ({exc.strerror})") from None
        _check_folder_writable(path)
        return
    try:
        with path.open("rb") as fh:
            header = fh.read(HEADER_SIZE)
    except OSError as exc:
        raise DatabaseUnusable(path, f"cannot read it ({exc.strerror})") from None
    if not header:
        if marker.exists():
            raise DatabaseUnusable(path, _missing(marker, "the file is empty"))
        _check_folder_writable(path)
        return  # SQLite treats an empty file as a new database
    if not header.startswith(SQLITE_HEADER):
        raise DatabaseUnusable(path, "not an SQLite database (the file does not begin with SQLite's header)")
    if len(header) < HEADER_SIZE:
        raise DatabaseUnusable(path, f"truncated: {len(header)} bytes, shorter than SQLite's header")
    try:  # tried, as the folder is: root passes os.access on a read-only mount
        os.close(os.open(path, os.O_RDWR))
    except OSError as exc:
        raise DatabaseUnusable(path, f"read-only: the bot must be able to write to it ({exc.strerror})") from None
    _check_folder_writable(path)
    _quick_check(path)


def _missing(marker: Path, what: str) -> str:
    data = _read_marker(marker)
    since = data.get("created_at")
    when = f" since {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(since))}" if since else ""
    rescued = data.get("rescued")
    restore = f"Restore it from a backup or from the copy saved at {rescued}" if rescued else "Restore it from a backup"
    return (
        f"{what}, but {marker} says the bot kept its tables here{when}; refusing to start an empty "
        f"database in its place. {restore}, or delete {marker.name} to start with no tables"
    )


def _check_folder_writable(path: Path) -> None:
    """SQLite's write-ahead log lives in files beside the database: the folder must take
    new files. Tried, not os.access: root passes os.access on a read-only file system."""
    probe = path.with_name(f".{path.name}-probe-{os.getpid()}")
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise DatabaseUnusable(
            path, f"its folder {path.parent} does not accept new files ({exc.strerror}); "
            "the bot must be able to write the database and its journal there"
        ) from None


def _quick_check(path: Path) -> None:
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise DatabaseUnusable(path, f"cannot open it for writing ({exc})") from None
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        rows = conn.execute("PRAGMA quick_check").fetchall()
        if rows != [("ok",)]:
            raise DatabaseUnusable(path, _damage(conn, rows))
    except sqlite3.Error as exc:
        cause = _sqlite_cause(exc)
        if cause.startswith("damaged"):
            cause = _damage(conn, [(str(exc),)])
        raise DatabaseUnusable(path, cause) from None
    finally:
        conn.close()


def _sqlite_cause(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return "read-only: the bot must be able to write to it"
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return f"damaged ({text}); restore it from a backup"
    return f"cannot use it ({text})"


def _damage(conn: sqlite3.Connection, rows: list[tuple]) -> str:
    """Which tables fail the check, by name (quick_check(TABLE) checks one table)."""
    first = str(rows[0][0]).replace("\n", " ")
    damaged = []
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    except sqlite3.Error:
        names = []  # the schema itself is unreadable: the whole file is named
    for name in names:
        try:
            ok = conn.execute(f"PRAGMA quick_check({_quoted(name)})").fetchall() == [("ok",)]
        except sqlite3.Error:
            ok = False
        if not ok:
            damaged.append(name)
    where = f"table {', '.join(damaged)}" if damaged else "the file"
    return f"damaged: {where} failed SQLite's quick_check ({first}); restore it from a backup"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def mark_database(path: Path) -> None:
    """Record beside the database that tables are kept in it (once; the marker stays)."""
    marker = marker_path(path)
    if marker.exists():
        return
    data = {
        "database": path.name,
        "created_at": time.time(),
        "note": "Written by Chancellery: a database with tables is kept beside this file. "
        "The bot refuses to start an empty database here while this marker exists.",
    }
    tmp = marker.with_name(marker.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, marker)


class DatabaseWatch:
    """Notices the open database file being removed or replaced.

    `check()` is a stat of the path compared with the file the connection opened (about
    a microsecond): the store calls it after every commit, so a save that landed in a
    removed file is not acknowledged, and on every heartbeat, so an idle bot notices too.
    """

    def __init__(self, path: Path):
        self.path = path
        st = os.stat(path)
        self._identity = (st.st_dev, st.st_ino)
        self.lost: str | None = None  # why, once noticed (for the log)

    def check(self) -> bool:
        """True while the file is still the one opened."""
        if self.lost is not None:
            return False
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self.lost = "removed" if self.path.parent.exists() else "removed with its folder"
            return False
        except OSError:
            return True  # a transient error is not a loss; the next look decides
        if (st.st_dev, st.st_ino) != self._identity:
            self.lost = "replaced by another file"
            return False
        return True

    def rescue(self, conn: sqlite3.Connection) -> Path | None:
        """Copy what the open connection still reaches to `<file>-rescued-<time>` and note
        it in the marker (recreating the folder if it went), so the next start refuses
        with the way back. Runs on the connection's thread."""
        folder = self.path.parent
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        target = self.path.with_name(f"{self.path.name}-rescued-{stamp}")
        rescued: Path | None = target  # None when the copy could not be made
        try:
            folder.mkdir(parents=True, exist_ok=True)
            copy = sqlite3.connect(target)
            try:
                conn.backup(copy)
            finally:
                copy.close()
        except (OSError, sqlite3.Error):
            log.exception("could not copy the lost database to %s", target)
            rescued = None
        try:
            marker = marker_path(self.path)
            data = _read_marker(marker) or {"database": self.path.name, "created_at": time.time()}
            data.update(lost_at=time.time(), lost=self.lost, rescued=str(rescued) if rescued else None)
            marker.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        except OSError:
            log.exception("could not write the marker beside %s", self.path)
        return rescued
