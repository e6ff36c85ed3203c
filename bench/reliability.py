"""The longer reliability run (docs/reliability.md): kill -9, fuzzing and hostile inputs.

    .venv/bin/python bench/reliability.py                         # 60 kills, 120 s of fuzzing
    .venv/bin/python bench/reliability.py --kills 200 --fuzz-seconds 600 --seed 7

The same machinery as tests/reliability/ (test_kill.py, test_fuzz.py), run for longer and
with fresh random examples instead of the suite's fixed ones:

- **kill -9**: a forked child drives one table of each game through the table service
  and acknowledges each call after it returned; it is killed with SIGKILL at a random
  moment, `--kills` times, each kill followed by integrity_check, every acknowledged
  table, start and action looked up, and every table loaded with its invariants; at the
  end every game is played out and every record replays.
- **fuzzing**: hypothesis draws service calls and console lines for every game and phase
  (tests/reliability/fuzzing.py) until `--fuzz-seconds` have passed; a call raising
  anything but the service's refusal is a finding, printed with its shrunk example.
- **hostile inputs**: the cases of tests/reliability/test_hostile_inputs.py,
  test_start_up.py, test_content_dir.py and test_configuration.py, run by pytest.

Prints the figures docs/reliability.md quotes; exit status 1 if anything was lost or found.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from engine import games  # noqa: E402
from tests.reliability import fuzzing  # noqa: E402
from tests.reliability.driver import kill_runs  # noqa: E402

HOSTILE = [
    "tests/reliability/test_hostile_inputs.py",
    "tests/reliability/test_start_up.py",
    "tests/reliability/test_content_dir.py",
    "tests/reliability/test_configuration.py",
    "tests/reliability/test_folder_removed.py",
    "tests/reliability/test_disk_full.py",
]


def kills(count: int, seed: int) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        run = kill_runs(Path(folder) / "db.sqlite3", count, seed)
        took = time.perf_counter() - started
    final = run.final
    print(f"kill -9: {run.kills} kills tried, {run.survived} survived every check ({took:.0f} s)")
    print(f"  actions acknowledged before the kills: {run.acknowledged}; lost: {run.lost}")
    if final is not None:
        print(f"  at the end: {final.tables} tables, {final.finished} finished, {final.replayed} records replayed")
    for problem in run.problems[:20]:
        print("  PROBLEM", problem)
    return not run.problems and run.lost == 0


def fuzz(seconds: float, seed: int) -> bool:
    games.all()
    tally = fuzzing.Tally()
    common = settings(
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )

    @settings(common, max_examples=10)
    @given(data=st.data())
    def service(data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(fuzzing.GAMES))
        advance = data.draw(st.integers(0, 120))
        todo = data.draw(st.lists(fuzzing.calls(game), min_size=10, max_size=40))
        fuzzing.run(fuzzing.run_example(":memory:", game, data.draw(st.integers(0, 2**63 - 1)), advance, todo, tally))

    @settings(common, max_examples=5)
    @given(data=st.data())
    def console(data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(fuzzing.GAMES))
        advance = data.draw(st.integers(0, 80))
        lines = data.draw(st.lists(fuzzing.console_lines(game), min_size=10, max_size=40))
        fuzzing.run(fuzzing.run_console_example(":memory:", game, data.draw(st.integers(0, 2**63 - 1)), advance, lines, tally))

    rng = random.Random(seed)
    started = time.perf_counter()
    findings = []
    while time.perf_counter() - started < seconds:
        for fn in (service, console):
            try:
                hypothesis_seed(rng.randrange(2**32))(fn)()  # a fresh batch each round
            except Exception as exc:  # noqa: BLE001 - a finding: print it and go on
                findings.append(f"{fn.__name__}: {type(exc).__name__}: {exc}"[:3000])
    took = time.perf_counter() - started
    print(f"fuzzing: {tally.examples} examples, {tally.calls} service calls ({tally.refused} refused), "
          f"{tally.lines} console lines in {took:.0f} s; findings: {len(findings)}")
    for finding in findings[:10]:
        print("  FINDING", finding)
    return not findings


def hostile() -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *HOSTILE],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    summary = (done.stdout.strip().splitlines() or ["?"])[-1]
    print(f"hostile inputs and storage faults: {summary}")
    return done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--fuzz-seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ok = kills(args.kills, args.seed)
    ok = fuzz(args.fuzz_seconds, args.seed) and ok
    ok = hostile() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
