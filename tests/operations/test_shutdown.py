"""SIGTERM or SIGINT stops the bot cleanly: what is in flight finishes, the database is
closed intact with every acknowledged action in it, and the process exits 0 within the
grace period (`shutdown_grace_seconds`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pty
import select
import signal
import sys
import time

import pytest

from bot.store import open_store
from bot.store.records import record_from_store, replay
from engine import games

from .conftest import PROMPT, ROOT, SETUP, actions_in, child_env, integrity

pytestmark = pytest.mark.processes

GRACE = 5.0


def _replays(db) -> bool:
    async def check() -> bool:
        store = await open_store(db)
        try:
            record = await record_from_store(store, 1)
            return replay(games.get(record.game), record).ok
        finally:
            await store.close()

    return asyncio.run(check())


def test_sigterm_at_the_prompt_exits_0_with_every_acknowledged_action_kept(clean_env, children):
    db = clean_env / "data" / "tables.sqlite3"
    child = children(["run", "--db", str(db)], clean_env, shutdown_grace_seconds=str(GRACE))
    for line in SETUP:
        child.type(line)
    for _ in range(6):
        child.type("auto 1")  # acknowledged: the console answered and prompts again
    acknowledged = actions_in(db)
    assert acknowledged >= 6
    code, seconds = child.stop(signal.SIGTERM)
    assert code == 0, child.proc.stderr.read().decode()
    assert seconds < GRACE
    assert integrity(db) == [("ok",)]
    assert actions_in(db) == acknowledged
    assert _replays(db)
    # closed cleanly: the write-ahead log was checkpointed into the file and removed
    assert not db.with_name(db.name + "-wal").exists()


def test_sigint_at_the_prompt_also_exits_0(clean_env, children):
    db = clean_env / "tables.sqlite3"
    child = children(["run", "--db", str(db)], clean_env)
    for line in SETUP:
        child.type(line)
    code, _ = child.stop(signal.SIGINT)
    assert code == 0
    assert integrity(db) == [("ok",)]


def test_a_line_in_flight_is_finished_before_the_console_stops(clean_env, children):
    """SIGTERM lands while `auto 30` plays thirty moves: all thirty are played and saved,
    and the script's next line never runs."""
    db = clean_env / "tables.sqlite3"
    script = clean_env / "script.txt"
    script.write_text("\n".join([*SETUP, "auto 30", *["wait 1"] * 200]) + "\n", encoding="utf-8")
    child = children(
        ["console", "--script", str(script), "--db", str(db)], clean_env, shutdown_grace_seconds="20"
    )
    child.wait_for(lambda: "> auto 30" in child.text())
    code, seconds = child.stop(signal.SIGTERM, timeout=30)
    assert code == 0, child.proc.stderr.read().decode()
    assert seconds < 20
    assert "> wait 1" not in child.text()  # stopped before the next line
    assert actions_in(db) == 30
    assert integrity(db) == [("ok",)]
    assert _replays(db)


def test_without_a_signal_a_script_runs_to_its_end(clean_env, children):
    """The stop machinery changes nothing when no signal comes."""
    db = clean_env / "tables.sqlite3"
    script = clean_env / "script.txt"
    script.write_text("\n".join([*SETUP, "auto 3", "wait 1"]) + "\n", encoding="utf-8")
    child = children(["console", "--script", str(script), "--db", str(db)], clean_env)
    assert child.proc.wait(60) == 0
    assert "> wait 1" in child.text()
    assert actions_in(db) >= 3


def _typed_in_flight(clean_env, children, line: str):
    """The console reading typed lines from a pipe, running `line` with the next line
    already typed behind it; returns once `line` has saved its first move."""
    db = clean_env / "tables.sqlite3"
    child = children(["console", "--db", str(db)], clean_env, shutdown_grace_seconds="30")
    for setup in SETUP:
        child.type(setup)
    child.proc.stdin.write(f"{line}\nauto 5\n".encode())
    child.proc.stdin.flush()
    child.wait_for(lambda: actions_in(db) >= 1)
    return child, db


def test_ctrl_c_during_a_typed_line_finishes_it_then_stops(clean_env, children):
    """Ctrl-C (SIGINT) at the interactive console while `auto 60` runs, as SIGTERM: all
    sixty moves are played and saved, and the line typed after it is never run."""
    child, db = _typed_in_flight(clean_env, children, "auto 60")
    assert actions_in(db) < 50  # the signal lands mid-line
    code, seconds = child.stop(signal.SIGINT, timeout=30)
    assert code == 0, child.proc.stderr.read().decode()
    assert seconds < 30
    assert actions_in(db) == 60
    assert integrity(db) == [("ok",)]
    assert _replays(db)


def test_a_second_ctrl_c_stops_at_once(clean_env, children):
    """A second Ctrl-C does not wait for the line: the console stops mid-line, and what it
    saved is whole (the database intact, the game replays)."""
    child, db = _typed_in_flight(clean_env, children, "auto 200")
    child.proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    code, seconds = child.stop(signal.SIGINT, timeout=10)
    assert code == 0, child.proc.stderr.read().decode()
    assert seconds < 5
    assert actions_in(db) < 200
    assert integrity(db) == [("ok",)]
    assert _replays(db)


class Terminal:
    """`python -m bot ARGS` at a pseudo-terminal (it reads with input(), as for a person),
    its output read as it comes so that the console never blocks on a full terminal."""

    def __init__(self, args: list[str], cwd) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            try:
                os.chdir(cwd)
                env = child_env() | {"PYTHONPATH": str(ROOT)}
                os.execve(sys.executable, [sys.executable, "-m", "bot", *args], env)
            finally:
                os._exit(127)
        self.seen = bytearray()
        self.closed = False

    def read_until(self, done, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < end and not self.closed, self.seen.decode(errors="replace")[-2000:]
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    self.seen.extend(os.read(self.fd, 65536))
                except OSError:  # the console closed the terminal: it exited
                    self.closed = True

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exit_code(self, timeout: float) -> int:
        self.read_until(lambda: self.closed, timeout)
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def test_ctrl_c_at_a_terminal_finishes_the_line_and_runs_none_typed_ahead(clean_env):
    """Ctrl-C typed at a terminal while `auto 60` runs, with `auto 5` typed ahead: the
    prompt returns the typed line at once, and the console stops without running it."""
    db = clean_env / "tables.sqlite3"
    term = Terminal(["console", "--db", str(db)], clean_env)
    try:
        for line in SETUP:
            term.read_until(lambda: term.seen.endswith(PROMPT))
            term.seen.clear()
            term.type(line.encode() + b"\r")
        term.read_until(lambda: term.seen.endswith(PROMPT))
        term.type(b"auto 60\r")
        term.read_until(lambda: actions_in(db) >= 1)
        assert actions_in(db) < 50  # the Ctrl-C lands mid-line
        term.type(b"\x03auto 5\r")  # Ctrl-C, then the next line typed ahead
        start = time.monotonic()
        code = term.exit_code(timeout=30)
        seconds = time.monotonic() - start
    finally:
        term.kill()
    assert code == 0
    assert seconds < 30
    assert actions_in(db) == 60
    assert integrity(db) == [("ok",)]
