"""Plain-text rendering shared by every front end: timestamps, seats, standings."""

from .text import button_labels, plain_timestamps, seat_list, standings, timestamp

__all__ = ["button_labels", "plain_timestamps", "seat_list", "standings", "timestamp"]
