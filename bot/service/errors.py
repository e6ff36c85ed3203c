"""The service's refusals: a `TableError`'s text is shown privately to the caller, and the
refusals several parts give in the same words (no table, not seated, the game over, only
the host may), and a settings or record error read in words rather than pydantic's report.
Its own module so that the plain helpers (sessions, settings) and the parts can all raise it."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..render.text import escape

__all__ = ["ENGINE_FAILED", "NOT_SEATED", "NOT_STARTED", "NOT_THIS_PHASE", "NO_TABLE", "OVER", "PAUSED", "TableError", "error_message", "first_error", "host_name", "host_only"]


class TableError(Exception):
    """A refusal; str(exc) is shown to the caller privately."""


NO_TABLE = "There is no table in this channel."


NOT_SEATED = "You are not seated at this table."


NOT_THIS_PHASE = "That is not possible in this phase."


PAUSED = "The game is paused."


OVER = "The game is over."


NOT_STARTED = "The game has not started yet."


# Said publicly when the game's own code fails: its message may name hidden facts (a card
# in a Hand), so it goes only to the log, where bot/process/logsafe.py withholds it too.
ENGINE_FAILED = "an error in the game's program; the details are in the bot's log"


def host_name(t: Any) -> str:
    """The name of loaded table `t`'s host, as seated ("the host" if they are not)."""
    return next((s.name for s in t.seats if s.user_id == t.row.host_id), "the host")


def host_only(t: Any, user_id: int, admin: bool, what: str) -> None:
    """Refuse, saying who may, unless `user_id` hosts table `t` or has Manage Server (`admin`)."""
    if user_id != t.row.host_id and not admin:
        raise TableError(f"Only the host ({escape(host_name(t))}) or a member with Manage Server can {what}.")


def first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(x) for x in err["loc"])
    return f"{where}: {err['msg']}" if where else err["msg"]


def error_message(exc: Exception) -> str:
    return first_error(exc) if isinstance(exc, ValidationError) else str(exc)
