"""The pure parts of live sessions and per-kind deadlines."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.service.errors import TableError
from bot.service.phases import phase_seconds
from bot.service.sessions import occurrences, parse_session, session_end
from bot.service.settings import Settings
from engine.core import Prompt


def _at(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


def test_a_weekly_session_keeps_its_local_time_across_daylight_saving():
    s = parse_session("sun", "19:00", 2, "Europe/Vienna")
    # 2026-03-22 is the Sunday before summer time, 2026-03-29 the day it begins
    starts = [begin for _, begin, _ in occurrences([s], _at(2026, 3, 20), 2)]
    assert starts == [_at(2026, 3, 22, 18), _at(2026, 3, 29, 17)]  # 19:00 CET, then 19:00 CEST
    assert session_end([s], _at(2026, 3, 22, 19)) == _at(2026, 3, 22, 20)
    assert session_end([s], _at(2026, 3, 22, 20)) is None


def test_a_session_is_refused_in_words_a_host_understands():
    with pytest.raises(TableError, match="weekday"):
        parse_session("someday", "19:00", 2, "UTC")
    with pytest.raises(TableError, match="24-hour"):
        parse_session("Monday", "25:00", 2, "UTC")
    with pytest.raises(TableError, match="time zone"):
        parse_session("Monday", "19:00", 2, "Mars/Olympus")


def test_each_kind_of_step_takes_its_own_length():
    settings = Settings(single_hours=6, simultaneous_hours=30, diplomacy_minutes=90, session_minutes=10)
    bid = [Prompt(seat="s1", kind="bid", text="", phase="bidding")]
    sheets = [
        Prompt(seat=s, kind="sheet", text="", phase="placement", mode="simultaneous") for s in ("s1", "s2")
    ]
    talks = [Prompt(seat="s1", kind="ready", text="", phase="talks", deadline_setting="diplomacy_minutes")]
    assert phase_seconds(settings, bid, "bidding") == 6 * 3600
    assert phase_seconds(settings, sheets, "placement") == 30 * 3600
    assert phase_seconds(settings, talks, "talks") == 90 * 60
    assert phase_seconds(settings, bid, "bidding", live=True) == 10 * 60  # in a session
    assert phase_seconds(settings, sheets, "placement", live=True) == 30 * 3600  # not a single step
    assert phase_seconds(Settings(), bid, "bidding") == 24 * 3600  # follows phase_hours
