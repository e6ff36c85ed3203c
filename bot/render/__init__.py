"""Plain-text rendering shared by every front end: timestamps, seats, standings."""

from .text import plain_timestamps, seat_list, standings, timestamp

__all__ = ["plain_timestamps", "seat_list", "standings", "timestamp"]
