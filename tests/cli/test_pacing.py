"""`pacing` on the tiny test game: calendar lengths that follow from the visit model."""

from __future__ import annotations

import io
import re

import pytest

from bot.__main__ import main
from bot.service.settings import Settings
from bot.tools.pacing import VisitModel, pace, play_timed
from tests.service.test_pacing_service import _standing_yield

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


def test_hand_offs_are_the_single_seat_decisions_that_pass_the_game_to_another_player(envoys, monkeypatch):
    # press or yield, once a round; not a hand-off when its player made the decision before
    # (the last commit): the same visit (docs/pacing.md, "A hand-off")
    made: list[tuple[str, str]] = []
    apply = type(envoys).apply

    def recording(self, state, seat, action, *args, **kwargs):
        made.append((seat, action.kind))
        return apply(self, state, seat, action, *args, **kwargs)

    monkeypatch.setattr(type(envoys), "apply", recording)
    for seed in range(2, 7):
        made.clear()
        timing = play_timed(envoys, 4, seed=seed, model=VisitModel())
        assert timing.defaults == 0 and timing.decisions == 3 * (4 + 1 + 4)
        presses = [i for i, (_, kind) in enumerate(made) if kind in ("press", "yield")]
        assert len(presses) == 3
        assert timing.handoffs == sum(made[i][0] != made[i - 1][0] for i in presses)
    assert play_timed(envoys, 4, seed=7, model=NOBODY).handoffs == 3  # nobody there: each waits


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
        assert re.search(r"; hand-offs per game: [0-3]$", last)
    assert main(["pacing", "envoys", "--players", "9"], stdout=io.StringIO()) == 2


def test_a_player_who_looks_in_before_the_press_leaves_the_answer_and_nobody_waits(envoys, monkeypatch):
    _standing_yield(monkeypatch)
    made: list[str] = []
    apply = type(envoys).apply

    def recording(self, state, seat, action, *args, **kwargs):
        made.append(action.kind)
        return apply(self, state, seat, action, *args, **kwargs)

    monkeypatch.setattr(type(envoys), "apply", recording)
    asked = play_timed(envoys, 4, seed=3, model=VisitModel())
    assert made.count("yield") < 3  # the automatic player presses now and then
    # a player who looks in during the commits leaves "yield in this round's press"
    monkeypatch.setattr(
        envoys, "bot_ahead", lambda state, seat, rng: ["yield"] if state.phase == "commit" else []
    )
    made.clear()
    ahead = play_timed(envoys, 4, seed=3, model=VisitModel())
    assert made.count("yield") == 3 and "press" not in made
    # applied the moment the press came; a press seat that committed last is still there
    assert ahead.handoffs == 0 and asked.handoffs > 0
    assert ahead.kinds.get("press", [0.0])[0] < asked.kinds["press"][0]


def test_by_kind_says_where_the_days_go(envoys, clean_env):
    out = io.StringIO()
    assert main(["pacing", "envoys", "--players", "3", "--games", "3", "--by-kind"], stdout=out) == 0
    lines = out.getvalue().strip().splitlines()
    assert lines[2] == "where the days go, per game (by the decision waited for):"
    rows = [line for line in lines if line.startswith("  ")]
    assert {row.split(":")[0].strip() for row in rows} == {"commit", "press", "ready"}
    assert lines[-1].startswith("median days: ")


def test_a_table_whose_single_player_steps_wait_plays_them_in_its_sessions(envoys):
    weekly = VisitModel(sessions_per_week=2, session_hours=2)
    starts = weekly.sessions(0, 400 * 86400)
    waiting = play_timed(envoys, 3, seed=4, model=weekly, settings=Settings(between_sessions="wait"))
    going_on = play_timed(envoys, 3, seed=4, model=weekly)
    presses = [when for when, _, kind in waiting.log if kind == "press"]
    assert len(presses) == 3 and waiting.defaults == 0
    assert all(any(b <= when < e for b, e in starts) for when in presses)  # every press in a session
    others = [when for when, _, kind in going_on.log if kind == "press"]
    assert not all(any(b <= when < e for b, e in starts) for when in others)  # by default, visits too
    commits = [when for when, _, kind in waiting.log if kind == "commit"]
    assert not all(any(b <= when < e for b, e in starts) for when in commits)  # orders given together go on
