"""SIGTERM or SIGINT stops the Discord bot cleanly: a command in flight finishes and is saved,
a command that arrives after the signal is answered that the bot is restarting and is not
run, the database is closed intact, and the process exits 0 within the grace period.

The bot runs in a child process (tests/operations/discord_child.py): the real bot and
table service, the signal handling `run_discord` installs, SimCord in place of Discord's
gateway. The child holds one command inside the service, before its save, until the
signal has come and a second command has been answered."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.discord.client import STOPPING

from .conftest import ROOT, actions_in, child_env, integrity

pytestmark = pytest.mark.processes

GRACE = 8.0
START = 60.0  # seconds the child may take to start a table (imports, SimCord, the first save)


class DiscordChild:
    """tests/operations/discord_child.py in a process of its own, its steps read as they come."""

    def __init__(self, db: Path, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.operations.discord_child", str(db), str(GRACE)],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_env() | {"PYTHONPATH": str(ROOT)},
        )
        self.steps: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.steps.put(json.loads(line))

    def step(self, name: str, timeout: float) -> str | None:
        """Wait for the child to print step `name`; the text it printed with it."""
        try:
            got = self.steps.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            pytest.fail(f"no {name!r} step within {timeout} s:\n{self.proc.stderr.read().decode()[-3000:]}")
        assert got["step"] == name, got
        return got["text"]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def discord_child(clean_env):
    started: list[DiscordChild] = []

    def start(db: Path) -> DiscordChild:
        child = DiscordChild(db, clean_env)
        started.append(child)
        return child

    yield start
    for child in started:
        child.kill()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_command_in_flight_is_finished_and_a_new_one_refused(clean_env, discord_child, sig):
    db = clean_env / "tables.sqlite3"
    child = discord_child(db)
    child.step("started", START)
    child.step("in flight", START)
    assert actions_in(db) == 0  # alice's commit is held before its save

    sent = time.monotonic()
    child.proc.send_signal(sig)
    assert child.step("refused", GRACE) == STOPPING  # bob's commit, after the signal
    assert child.step("closed", GRACE) == "Done: Commit.\nYou committed 1."  # alice's, finished
    code = child.proc.wait(GRACE)
    seconds = time.monotonic() - sent
    assert code == 0, child.proc.stderr.read().decode()[-3000:]
    assert seconds < GRACE

    assert actions_in(db) == 1  # alice's commit saved; bob's never ran
    assert integrity(db) == [("ok",)]
    # closed cleanly: the write-ahead log was checkpointed into the file and removed
    assert not db.with_name(db.name + "-wal").exists()
