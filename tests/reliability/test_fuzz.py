"""Fuzzed calls into every entry point of the table service, and fuzzed console lines,
for every game and phase (docs/reliability.md). A call may be refused
with TableError; anything else raised fails the test, and hypothesis shrinks it to the
smallest example. Afterwards every table loads, its invariants hold and its record replays.

About 30 seconds together, examples fixed (derandomize) so CI sees the same run each time;
bench/reliability.py draws fresh examples for as long as it is given."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .fuzzing import GAMES, Tally, calls, console_lines, run, run_console_example, run_example

FUZZ = settings(
    max_examples=36,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
TALLY = Tally()


@FUZZ
@given(data=st.data())
def test_fuzzed_service_calls_are_refused_or_done(registry, data):
    game = data.draw(st.sampled_from(GAMES), label="game")
    advance = data.draw(st.sampled_from([0, 1, 3, 8, 20, 45, 90]), label="advance")
    todo = data.draw(st.lists(calls(game), min_size=8, max_size=30), label="calls")
    run(run_example(":memory:", game, data.draw(st.integers(0, 2**63 - 1)), advance, todo, TALLY))


@settings(FUZZ, max_examples=18)
@given(data=st.data())
def test_fuzzed_console_lines_are_answered(registry, data):
    game = data.draw(st.sampled_from(GAMES), label="game")
    advance = data.draw(st.sampled_from([0, 2, 10, 40]), label="advance")
    lines = data.draw(st.lists(console_lines(game), min_size=8, max_size=25), label="lines")
    run(run_console_example(":memory:", game, data.draw(st.integers(0, 2**63 - 1)), advance, lines, TALLY))


def test_the_fuzz_ran(registry):
    """The examples above really made calls, and not only refused ones (a strategy that
    drew nothing but refusals would test nothing). Skipped figures when run alone."""
    if TALLY.examples:
        assert TALLY.calls >= 8 * 36 and TALLY.lines >= 8 * 18
        assert TALLY.refused < TALLY.calls
