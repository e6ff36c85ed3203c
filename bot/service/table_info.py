"""What the front ends read about a table without loading the game: its seats, host,
status, thread and status message."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SeatInfo", "TableInfo"]


@dataclass(frozen=True)
class SeatInfo:
    seat: str | None  # None until the game starts
    user_id: int
    name: str
    label: str  # the seat in the game's words (its nation), or "" in the lobby
    automatic: bool = False  # played by the game's bot_action


@dataclass(frozen=True)
class TableInfo:
    channel_id: int
    guild_id: int | None
    game: str
    status: str
    host_id: int
    seats: list[SeatInfo]
    thread_id: int | None
    status_message_id: int | None = None
