"""No process outlives the bot (docs/reliability.md): kill -9 of a process with an automatic
player's worker pool ends its worker and multiprocessing's resource tracker within seconds
(bot/service/worker_watch.py), so nothing keeps the dead process's output pipe open; and
the watch never ends a worker while its bot lives, even a worker spawned from a thread that
has since ended (Linux's parent-death signal is sent on such a thread's end).

The processes are found through /proc, so these tests run on Linux only.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.service.automatic import AutomaticPlayers, decide
from bot.service.worker_watch import POLL
from engine.core.search import STRENGTHS
from tests.test_search import GAME as ENVOYS

pytestmark = [
    pytest.mark.processes,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)"),
]

ROOT = Path(__file__).resolve().parents[2]
START = 120.0  # seconds to import the bot and spawn a worker that imports every game, loaded
ENDED = 10.0  # seconds within which whatever the dead process started must have ended

# A process with an automatic player's pool, as the bot has one; it waits on its stdin.
WITH_A_POOL = f"""
import sys
from bot.service.automatic import AutomaticPlayers
automatic = AutomaticPlayers(workers=1)
for started in automatic.start():
    started.result(timeout={START!r})
print("WORKERS", *automatic._executor._processes, flush=True)
sys.stdin.read()
"""

# A process that only polls for its parent's death (no parent-death signal asked for).
POLLING_ONLY = """
import os
from bot.service import worker_watch
parent = os.getppid()
print("WATCHING", os.getpid(), flush=True)
worker_watch._poll(parent)
"""

# A process that starts a POLLING_ONLY process with the same stdout, and waits.
WITH_A_POLLING_CHILD = f"""
import subprocess, sys
subprocess.Popen([sys.executable, "-c", {POLLING_ONLY!r}])
sys.stdin.read()
"""


def _stat(pid: int) -> tuple[str, int, int] | None:
    """A process's state, parent and start time (None: no such process)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def _descendants(pid: int) -> dict[int, int]:
    """Every process under `pid`, with its start time (which tells it from a later
    process given the same pid)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(stat[1], []).append(int(entry.name))
    found: dict[int, int] = {}
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        if (stat := _stat(child)) is not None:
            found[child] = stat[2]
            todo.extend(children.get(child, []))
    return found


def _alive(pid: int, started: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[0] not in "ZX"  # a zombie has ended


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class Child:
    """A `python -c` process whose stdout and stderr are one pipe, read line by line on a
    thread (None once the pipe reaches its end)."""

    def __init__(self, script: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.seen: dict[int, int] = {}  # processes started under it, ended by `close` if alive

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put(line)
        self.lines.put(None)

    def line_starting(self, prefix: str, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            assert line is not None, f"the child ended before printing {prefix}"
            if line.startswith(prefix.encode()):
                return line.decode().split()[1:]

    def kill(self) -> float:
        """kill -9; the time it was sent."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=ENDED)
        return time.monotonic()

    def reaches_eof(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        try:
            while self.lines.get(timeout=max(0.0, deadline - time.monotonic())) is not None:
                pass
        except queue.Empty:
            return False
        return True

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=ENDED)
        for pid, started in self.seen.items():  # a failed test leaves nothing behind either
            if _alive(pid, started):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture
def child_process():
    made: list[Child] = []

    def start(script: str) -> Child:
        made.append(Child(script))
        return made[-1]

    yield start
    for child in made:
        child.close()


def _ended_within(processes: dict[int, int], since: float) -> tuple[float, dict[int, str]]:
    """Seconds from `since` until every one of `processes` had ended (at most ENDED), and
    those still alive then."""
    while time.monotonic() - since < ENDED and any(_alive(p, s) for p, s in processes.items()):
        time.sleep(0.02)
    return time.monotonic() - since, {p: _cmdline(p) for p, s in processes.items() if _alive(p, s)}


def test_kill_9_of_the_bot_ends_its_worker_and_the_resource_tracker_within_seconds(child_process):
    bot = child_process(WITH_A_POOL)
    workers = {int(pid) for pid in bot.line_starting("WORKERS", START)}
    bot.seen = _descendants(bot.proc.pid)
    assert len(workers) == 1 and workers <= set(bot.seen)
    trackers = [pid for pid in bot.seen if "multiprocessing.resource_tracker" in _cmdline(pid)]
    assert len(trackers) == 1, {pid: _cmdline(pid) for pid in bot.seen}

    killed = bot.kill()
    seconds, alive = _ended_within(bot.seen, killed)
    assert not alive, f"still alive {seconds:.1f} s after kill -9 of their parent: {alive}"
    assert bot.reaches_eof(ENDED - seconds), "something still holds the dead process's stdout or stderr"


def test_the_watch_without_the_kernels_signal_also_ends_a_worker_whose_parent_was_killed(child_process):
    """The portable half of the watch: polling os.getppid() alone (where there is no
    parent-death signal: any system but Linux)."""
    parent = child_process(WITH_A_POLLING_CHILD)
    (watching,) = parent.line_starting("WATCHING", START)
    parent.seen = _descendants(parent.proc.pid)
    assert set(parent.seen) == {int(watching)}

    killed = parent.kill()
    seconds, alive = _ended_within(parent.seen, killed)
    assert not alive, f"still alive {seconds:.1f} s after kill -9 of its parent"
    assert seconds < POLL + 5  # one poll, and a loaded machine's delay
    assert parent.reaches_eof(ENDED - seconds)


FEW = replace(STRENGTHS["strong"], iterations=24)


async def test_a_worker_spawned_from_a_thread_that_has_ended_still_decides(strong_automatic_seats):
    """Linux's parent-death signal comes when the spawning thread ends: the worker checks
    that its parent really died, and polls on without ending while it lives."""
    automatic = AutomaticPlayers(workers=1, strengths={**STRENGTHS, "strong": FEW})
    try:
        spawner = threading.Thread(target=lambda: [f.result(timeout=START) for f in automatic.start()])
        spawner.start()
        spawner.join(timeout=START)
        assert not spawner.is_alive()
        (worker,) = automatic._executor._processes.values()  # type: ignore[union-attr]
        time.sleep(3 * POLL)  # the thread's end was signalled and the parent looked at, more than once

        state = ENVOYS.setup(["s1", "s2", "s3"], ENVOYS.Options(), 9)
        chosen = await automatic.choose(ENVOYS, state, "s1", random.Random(4), "strong")
        assert chosen == decide(ENVOYS, "strong", FEW, state, "s1", random.Random(4))
        assert worker.is_alive() and automatic.lost_workers == 0 and automatic.overruns == 0
        assert list(automatic._executor._processes.values()) == [worker]  # type: ignore[union-attr]
    finally:
        automatic.close()
