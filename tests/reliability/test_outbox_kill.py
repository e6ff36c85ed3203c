"""kill -9 between a save and its delivery loses no post (docs/reliability.md, "Every post
an acknowledged action asks for is delivered").

A child process (outbox_driver.py) plays a two-player Crisis: 1914 table through the table
service with the console as its front end, and is killed right after an answer that tells
the other player it is their turn was acknowledged, before the console printed it. The
console started again on the same database prints that turn notice, once, and nothing the
killed process had printed already; the outbox is empty afterwards.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]


def _killed_after_the_save(db: Path) -> tuple[dict, str]:
    """The child's acknowledged notice and what it printed before it was killed."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.outbox_driver", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    printed = []
    try:
        for line in child.stdout:  # type: ignore[union-attr]
            if line.startswith("ACK "):
                ack = json.loads(line[4:])
                break
            printed.append(line)
        else:
            raise AssertionError("the child ended without acknowledging a turn notice")
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    return ack, "".join(printed)


def _console_started_again(db: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """The console on the same database, with nothing to do but what it finds waiting."""
    script = tmp_path / "nothing.txt"
    script.write_text("", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db), "--script", str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_turn_notice_saved_but_not_said_before_a_kill_is_said_once_after_the_restart(tmp_path):
    db = tmp_path / "tables.sqlite3"
    ack, printed_before = _killed_after_the_save(db)
    with sqlite3.connect(db) as conn:
        waiting = conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
    assert waiting >= 1  # the answer's posts were stored with its save

    restarted = _console_started_again(db, tmp_path)
    assert restarted.returncode == 0, restarted.stderr
    out = restarted.stdout
    assert out.count(ack["line"]) == 1, out  # said once
    assert ack["line"] not in printed_before  # and not by the process that was killed
    first_line = printed_before.strip().splitlines()[0]
    assert first_line not in out  # what the killed process printed is not printed again
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0

    again = _console_started_again(db, tmp_path)
    assert ack["line"] not in again.stdout  # a second start has nothing left to say
