"""`pacing` on the tiny test game: calendar lengths that follow from the visit model."""

from __future__ import annotations

import io

import pytest

from bot.__main__ import main
from bot.pacing import VisitModel, pace, play_timed
from bot.tablebase import Settings

NOBODY = VisitModel(visits_per_day=0, notice_probability=0.0)  # nobody ever comes


def test_when_nobody_comes_every_phase_lasts_its_deadline(envoys):
    # three rounds of commit (24 h), press (24 h) and diplomacy (diplomacy_minutes, 24 h)
    timing = play_timed(envoys, 3, seed=7, model=NOBODY)
    assert timing.days == pytest.approx(9.0)
    assert timing.defaults == timing.decisions == 3 * (3 + 1 + 3)
    shorter = Settings(phase_hours=12.0, diplomacy_minutes=60.0)
    assert play_timed(envoys, 3, seed=7, model=NOBODY, settings=shorter).days == pytest.approx(
        3 * (12 + 12 + 1) / 24
    )


def test_a_game_inside_one_long_session_takes_minutes(envoys):
    # a 20-hour session every day: everyone is there and answers in about 2 minutes
    always = VisitModel(visits_per_day=0, notice_probability=0.0, sessions_per_week=7, session_hours=20)
    result = pace(envoys, 4, games=10, seed=3, model=always)
    assert all(g.defaults == 0 for g in result.timings)
    # up to a day to wait for the first session, then 9 steps of a few minutes each
    assert all(g.days < 1.2 for g in result.timings)


def test_hand_offs_are_the_decisions_only_one_seat_can_make(envoys):
    result = pace(envoys, 4, games=5, seed=2, model=VisitModel())
    assert [g.handoffs for g in result.timings] == [3] * 5  # press or yield, once a round
    assert [g.decisions for g in result.timings] == [3 * (4 + 1 + 4)] * 5


def test_notices_and_visits_make_it_faster_than_the_deadlines(envoys):
    result = pace(envoys, 3, games=20, seed=5, model=VisitModel())
    assert result.median_days() < 9.0
    assert result.p90_days() >= result.median_days()


def test_same_seed_same_figures_other_seed_other_figures(envoys):
    one = pace(envoys, 3, 10, seed=5, model=VisitModel())
    assert one.text() == pace(envoys, 3, 10, seed=5, model=VisitModel()).text()
    assert [g.days for g in one.timings] != [g.days for g in pace(envoys, 3, 10, 6, VisitModel()).timings]


def test_cli_ends_each_player_count_with_the_summary_line(envoys, clean_env):
    out = io.StringIO()
    argv = ["pacing", "envoys", "--games", "4", "--sessions-per-week", "2", "--session-hours", "2"]
    assert main(argv, stdout=out) == 0
    blocks = out.getvalue().strip().split("\n\n")
    assert len(blocks) == 3  # 2, 3 and 4 players
    for block in blocks:
        assert "2 sessions of 2 h a week" in block
        last = block.splitlines()[-1]
        assert last.startswith("median days: ") and "; p90 days: " in last
        assert last.endswith("; hand-offs per game: 3")
    assert main(["pacing", "envoys", "--players", "9"], stdout=io.StringIO()) == 2
