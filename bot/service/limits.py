"""How much the table service does or keeps at once: a log page, the loaded tables kept,
automatic moves in one call chain, the names listed with a game's rules."""

from __future__ import annotations

__all__ = ["AUTO_CAP", "CACHE_SIZE", "LOG_PAGE", "RULES_NAMES_CHARS"]


LOG_PAGE = 15


RULES_NAMES_CHARS = 1200


AUTO_CAP = 5000  # automatic moves in one call chain (a table of automatic seats plays a whole game)


# Tables kept loaded per process (`table_cache`): 20-60 KB each (a 7-player Origins state
# to a 6-player Schönbrunn one), so 2,048 is about 120 MB at most. Past it, tables acting
# in turn miss every time: bench/scale.py at 600 tables, 256 then, cut PostgreSQL 395 ->
# 116 actions/s and SQLite 789 -> 388.
CACHE_SIZE = 2048
