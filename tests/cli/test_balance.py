"""`balance`: stored parts of seat-balance games, and the reports regenerated from them."""

from __future__ import annotations

import io
import json

import pytest

from bot.__main__ import main
from bot.tools import balance
from engine import games


@pytest.fixture
def docs(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """A docs/balance folder of its own, with notes around the results marker."""
    folder = tmp_path / "balance"
    folder.mkdir()
    (folder / "envoys.notes.md").write_text(
        "# Envoys\n\nHow the game is balanced.\n\n<!-- results -->\n\n## History\n\nOlder tables.\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(balance, "DOCS", folder)
    return folder


def _run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["balance", *args], stdout=out), out.getvalue()


def test_parts_are_stored_and_merged_into_the_report(envoys, docs):
    assert _run("run", "envoys", "--players", "3", "--games", "6", "--seed", "5")[0] == 0
    assert _run("run", "envoys", "--players", "3", "--games", "4", "--seed", "5", "--start", "6")[0] == 0
    assert _run("run", "envoys", "--players", "2", "--games", "5", "--seed", "9")[0] == 0
    parts = balance.load(docs / "results" / "envoys-basic.jsonl")
    assert [(p.players, p.seed, p.start, p.games) for p in parts] == [
        (3, 5, 0, 6),
        (3, 5, 6, 4),
        (2, 9, 0, 5),
    ]
    assert all(p.content == balance.content_key(envoys) and p.commit for p in parts)
    assert all(p.cpu is not None and p.cpu >= 0 for p in parts)
    code, _ = _run("report", "envoys")
    assert code == 0
    text = (docs / "envoys.md").read_text(encoding="utf-8")
    assert text.index("How the game is balanced.") < text.index("## Results") < text.index("## History")
    assert "10 games (seed 5 games 0-9)" in text
    # the shares of one count add up to the whole: every game has a winner
    three = balance.Count(3, [p for p in parts if p.players == 3])
    assert sum(three.shares().values()) == pytest.approx(10)


def test_the_report_regenerates_byte_identically_from_the_stored_results(envoys, docs):
    _run("run", "envoys", "--players", "4", "--games", "5", "--seed", "2")
    _run("report", "envoys")
    first = (docs / "envoys.md").read_bytes()
    _run("report", "envoys")
    assert (docs / "envoys.md").read_bytes() == first
    assert balance.report(envoys).encode() == first


def test_overlapping_games_are_refused(envoys, docs, capsys):
    assert _run("run", "envoys", "--players", "3", "--games", "6", "--seed", "5")[0] == 0
    path = docs / "results" / "envoys-basic.jsonl"
    before = path.read_bytes()
    assert _run("run", "envoys", "--players", "3", "--games", "3", "--seed", "5", "--start", "4")[0] == 2
    assert "use --start 6" in capsys.readouterr().err
    assert path.read_bytes() == before
    # the store itself refuses too (a part played by another process meanwhile)
    again = balance.run_part(envoys, 3, 2, 5, start=5, lineup="basic", commit="x")
    with pytest.raises(balance.BalanceError, match="overlap"):
        balance.store(path, again)
    # another count, seed or the games after it are not an overlap
    assert _run("run", "envoys", "--players", "3", "--games", "2", "--seed", "5", "--start", "6")[0] == 0
    assert _run("run", "envoys", "--players", "2", "--games", "2", "--seed", "5")[0] == 0


def test_results_of_other_content_are_labelled_and_left_out(envoys, docs):
    _run("run", "envoys", "--players", "3", "--games", "4", "--seed", "5")
    path = docs / "results" / "envoys-basic.jsonl"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["content"] = "0" * 12
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    text = balance.report(envoys)
    assert "Not counted: 4 games in 1 parts measured on other content" in text
    assert "| 3 | 0 | not measured |" in text
    # the same games on the current content are not an overlap of the stale part
    assert _run("run", "envoys", "--players", "3", "--games", "4", "--seed", "5")[0] == 0


def test_seats_outside_the_range_are_named():
    part = balance.Part(
        2, 1, 0, "basic", "k", 1, "c", "2026-01-01", ["A", "B"], [[10, 0]] * 90 + [[10, 1]] * 10
    )
    goal = balance.Goal("basic", 100, (2,), interval=True)
    lines, summary = balance._count_section(games.get("origins"), goal, "basic", balance.Count(2, [part]))
    assert "| A | 90.0% | 1.80× |" in "\n".join(lines)
    assert summary.startswith("| 2 | 100 | not met | A 1.80×, B 0.20×")


def test_wilson_interval():
    low, high = balance.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)


@pytest.mark.parametrize("game_id", sorted(balance.GOALS))
def test_the_checked_in_reports_are_what_balance_report_writes(game_id):
    game = games.get(game_id)
    path = balance.DOCS / f"{game_id}.md"
    assert path.read_text(encoding="utf-8") == balance.report(game), (
        f"{path} is out of date: run .venv/bin/python -m bot balance report {game_id}"
    )
