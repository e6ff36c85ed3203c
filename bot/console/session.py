"""The console as a process: open the store and the table service, run the console over
them, and stop cleanly on SIGTERM or Ctrl-C (docs/architecture.md §6).

`python -m bot console`, and `python -m bot run` without a token, come here; the console's
own reading and printing is bot/console/console.py.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from bot.process.config import Config

if TYPE_CHECKING:
    import signal
    from types import FrameType

    # what signal.signal returns and takes back: a handler, SIG_DFL/SIG_IGN, or None
    _Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

__all__ = ["Stopped", "run_console_process"]

# The console's diplomacy phases default to minutes rather than a day: nobody waits a
# day at a terminal. An explicit diplomacy_minutes in the config still wins.
CONSOLE_DIPLOMACY_MINUTES = 10.0


def _console_defaults(config: Config) -> dict[str, object]:
    defaults = config.table_defaults()
    if "diplomacy_minutes" not in config.model_fields_set:
        defaults["diplomacy_minutes"] = CONSOLE_DIPLOMACY_MINUTES
    return defaults


async def run_console_process(
    config: Config, db: Path | str, script: Path | None, as_user: str, stdin: TextIO, stdout: TextIO
) -> int:
    from bot.console.console import LOOP_CODES, run_console
    from bot.process import metrics
    from bot.service.tables import TableService
    from bot.store import open_store
    from bot.tools.backup import ScheduledBackups

    store = await open_store(db)
    server = backups = service = None
    health = metrics.Health(metrics.database_probe(db), store=store)  # the console runs: no gateway
    stop = _ConsoleStop(config.shutdown_grace_seconds, LOOP_CODES)
    try:
        service = TableService(
            store,
            default_settings=_console_defaults(config),
            cache_size=config.table_cache,
            automatic_workers=config.automatic_workers,
        )
        server = metrics.serve(config, health)
        backups = ScheduledBackups.from_config(config, db)
        # the board pictures go beside the database file (a PostgreSQL database: ./data)
        pictures = (db.parent if isinstance(db, Path) else Path("data")) / "pictures"
        with stop:
            return await run_console(
                service, script=script, stdin=stdin, stdout=stop.wrap(stdin, stdout), as_user=as_user,
                pictures=pictures, stopping=stop.stopping if stop.installed else None,
            )
    except Stopped:
        if stdin.isatty():  # stopped at the prompt: the shell's own prompt on a line of its own
            stdout.write("\n")
        return 0
    finally:
        health.store_closing()
        if backups is not None:
            backups.stop(config.shutdown_grace_seconds)
        if service is not None:
            service.close()  # the automatic players' worker processes
        if server is not None:
            server.close()
        await store.close()


class Stopped(BaseException):
    """SIGTERM or SIGINT ended the console between two lines (a BaseException, so that no
    `except Exception` on the way swallows it)."""


class _ConsoleStop:
    """SIGTERM or SIGINT end the console cleanly: a line being run is finished first (its
    action saved and printed), then the console stops before reading another; the store
    is closed and the process exits 0. The console waits for lines synchronously, so a
    signal can only be acted on where the console's own loop runs (`console_codes`: the
    script and prompt loops): at its prompt, or between two lines of a script. There it
    raises `Stopped`; elsewhere it is noted, and looked at again every 50 ms, at the
    console's next write between lines, and before the console runs another line
    (`stopping`: a line typed ahead comes back from the prompt at once). Past the grace
    period the console is stopped wherever it is, and so it is by a second Ctrl-C (SIGINT
    after either signal): the person at the terminal will not wait."""

    POLL = 0.05

    def __init__(self, grace: float, console_codes: tuple[object, ...]) -> None:
        self.grace = grace
        self.console_codes = console_codes
        self.since: float | None = None
        self._previous: dict[int, _Handler] = {}

    @property
    def installed(self) -> bool:
        """Whether the handlers are in place (only the main thread can install them)."""
        return bool(self._previous)

    def stopping(self) -> bool:
        """Whether a signal came: the console runs no further line."""
        return self.since is not None

    def __enter__(self) -> _ConsoleStop:
        import signal

        if threading_is_main():
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
                self._previous[sig] = signal.signal(sig, self._signalled)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _signalled(self, signum: int, frame: object) -> None:
        import signal
        import time

        first = signum != signal.SIGALRM and self.since is None
        if first:
            self.since = time.monotonic()
        elif signum == signal.SIGINT:
            raise Stopped  # a second Ctrl-C
        if self.since is None:
            return
        if getattr(frame, "f_code", None) in self.console_codes or time.monotonic() - self.since > self.grace:
            raise Stopped
        if first and signum == signal.SIGINT:  # Ctrl-C mid-line: say why the console goes on
            _tell("\nStopping after this line; press Ctrl-C again to stop now.\n")
        signal.setitimer(signal.ITIMER_REAL, self.POLL)

    def wrap(self, stdin: TextIO, stdout: TextIO) -> TextIO:
        """`stdout`, stopping the console at its next write between lines once signalled;
        at a terminal the console reads with input() and needs the real stdout."""
        if stdin is sys.stdin and stdout is sys.stdout and stdin.isatty():
            return stdout
        # it forwards all but write to `stdout` (__getattr__), which no type can say
        return cast(TextIO, _StopAtWrite(stdout, self))


def _tell(text: str) -> None:
    """Write to standard error from a signal handler: os.write, as a buffered stream may be
    in the middle of a write of its own."""
    try:
        os.write(sys.stderr.fileno(), text.encode())
    except (OSError, ValueError):  # no standard error to write to: the stop goes on
        pass


def threading_is_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


class _StopAtWrite:
    """A text stream that raises `Stopped` at a write made by the console's own loop (its
    prompt, or the echo of a script's next line) once a stop was asked for."""

    def __init__(self, stream: TextIO, stop: _ConsoleStop) -> None:
        self._stream = stream
        self._stop = stop

    def write(self, text: str) -> int:
        if self._stop.since is not None and sys._getframe(1).f_code in self._stop.console_codes:
            raise Stopped
        return self._stream.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)
