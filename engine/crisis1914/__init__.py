"""Crisis: 1914 (Worthington Publishing, 2024) for 1-5 players: `GAME` is registered by engine.games."""

from .game import Crisis1914

GAME = Crisis1914()

__all__ = ["GAME", "Crisis1914"]
