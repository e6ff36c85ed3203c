"""Plain-text rendering shared by every front end: names as typed, seats, standings, labels."""

from .text import button_labels, escape, seat_list, standings, unescape

__all__ = ["button_labels", "escape", "seat_list", "standings", "unescape"]
