"""A database that cannot serve ends the start at once with one line naming the file and
the cause, and exit status 2 (docs/reliability.md)."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import subprocess
import threading

import pytest

from bot.__main__ import main
from bot.store import DatabaseUnusable, SqliteStore, open_store
from bot.store.guard import marker_path

from .conftest import PYTHON, in_namespace, namespace_reason


def _start(db, capsys) -> tuple[int, str]:
    code = main(["console", "--db", str(db)], stdin=io.StringIO(""), stdout=io.StringIO())
    return code, capsys.readouterr().err


async def _make_database(path, rows: int = 0):
    store = await open_store(path)
    await store.close()
    if rows:
        conn = sqlite3.connect(path)
        conn.executemany(
            "INSERT INTO notify_prefs (user_id, mode, timezone, quiet_hours, updated_at) VALUES (?,?,?,?,?)",
            [(i, "dm", "UTC" + " " * 200, None, 0.0) for i in range(rows)],
        )
        conn.commit()
        conn.close()


def test_a_file_that_is_not_sqlite_is_named_with_the_cause(clean_env, capsys):
    db = clean_env / "notes.sqlite3"
    db.write_text("these are my notes, not a database\n" * 10)
    code, err = _start(db, capsys)
    assert code == 2
    assert err.count("\n") == 1 and str(db) in err and "not an SQLite database" in err


def test_a_truncated_file_is_named_with_the_cause(clean_env, capsys):
    db = clean_env / "db.sqlite3"
    asyncio.run(_make_database(db))
    db.write_bytes(db.read_bytes()[:40])
    code, err = _start(db, capsys)
    assert code == 2 and str(db) in err and "truncated" in err


def test_a_damaged_table_is_named(clean_env, capsys):
    db = clean_env / "db.sqlite3"
    asyncio.run(_make_database(db, rows=300))
    conn = sqlite3.connect(db)
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name='notify_prefs'").fetchone()
    (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with db.open("r+b") as fh:  # scribble over the table's root page header
        fh.seek((root - 1) * page_size)
        fh.write(b"\x07" * 24)
    code, err = _start(db, capsys)
    assert code == 2 and str(db) in err
    assert "damaged: table notify_prefs" in err and "backup" in err


def test_a_folder_in_place_of_the_file_is_named(clean_env, capsys):
    db = clean_env / "db.sqlite3"
    db.mkdir()
    code, err = _start(db, capsys)
    assert code == 2 and "is a folder" in err


def test_the_process_exits_promptly_and_quietly(clean_env):
    """The reported fault: a traceback, then a process that never exits. A real process,
    so a thread left running would show as a timeout."""
    db = clean_env / "db.sqlite3"
    db.write_bytes(b"\x00" * 4096)
    done = subprocess.run(
        [PYTHON, "-m", "bot", "console", "--db", str(db)],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"chancellery: cannot start: {db}: not an SQLite database (the file does not begin with SQLite's header)"
    ]


async def test_a_failure_after_the_connection_opened_leaves_no_thread_behind(tmp_path, monkeypatch):
    """aiosqlite's thread kept the process alive after a failed start: it is closed."""

    def refuse(conn):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SqliteStore, "_prepare", staticmethod(refuse))
    before = set(threading.enumerate())
    with pytest.raises(DatabaseUnusable, match="disk I/O error"):
        await SqliteStore.open(tmp_path / "db.sqlite3")
    await asyncio.sleep(0.05)
    assert [t for t in threading.enumerate() if t not in before and t.is_alive()] == []


def test_a_missing_database_is_not_silently_replaced(clean_env, capsys):
    db = clean_env / "data" / "db.sqlite3"
    asyncio.run(_make_database(db))
    assert marker_path(db).exists()
    db.unlink()
    code, err = _start(db, capsys)
    assert code == 2 and "the file is missing" in err and "marker" in err
    assert not db.exists()  # nothing was created in its place
    db.write_bytes(b"")  # an empty file where the tables were is refused the same way
    code, err = _start(db, capsys)
    assert code == 2 and "the file is empty" in err
    marker_path(db).unlink()  # the operator's explicit choice: start with no tables
    code, _ = _start(db, capsys)
    assert code == 0


def test_a_first_run_creates_the_folder_and_the_marker(clean_env, capsys):
    db = clean_env / "new" / "db.sqlite3"
    code, _ = _start(db, capsys)
    assert code == 0 and db.exists() and marker_path(db).exists()


NO_NAMESPACE = namespace_reason()


@pytest.mark.processes
@pytest.mark.skipif(NO_NAMESPACE is not None, reason=f"read-only file system test: {NO_NAMESPACE}")
def test_read_only_folder_and_file(tmp_path):
    """On a read-only file system (root passes every permission check, so a mount is the
    honest way): a new database, an existing one, and an existing read-only file in a
    writable folder are each refused with the cause."""
    fs = tmp_path / "fs"
    fs.mkdir()
    run = f"{PYTHON} -m bot console --db"
    done = in_namespace(
        f"""
        cd {tmp_path}
        mount -t tmpfs tmpfs {fs}
        {run} {fs}/db.sqlite3 </dev/null >/dev/null
        cp {fs}/db.sqlite3 {fs}/lone.sqlite3
        mount -o remount,ro {fs}
        set +e
        {run} {fs}/db.sqlite3 </dev/null; echo "exit $?" >&2
        {run} {fs}/fresh.sqlite3 </dev/null; echo "exit $?" >&2
        mkdir {tmp_path}/rw && cp {fs}/lone.sqlite3 {tmp_path}/rw/lone.sqlite3
        touch {tmp_path}/rw/lone.sqlite3-marker
        mount --bind {tmp_path}/rw/lone.sqlite3 {tmp_path}/rw/lone.sqlite3
        mount -o remount,ro,bind {tmp_path}/rw/lone.sqlite3
        {run} {tmp_path}/rw/lone.sqlite3 </dev/null; echo "exit $?" >&2
        """
    )
    lines = done.stderr.strip().splitlines()
    assert lines[1::2] == ["exit 2", "exit 2", "exit 2"], done.stderr
    assert f"{fs}/db.sqlite3: read-only" in lines[0] and "Read-only file system" in lines[0]
    assert f"{fs}/fresh.sqlite3: its folder" in lines[2]
    assert f"{tmp_path}/rw/lone.sqlite3: read-only" in lines[4]
