"""bench/report.py turns each benchmark's output into its README section: parsed from kept
output here (no benchmark runs), so a change to what a benchmark prints cannot silently
empty bench/README.md."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# What each benchmark prints, as it printed it (only the lines the report reads, and some
# it does not, so the parser is shown to pick its own out).
OUTPUT = {
    "engine": """\
crisis1914 (5 players): 119.8 games/s by step, 144.6 in place; 73 decisions a game, 0.0% of them with no listed actions
origins (7 players): 69.2 games/s by step, 70.6 in place; 233 decisions a game, 0.0% of them with no listed actions
schonbrunn (6 players): 156.4 games/s by step, 62.8 in place; 358 decisions a game, 0.0% of them with no listed actions
engine: crisis1914 119.8 games/s, origins 69.2 games/s, schonbrunn 156.4 games/s (per core, uniform legal actions, goal 100)
""",
    "startup": """\
built /work/main/bench/.cache/startup-10000.sqlite3 in 9.0 s
ready 0.211 s, then outage work 7.93 s (10000 running tables told)
outage work after connecting (best of 1): 7.93 s
ready after a 1 h outage: 0.211 s (10000 tables)
""",
    "render": """\
Origins of World War I, 7 players: median 34.9 ms (CPU 23.0 ms), p99 44.5 ms, largest PNG 43 KB (40 images)
Crisis: 1914, 5 players: median 47.3 ms (CPU 30.1 ms), p99 68.0 ms, largest PNG 48 KB (40 images)
Schönbrunn, 6 players: median 31.2 ms (CPU 20.6 ms), p99 37.3 ms, largest PNG 32 KB (40 images)
render: median 35.6 ms, p99 64.1 ms per image
""",
    "status_size": """\
crisis1914, 5 players: largest card 903 characters, largest whole status 4375
origins, 7 players: largest card 962 characters, largest whole status 2557
schonbrunn, 6 players: largest card 1006 characters, largest whole status 3385
""",
    "search-crisis1914": (
        "Crisis: 1914, 5 players, strong (200 iterations): 58 decisions, median 294 ms, p90 385 ms, longest 417 ms\n"
    ),
    "search-schonbrunn": (
        "Schönbrunn, 6 players, strong (200 iterations): 67 decisions, median 76 ms, p90 107 ms, longest 161 ms\n"
    ),
}


def _saturated(title: str, tables: int, service: tuple[str, str, int], bare: tuple[str, str, int]) -> str:
    ratio = bare[2] / service[2]
    return f"""\
scripts made in 5.7 s (150 of {tables} chosen by the automatic players, the rest replayed from bench/.cache/x.json)
{tables} tables of {title}, 3 players, 41042 actions per run, sqlite; Python 3.11.7, SQLite 3.40.1, 2 CPUs; gc thresholds (10000, 10, 10)
arrivals: every table back to back; best of 2 runs each
service   41042 actions  p50 {service[0]:>7} ms  p99 {service[1]:>7} ms  {service[2]:8d} actions/s  CPU 0.246 ms/action  (21.41 s)
bare      41042 actions  p50 {bare[0]:>7} ms  p99 {bare[1]:>7} ms  {bare[2]:8d} actions/s  CPU 0.069 ms/action  (9.43 s)
batched   41042 actions  p50   11.91 ms  p99   76.66 ms     11386 actions/s  CPU 0.025 ms/action  (3.60 s)
ratio, service / bare (throughput): {ratio:.2f}  (target <= 1.5)
throughput ratio {ratio:.2f}, p50 ratio 2.13, CPU ratio 3.58 (CPU is the steadiest on a busy machine)
for reference, service / batched bare (the bare write through the same group commit): throughput 5.94, p50 7.50
service p99 of each run: 300.00, {service[1]} ms; best {service[1]} ms
bare p99 of each run: 140.00, {bare[1]} ms; best {bare[1]} ms
service p99 (best of 2 runs): {service[1]} ms, 1.97 x the bare write's  (target <= 25.0 ms)
mean latency = tables / throughput (Little's law): service 104.3 ms, bare 46.0 ms; a p99 of 25 ms with 200 tables needs over 8,000 actions/s (the bare write: 4,352, its best p99 135.87 ms)
"""


OUTPUT["action_path"] = _saturated(
    "Envoys (test game)", 200, ("12.20", "18.40", 16047), ("15.30", "20.20", 13604)
)
OUTPUT["action_path-crisis1914"] = _saturated(
    "Crisis: 1914", 200, ("89.33", "268.32", 1917), ("41.94", "135.87", 4352)
)
OUTPUT["action_path-origins"] = _saturated(
    "Origins of World War I", 200, ("32.60", "45.30", 5825), ("20.00", "21.60", 14516)
)
OUTPUT["action_path-schonbrunn"] = _saturated(
    "Schönbrunn", 200, ("97.39", "295.82", 1744), ("37.87", "267.57", 4154)
)
for game, parts in {
    "crisis1914": ("78.5", "23.0", 29, "15.2", 19, "40.3", 51),
    "origins": ("90.0", "40.3", 45, "11.1", 12, "38.6", 43),
    "schonbrunn": ("65.9", "16.2", 25, "15.8", 24, "33.9", 51),
}.items():
    whole, engine, es, js, jss, own, os_ = parts
    OUTPUT[f"action_path-breakdown-{game}"] = (
        f"50 tables of {game}, 3 players, 10000 actions per run, sqlite\n"
        f"service path, no database write: {whole} µs CPU per action = engine {engine} ({es}%) "
        f"+ state JSON {js} ({jss}%) + the service's own work {own} ({os_}%)  (best of 1 each)\n"
    )

META = {
    "commit": "abc1234-dirty",
    "date": "2026-12-04 21:55 UTC",
    "load": "4.23",
    "cpus": "2",
    "python": "3.11.7",
    "cpu_model": "",
    "runs": {"engine": {"date": "2026-12-04 21:56 UTC", "load": "3.10"}},
}


@pytest.fixture
def report(monkeypatch: pytest.MonkeyPatch):
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "bench" / "report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_report", module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def _kept(folder: pathlib.Path, output: dict[str, str] = OUTPUT) -> pathlib.Path:
    folder.mkdir(exist_ok=True)
    for run_id, text in output.items():
        (folder / f"{run_id}.txt").write_text(text, encoding="utf-8")
    (folder / "meta.json").write_text(json.dumps(META), encoding="utf-8")
    return folder


def _table_rows(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.startswith("| ") and not line.startswith("| ---")]


def test_every_section_gets_its_command_and_a_table_of_its_figures(report, tmp_path):
    readme = tmp_path / "README.md"
    assert report.main(["--from-output", str(_kept(tmp_path / "out")), "--readme", str(readme)]) == 0
    text = readme.read_text(encoding="utf-8")
    for section in report.SECTIONS:
        block = report.block(text, section.name)
        assert block, f"{section.name}: no section written"
        for run in section.runs:
            assert f"\n{run.command}\n" in block, f"{section.name}: the command {run.command!r} is missing"
        assert "| ---" in block and len(_table_rows(block)) >= 2, f"{section.name}: no table of figures"


def test_the_figures_in_the_tables_are_those_the_benchmarks_printed(report, tmp_path):
    readme = tmp_path / "README.md"
    report.main(["--from-output", str(_kept(tmp_path / "out")), "--readme", str(readme)])
    text = readme.read_text(encoding="utf-8")
    engine = _table_rows(report.block(text, "engine"))
    assert any("Origins of World War I" in r and "69.2" in r and "**not met**" in r for r in engine)
    assert any("Schönbrunn" in r and "156.4" in r and "| met |" in r for r in engine)
    action_path = report.block(text, "action_path")
    # the test game meets both targets (ratio 13604/16047, p99 18.40 ms); Crisis neither
    assert any(
        "the test game" in r and "0.85 (met)" in r and "18.40 ms (met)" in r for r in _table_rows(action_path)
    )
    assert any("Crisis: 1914" in r and "2.27 (**not met**)" in r for r in _table_rows(action_path))
    assert any("Origins of World War I" in r and "40.3 (45%)" in r for r in _table_rows(action_path))
    assert "10,000 | 0.211 s | 7.93 s | met" in report.block(text, "startup")
    assert "1,006 | **not met**" in report.block(text, "status_size")
    assert "417 ms" in report.block(text, "search") and "161 ms" in report.block(text, "search")


def test_each_section_and_the_header_say_where_and_when(report, tmp_path):
    readme = tmp_path / "README.md"
    report.main(["--from-output", str(_kept(tmp_path / "out")), "--readme", str(readme)])
    text = readme.read_text(encoding="utf-8")
    header = " ".join(report.block(text, "header").split())  # as read, whatever the line breaks
    assert "`abc1234-dirty`" in header and "2 CPUs" in header and "Python 3.11.7" in header
    assert "load average 4.23" in header
    # a section names the date and load at the start of its own first benchmark
    engine = " ".join(report.block(text, "engine").split())
    assert "2026-12-04 21:56 UTC" in engine and "load average 3.10 at the start" in engine


def test_only_rewrites_the_sections_named(report, tmp_path):
    readme = tmp_path / "README.md"
    report.main(["--from-output", str(_kept(tmp_path / "first")), "--readme", str(readme)])
    before = readme.read_text(encoding="utf-8")
    later = {run_id: text.replace("4", "8") for run_id, text in OUTPUT.items()}  # every figure moves
    later["engine"] = OUTPUT["engine"].replace("119.8", "250.5")
    code = report.main(
        ["--from-output", str(_kept(tmp_path / "later", later)), "--readme", str(readme), "--only", "engine"]
    )
    assert code == 0
    after = readme.read_text(encoding="utf-8")
    assert "250.5" in report.block(after, "engine") and "119.8" not in report.block(after, "engine")
    for name in ("action_path", "startup", "render", "status_size", "search"):
        assert report.block(after, name) == report.block(before, name), f"{name} changed"
    assert "the sections `engine`" in " ".join(report.block(after, "header").split())


def test_output_it_cannot_read_leaves_the_section_and_fails(report, tmp_path, capsys):
    readme = tmp_path / "README.md"
    report.main(["--from-output", str(_kept(tmp_path / "first")), "--readme", str(readme)])
    before = report.block(readme.read_text(encoding="utf-8"), "startup")
    changed = dict(OUTPUT, startup="ready after an outage: soon\n")
    code = report.main(
        [
            "--from-output",
            str(_kept(tmp_path / "later", changed)),
            "--readme",
            str(readme),
            "--only",
            "startup",
        ]
    )
    assert code == 1
    assert report.block(readme.read_text(encoding="utf-8"), "startup") == before
    assert "startup: not updated" in capsys.readouterr().err


def test_the_text_outside_the_markers_is_kept(report, tmp_path):
    readme = tmp_path / "README.md"
    report.main(["--from-output", str(_kept(tmp_path / "out")), "--readme", str(readme)])
    readme.write_text(
        readme.read_text(encoding="utf-8") + "\n## Run by hand\n\nwritten by hand\n", encoding="utf-8"
    )
    report.main(["--from-output", str(_kept(tmp_path / "out")), "--readme", str(readme), "--only", "render"])
    assert readme.read_text(encoding="utf-8").endswith("## Run by hand\n\nwritten by hand\n")


def test_the_repository_readme_has_every_generated_section(report):
    text = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    for name in ("header", *report.BY_NAME):
        assert report.block(text, name) is not None, f"bench/README.md has no generated {name} section"
