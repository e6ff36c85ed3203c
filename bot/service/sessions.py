"""Live sessions: weekly times a table's players meet to play together
(docs/architecture.md §3, Deadlines).

A table keeps its sessions in its row's `meta["sessions"]`, each a weekday, a local start
time, a length and a time zone. While one runs, a step only one player can take gets the
short `session_minutes` deadline and its player is pinged in the channel at once; between
sessions play goes on as the table's other settings say. The Discord adapter announces
the next occurrences as Discord scheduled events, so members are reminded by Discord.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import TableError

__all__ = [
    "Session",
    "parse_session",
    "sessions_of",
    "in_session",
    "session_end",
    "next_session_start",
    "occurrences",
    "DAYS",
]

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MAX_SESSIONS = 14


@dataclass(frozen=True)
class Session:
    day: int  # 0 = Monday
    start: str  # "HH:MM", local
    hours: float
    timezone: str

    def describe(self) -> str:
        return f"{DAYS[self.day].capitalize()}s at {self.start} ({self.timezone}) for {self.hours:g} h"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def parse_session(day: str, start: str, hours: float, timezone: str) -> Session:
    """A session from what a host typed; TableError saying what is allowed."""
    word = day.strip().lower()
    found = [i for i, name in enumerate(DAYS) if len(word) >= 2 and name.startswith(word)]
    if len(found) != 1:
        raise TableError(f"The day is a weekday (Monday to Sunday), not {day[:20]!r}.")
    m = re.fullmatch(r"(\d{1,2})[:.h]?(\d{2})?", start.strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2) or 0) > 59:
        raise TableError(f"The time is a 24-hour time such as 19:30, not {start[:20]!r}.")
    if not 0 < hours <= 12:
        raise TableError("A session lasts more than 0 and at most 12 hours.")
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise TableError(f"Unknown time zone {timezone[:40]!r}; use a name such as Europe/Vienna.") from None
    return Session(found[0], f"{int(m.group(1)):02d}:{int(m.group(2) or 0):02d}", float(hours), timezone)


def sessions_of(meta: dict[str, Any]) -> list[Session]:
    return [Session(**s) for s in meta.get("sessions") or []]


def occurrences(sessions: list[Session], after: float, count: int) -> list[tuple[Session, float, float]]:
    """The next `count` occurrences ending after `after`, soonest first: (session, start, end)."""
    out: list[tuple[Session, float, float]] = []
    for s in sessions:
        zone = ZoneInfo(s.timezone)
        local = datetime.fromtimestamp(after, zone) - timedelta(hours=s.hours)
        hour, minute = (int(x) for x in s.start.split(":"))
        day = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
        day += timedelta(days=(s.day - day.weekday()) % 7)
        while len([o for o in out if o[0] is s]) < count:
            begin = day.timestamp()
            end = begin + s.hours * 3600
            if end > after:
                out.append((s, begin, end))
            day = (day + timedelta(days=7)).replace(tzinfo=zone)
    return sorted(out, key=lambda o: o[1])[:count]


def next_session_start(sessions: list[Session], now: float) -> float | None:
    """When the next session after `now` begins; None when none is scheduled."""
    starts = [begin for _, begin, _ in occurrences(sessions, now, 2) if begin > now]
    return min(starts, default=None)


def in_session(sessions: list[Session], now: float) -> bool:
    return session_end(sessions, now) is not None


def session_end(sessions: list[Session], now: float) -> float | None:
    """When the session running at `now` ends; None when none runs."""
    ends = [end for _, begin, end in occurrences(sessions, now, len(sessions)) if begin <= now < end]
    return max(ends, default=None)
