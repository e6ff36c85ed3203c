"""`backup` copies the SQLite database while the bot runs and proves the copy; `restore`
refuses while the bot holds the database, else puts the checked copy in its place and
keeps the old one; scheduled backups keep the newest few; PostgreSQL is sent to pg_dump."""

from __future__ import annotations

import io
import signal
import sqlite3
import time

import pytest

from bot.__main__ import main
from bot.tools.backup import BackupError, ScheduledBackups, check_copy, pg_dump_command

from .conftest import SETUP, actions_in, integrity

pytestmark = pytest.mark.processes


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), stdout=out), out.getvalue()


def test_a_backup_taken_while_the_bot_plays_is_whole_and_replays(clean_env, children, capsys):
    db = clean_env / "tables.sqlite3"
    child = children(["run", "--db", str(db)], clean_env)
    for line in SETUP:
        child.type(line)
    copies = []
    for n in range(3):
        child.type("auto 2")
        acknowledged = actions_in(db)
        target = clean_env / "backups" / f"copy-{n}.sqlite3"
        code, out = _run("backup", "--to", str(target), "--db", str(db))
        assert code == 0, capsys.readouterr().err
        assert "every started game replays (1 games)" in out
        assert actions_in(target) >= acknowledged  # nothing acknowledged is missing from the copy
        copies.append(target)
    assert child.stop(signal.SIGTERM)[0] == 0
    for copy in copies:
        assert integrity(copy) == [("ok",)]
        assert not copy.with_name(copy.name + "-wal").exists()  # one self-contained file


def test_a_damaged_copy_fails_the_check(clean_env):
    db = clean_env / "tables.sqlite3"
    script = clean_env / "s.txt"
    script.write_text("\n".join([*SETUP, "auto 4"]) + "\n", encoding="utf-8")
    assert main(["console", "--script", str(script), "--db", str(db)], stdout=io.StringIO()) == 0
    copy = clean_env / "copy.sqlite3"
    assert _run("backup", "--to", str(copy), "--db", str(db))[0] == 0
    conn = sqlite3.connect(copy)
    conn.execute("DELETE FROM actions WHERE idx = (SELECT MAX(idx) FROM actions)")  # an action lost
    conn.commit()
    conn.close()
    with pytest.raises(BackupError, match="does not replay"):
        check_copy(copy)
    code, _ = _run("restore", str(copy), "--db", str(db))
    assert code == 1  # the check failed: nothing replaced
    assert actions_in(db) == 4


def test_restore_is_refused_while_the_bot_runs_then_replaces_and_keeps_the_old(clean_env, children, capsys):
    db = clean_env / "tables.sqlite3"
    child = children(["run", "--db", str(db)], clean_env)
    for line in SETUP:
        child.type(line)
    child.type("auto 2")
    copy = clean_env / "copy.sqlite3"
    assert _run("backup", "--to", str(copy), "--db", str(db))[0] == 0
    child.type("auto 3")  # after the backup: five actions in the database, two in the copy
    code, _ = _run("restore", str(copy), "--db", str(db))
    assert code == 2 and "in use by another process" in capsys.readouterr().err
    assert actions_in(db) == 5
    assert child.stop(signal.SIGTERM)[0] == 0
    code, out = _run("restore", str(copy), "--db", str(db))
    assert code == 0, capsys.readouterr().err
    assert actions_in(db) == 2
    [kept] = clean_env.glob("tables.sqlite3-before-restore-*")
    assert actions_in(kept) == 5 and str(kept) in out
    # the bot starts on the restored file
    assert main(["console", "--db", str(db)], stdin=io.StringIO(""), stdout=io.StringIO()) == 0


def test_scheduled_backups_keep_the_newest(clean_env, monkeypatch):
    db = clean_env / "data" / "tables.sqlite3"
    script = clean_env / "s.txt"
    script.write_text("\n".join([*SETUP, "auto 2"]) + "\n", encoding="utf-8")
    assert main(["console", "--script", str(script), "--db", str(db)], stdout=io.StringIO()) == 0
    scheduled = ScheduledBackups(db, every_hours=24, keep=2)
    assert scheduled.due_in() == 0  # none yet: due now
    stamps = iter(["20260101-000000", "20260102-000000", "20260103-000000"])
    monkeypatch.setattr(time, "strftime", lambda fmt, t=None: next(stamps))
    for _ in range(3):
        scheduled.run_once()
    assert [p.name for p in scheduled.backups()] == ["tables-20260102-000000.sqlite3", "tables-20260103-000000.sqlite3"]
    assert scheduled.folder == db.parent / "backups"
    assert 23 * 3600 < scheduled.due_in() <= 24 * 3600


def test_postgres_is_backed_up_with_pg_dump_and_the_password_is_never_printed(clean_env, capsys):
    url = "postgresql://chancellery:s3cret@db.example.org:5432/tables"
    code, _ = _run("backup", "--to", "tables.dump", "--db", url)
    err = capsys.readouterr().err
    assert code == 2
    assert "pg_dump --format=custom --file=tables.dump postgresql://chancellery@db.example.org:5432/tables" in err
    assert "s3cret" not in err
    assert pg_dump_command("postgresql://u@h/d", "a b.dump") == "pg_dump --format=custom --file='a b.dump' postgresql://u@h/d"


def test_scheduled_backups_of_postgres_are_refused_in_the_configuration(clean_env, capsys):
    (clean_env / "config.toml").write_text(
        'database = "postgresql://u:p@h/d"\nbackup_every_hours = 24\n', encoding="utf-8"
    )
    assert main(["console"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert "pg_dump" in capsys.readouterr().err
