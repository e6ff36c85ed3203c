"""bench/same_output.py on one small game, through its command line (`main`, in this
process: three games in new interpreters took twice as long): recording and comparing on
the same code says "same", and a record with one stream's digest altered is caught, by
name."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ONE_GAME = ["--game", "crisis1914", "--players", "2"]


def script(monkeypatch: pytest.MonkeyPatch):
    spec = importlib.util.spec_from_file_location("same_output", ROOT / "bench" / "same_output.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "same_output", module)  # its dataclasses look themselves up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_same_code_is_the_same_and_an_altered_digest_is_named(tmp_path: Path, capsys, monkeypatch):
    main = script(monkeypatch).main

    def run(*args: str) -> tuple[int, str]:
        code = main([*args, *ONE_GAME])
        return code, capsys.readouterr().out

    record = tmp_path / "record.json"
    assert run("--record", str(record))[0] == 0
    games = json.loads(record.read_text())["games"]
    assert list(games) == ["crisis1914-2p"]
    streams = games["crisis1914-2p"]
    assert set(streams) == {"public", "private", "summaries", "cards", "pictures", "export", "replay_page"}
    assert all(s["lines"] > 0 for s in streams.values())

    code, said = run("--compare", str(record))
    assert code == 0 and "crisis1914-2p: same" in said, said

    streams["private"]["sha256"] = "0" * 64  # as if the code now said one private line otherwise
    streams["private"]["blocks"][0] = "0" * 12
    altered = tmp_path / "altered.json"
    altered.write_text(json.dumps({**json.loads(record.read_text()), "games": games}))
    code, said = run("--compare", str(altered))
    assert code == 1 and "crisis1914-2p: differs" in said, said
    assert "  private differs (from about line 1;" in said
    named = [line.split()[0] for line in said.splitlines() if line.startswith("  ") and " differs (" in line]
    assert named == ["private"]  # no other stream
