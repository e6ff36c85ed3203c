"""Fixtures for the operations tests: a clean environment, and the bot run as a child
process (`python -m bot run` with no token opens the console) that lines are typed into."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROMPT = b"you> "  # the console's prompt (the default user)
SETUP = (
    "as alice /game new game:crisis1914",
    "as bob /game join",
    "as carol /game join",
    "as alice /game start seed:3",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """No token or CHANCELLERY_* settings leak in from the machine, and no ./config.toml."""
    for key in list(os.environ):
        if key == "DISCORD_TOKEN" or key.startswith("CHANCELLERY_"):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def child_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("CHANCELLERY_")}
    env["PYTHONUNBUFFERED"] = "1"
    env.update({f"CHANCELLERY_{k.upper()}": v for k, v in settings.items()})
    return env


class Child:
    """`python -m bot ARGS` as a child process whose output is collected as it comes."""

    def __init__(self, args: list[str], cwd: Path, **settings: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", *args],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_env(**settings) | {"PYTHONPATH": str(ROOT)},
        )
        self.out = bytearray()
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while chunk := self.proc.stdout.read1(65536):
            with self._lock:
                self.out.extend(chunk)

    def text(self) -> str:
        with self._lock:
            return self.out.decode(errors="replace")

    def wait_for(self, done, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not done():
            assert self.proc.poll() is None, f"the child ended: {self.proc.returncode}\n{self.text()[-2000:]}"
            assert time.monotonic() < end, f"timed out; output so far:\n{self.text()[-2000:]}"
            time.sleep(0.01)

    def at_prompt(self) -> bool:
        with self._lock:
            return self.out.endswith(PROMPT)

    def type(self, line: str) -> None:
        """Type a line at the prompt and wait until the console answered it (the next prompt)."""
        self.wait_for(self.at_prompt)
        with self._lock:
            before = len(self.out)
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        self.wait_for(lambda: len(self.out) > before and self.at_prompt())

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> tuple[int, float]:
        """Send `sig`; the exit status and the seconds it took to exit."""
        start = time.monotonic()
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout)
        return code, time.monotonic() - start

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def children():
    started: list[Child] = []

    def start(args: list[str], cwd: Path, **settings: str) -> Child:
        child = Child(args, cwd, **settings)
        started.append(child)
        return child

    yield start
    for child in started:
        child.kill()


def actions_in(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    finally:
        conn.close()


def integrity(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("PRAGMA integrity_check").fetchall()
    finally:
        conn.close()
