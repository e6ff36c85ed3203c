"""The rows of finished games' reviews and the queries both backends share
(bot/service/reviews.py; docs/architecture.md §4). Kept beside the archive's rows in the
community's part of the store (community.py), keyed as the archive names a game."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ReviewRow", "review_row", "review_values"]

PENDING, DONE, FAILED = "pending", "done", "failed"


@dataclass
class ReviewRow:
    """One seat's review of one finished game: its turning points once computed."""

    channel_id: int
    created_at: float
    seat: str
    status: str = PENDING
    turnings: list[dict[str, Any]] = field(default_factory=list)  # engine.core.review.Turning.to_json()
    work: int = 0  # the search's iterations it takes (bot/service/reviews.py estimates the time from it)
    updated_at: float = 0.0


COLUMNS = "channel_id, created_at, seat, status, turnings, work, updated_at"
SAVE_SQL = (
    f"INSERT INTO game_reviews ({COLUMNS}) VALUES (?,?,?,?,?,?,?) "
    "ON CONFLICT (channel_id, created_at, seat) DO UPDATE SET status=excluded.status, "
    "turnings=excluded.turnings, work=excluded.work, updated_at=excluded.updated_at"
)
GET_SQL = f"SELECT {COLUMNS} FROM game_reviews WHERE channel_id=? AND created_at=? ORDER BY seat"
PENDING_SQL = (
    f"SELECT {COLUMNS} FROM game_reviews WHERE status='pending' ORDER BY updated_at, channel_id, seat"
)


def review_values(r: ReviewRow) -> tuple[Any, ...]:
    return (r.channel_id, r.created_at, r.seat, r.status, json.dumps(r.turnings), r.work, r.updated_at)


def review_row(values: Sequence[Any]) -> ReviewRow:
    channel_id, created_at, seat, status, turnings, work, updated_at = values
    return ReviewRow(channel_id, created_at, seat, status, json.loads(turnings), work, updated_at)
