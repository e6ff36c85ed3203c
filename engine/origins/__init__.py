"""Origins of World War I (J. F. Dunnigan, 1969; revised for 2-7 players, 2020)."""

from .game import Origins, OriginsOptions

GAME = Origins()

__all__ = ["GAME", "Origins", "OriginsOptions"]
