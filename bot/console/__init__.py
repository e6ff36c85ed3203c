"""The local console: the same tables in a terminal (docs/architecture.md §6)."""

from .console import Console, ConsoleError, run_console

__all__ = ["Console", "ConsoleError", "run_console"]
