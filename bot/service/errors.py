"""The service's refusal: a `TableError`'s text is shown privately to the caller. Its own
module so that the plain helpers (sessions, settings) and the parts can all raise it."""

from __future__ import annotations

__all__ = ["TableError"]


class TableError(Exception):
    """A refusal; str(exc) is shown to the caller privately."""
