"""`simulate` on the tiny test game: numbers that follow from its rules, reproducibly."""

from __future__ import annotations

import io
from typing import Any

import pytest

from bot.__main__ import main
from bot.tools.simulate import simulate
from tests.tinygame import Envoys

pytestmark = pytest.mark.whole_game


class ScoredEnvoys(Envoys):
    """Envoys reporting two figures, to check that simulate averages them."""

    def figures(self, state: Any) -> dict[str, float]:
        figures = {"top_score": max(state.scores.values()), "rounds": state.rounds}
        if "s1" in self.outcome(state).winners:
            figures["s1_first"] = 1.0  # an indicator reported only when true
        return figures

    def seat_label(self, state: Any, seat: str) -> str:
        return f"Envoy {seat[1:]}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lengths_follow_the_rules(envoys, players):
    # three rounds of: one commit per seat, one press/yield, one ready per seat
    result = simulate(envoys, players, games=20, seed=4)
    assert result.lengths == [3 * (2 * players + 1)] * 20
    assert result.mean_length() == 3 * (2 * players + 1)


def test_win_rates_are_shares_that_add_up(envoys):
    result = simulate(envoys, 3, games=200, seed=11)
    rates = result.win_rates()
    assert set(rates) == {"s1", "s2", "s3"}
    assert sum(rates.values()) == pytest.approx(1.0)
    assert all(0.1 < r < 0.6 for r in rates.values()), rates  # nobody wins always or never in 200 games
    assert dict(result.seated) == {"s1": 200, "s2": 200, "s3": 200}


def test_same_seed_same_report_other_seed_other_report(envoys):
    assert simulate(envoys, 4, 30, seed=5).text() == simulate(envoys, 4, 30, seed=5).text()
    assert simulate(envoys, 4, 30, seed=5).win_rates() != simulate(envoys, 4, 30, seed=6).win_rates()


def test_figures_are_averaged_and_labels_are_the_games_own():
    game = ScoredEnvoys()
    result = simulate(game, 2, games=40, seed=2)
    means = result.mean_figures()
    assert means["rounds"] == 3.0
    # each round the scorer gains a die roll (1-6) and the presser 1: the top score is 1..21
    assert 1.0 <= means["top_score"] <= 21.0
    assert means["top_score"] == pytest.approx(sum(result.figures["top_score"]) / 40)
    assert set(result.win_rates()) == {"Envoy 1", "Envoy 2"}
    assert "top_score: " in result.text() and "| Envoy 1 | 40 |" in result.markdown()


def test_a_figure_left_out_counts_as_zero_and_says_so():
    result = simulate(ScoredEnvoys(), 2, games=40, seed=2)
    firsts = len(result.figures["s1_first"])
    assert 0 < firsts < 40  # the seed gives both kinds of game
    assert result.mean_figures()["s1_first"] == pytest.approx(firsts / 40)
    assert (
        f"s1_first: {firsts / 40:.3f} (reported in {firsts} of 40 games; mean there 1.000)" in result.text()
    )


def test_cli_runs_every_player_count_and_writes_the_report(envoys, clean_env):
    out = io.StringIO()
    report = clean_env / "reports" / "envoys.md"
    assert (
        main(["simulate", "envoys", "--games", "10", "--seed", "3", "--report", str(report)], stdout=out) == 0
    )
    text = out.getvalue()
    for n in (2, 3, 4):
        assert f"Envoys (test game): {n} players, 10 games, seed 3" in text
    md = report.read_text(encoding="utf-8")
    assert md.startswith("# Simulation: Envoys (test game)")
    assert md.count("| Seat | Games | Win rate |") == 3


def test_cli_one_player_count_and_options(envoys):
    out = io.StringIO()
    assert (
        main(["simulate", "envoys", "--players", "2", "--games", "5", "--option", "rounds=1"], stdout=out)
        == 0
    )
    assert "2 players, 5 games" in out.getvalue() and "3 players" not in out.getvalue()
    assert "Mean length: 5.0 actions" in out.getvalue()  # one round of 2 commits, 1 press, 2 ready


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "envoys", "--players", "7"], "takes 2-4 players, not 7"),
        (["simulate", "chess"], "No game called 'chess'"),
        (["simulate", "envoys", "--option", "speed=3"], "speed"),
        (["simulate", "envoys", "--games", "0"], "at least 1"),
    ],
)
def test_cli_refuses_bad_arguments(envoys, capsys, argv, message):
    assert main(argv, stdout=io.StringIO()) == 2
    assert message in capsys.readouterr().err


def test_worker_processes_give_the_same_report():
    game = ScoredEnvoys()
    one = simulate(game, 3, games=24, seed=9)
    two = simulate(game, 3, games=24, seed=9, jobs=2)
    assert two.text() == one.text() and two.markdown() == one.markdown()
    assert two.lengths == one.lengths and dict(two.figures) == dict(one.figures)
