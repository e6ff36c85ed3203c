"""The log carries no secret at any level: no seed, Hand, sheet, commit or face-down value
(docs/architecture.md §7, Secrets).

Two leaks are closed here, in one place, for every handler `configure` sets up:

- Libraries that log what they send or store. aiosqlite logs every statement with its
  parameters at DEBUG (a save holds the seed and the state, Hands included); discord.py
  logs request bodies (ephemeral replies showing a Hand) and gateway events (a secret
  order as the player typed it). Their loggers are kept at INFO or above whatever
  `log_level` says, and the handlers' filter drops their records below INFO should a
  level be lowered later.
- Exception messages from the game's code. An engine's error text may quote hidden facts
  ("Sarajevo is not in your Hand"), and pydantic's ValidationError quotes its input. A
  record whose exception is one of these, or passed through `engine/`, keeps its
  traceback (file, line, code) but not its message: the database holds what is needed to
  reproduce it.
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path

from pydantic import ValidationError

import engine
from engine.core import GameError

__all__ = ["QUIET", "WITHHELD", "SecretsFilter", "configure", "protect", "log_game_failure"]

# Loggers that write payloads at DEBUG: a database driver's statements, Discord's bodies.
QUIET = ("aiosqlite", "asyncpg", "discord")
WITHHELD = "(message withheld: raised by the game's code, it may name hidden information)"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_ENGINE = str(Path(engine.__file__).resolve().parent)


def _quiet(name: str) -> bool:
    return any(name == q or name.startswith(q + ".") for q in QUIET)


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and those it was raised from or during, oldest first."""
    found: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and all(e is not f for f in found):
        found.append(e)
        e = e.__cause__ or (None if e.__suppress_context__ else e.__context__)
    return found[::-1]


def _from_engine(exc: BaseException) -> bool:
    for e in _chain(exc):
        if isinstance(e, GameError | ValidationError):
            return True
        if any(str(Path(f.filename).resolve()).startswith(_ENGINE) for f in traceback.extract_tb(e.__traceback__)):
            return True
    return False


def _withheld(exc: BaseException) -> str:
    parts = []
    for e in _chain(exc):
        name = type(e).__qualname__
        module = type(e).__module__
        if module not in ("builtins", "__main__"):
            name = f"{module}.{name}"
        parts.append(
            "Traceback (most recent call last):\n"
            + "".join(traceback.format_tb(e.__traceback__))
            + f"{name}: {WITHHELD}"
        )
    return "\n\nWhile handling it, or because of it:\n\n".join(parts)


def log_game_failure(logger: logging.Logger, msg: str, *args: object) -> None:
    """Inside an `except` around a call into the game's code: log the traceback at ERROR,
    never the exception's message, wherever the game's module lives."""
    record = logger.makeRecord(logger.name, logging.ERROR, "(game)", 0, msg, args, sys.exc_info())
    if record.exc_info and record.exc_info[1] is not None:
        record.exc_text = _withheld(record.exc_info[1])
    if logger.isEnabledFor(logging.ERROR):
        logger.handle(record)


class SecretsFilter(logging.Filter):
    """On a handler: drop the chatty libraries' DEBUG records; withhold the message of an
    exception from the game's code."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.INFO and _quiet(record.name):
            return False
        info = record.exc_info
        if info and info[1] is not None and _from_engine(info[1]):
            record.exc_text = _withheld(info[1])  # Formatter.format uses exc_text if set
        return True


_FILTER = SecretsFilter()


def protect(handler: logging.Handler) -> logging.Handler:
    if _FILTER not in handler.filters:
        handler.addFilter(_FILTER)
    return handler


def configure(level: str | int) -> None:
    """The process's logging (`python -m bot`): the root handler at `level`, protected,
    and the chatty libraries never below INFO. Handlers someone else installed first (a
    test runner's) are theirs and are left alone."""
    root = logging.getLogger()
    had = list(root.handlers)
    logging.basicConfig(level=level, format=FORMAT)
    for name in QUIET:
        logger = logging.getLogger(name)
        if logger.getEffectiveLevel() < logging.INFO:
            logger.setLevel(logging.INFO)
    for handler in root.handlers:
        if handler not in had:
            protect(handler)
