"""A worker process ends with the process that started it (docs/reliability.md, "No
process outlives the bot").

When the bot stops, it shuts its pools and their workers stop. When it dies instead
(kill -9, the out-of-memory killer, a crash in C code), nothing tells a worker: it would
live on under PID 1 for ever, holding the dead bot's stdout and stderr (whatever reads
them would wait for their end for ever) and the write end of the pipe of multiprocessing's
resource tracker (spawned by the bot, it ends when that pipe has no writer left, so it
would stay too). So a worker calls `watch_parent` first, with the pid of the process that
spawned it, and ends itself (os._exit: nobody is left to answer) once that process has
gone, which re-parents the worker and so changes `os.getppid()`:

- A thread polls `os.getppid()` every POLL seconds: portable to any POSIX system.
- On Linux the kernel also signals the worker at once (prctl PR_SET_PDEATHSIG). It sends
  that signal when the *thread* that spawned the worker ends, even if the process lives
  on, so the signal is one the worker catches and checks (the same `os.getppid()` test)
  rather than SIGKILL: a pool spawned from a thread that has since ended keeps its worker.

The workers are spawned ("spawn" start method), so a worker's parent is the bot itself,
never a fork server that would outlive it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

__all__ = ["POLL", "watch_parent"]

POLL = 0.5  # seconds between two looks at the parent, where no signal says it died

PARENT_DIED = signal.SIGUSR1  # what the kernel sends on Linux; caught, so never fatal by itself
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

EXIT_CODE = 1


def watch_parent(parent: int) -> None:
    """End this process once `parent` (the pid that spawned it) is no longer its parent.
    Call it from the main thread, first thing in a new worker."""
    _ask_the_kernel(parent)
    if os.getppid() != parent:  # it died while this process was starting
        os._exit(EXIT_CODE)
    threading.Thread(target=_poll, args=(parent,), name="parent-watch", daemon=True).start()


def _poll(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL)
    os._exit(EXIT_CODE)


def _ask_the_kernel(parent: int) -> None:
    """Linux only: PARENT_DIED when the spawning thread ends, checked by a handler (which
    Python runs on the main thread, between two steps of a search or in a blocked read)."""
    if not sys.platform.startswith("linux"):
        return

    def parent_died(_signum: int, _frame: object) -> None:
        if os.getppid() != parent:
            os._exit(EXIT_CODE)

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        signal.signal(PARENT_DIED, parent_died)
        if libc.prctl(PR_SET_PDEATHSIG, int(PARENT_DIED), 0, 0, 0) != 0:
            signal.signal(PARENT_DIED, signal.SIG_DFL)
    except (OSError, AttributeError, ValueError):  # no libc or no prctl here: the poll remains
        pass
