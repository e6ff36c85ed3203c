"""Schönbrunn: the Congress of Vienna for 3-6 players (rules/schonbrunn.txt)."""

from .game import GAME, Schonbrunn, SchonbrunnOptions

__all__ = ["GAME", "Schonbrunn", "SchonbrunnOptions"]
