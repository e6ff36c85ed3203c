"""Plain-text rendering shared by every front end: timestamps, seats, standings."""

from .text import button_labels, escape, plain_timestamps, seat_list, standings, timestamp, unescape

__all__ = ["button_labels", "escape", "plain_timestamps", "seat_list", "standings", "timestamp", "unescape"]
