"""The test tiers stay honest: `./scripts/test -m "not slow"` (the quick check the README
names) runs no SimCord game, no browser and no killed or signalled process, because every
test file of those kinds says so at its top (`pytestmark`); `./scripts/test` with no
arguments still runs them all. Each kind counts as `slow` (tests/conftest.py).

Test files are read with `ast`, never imported, so a new file is checked the moment it exists.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from tests.conftest import SLOW_KINDS

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

# Test files under the SimCord folders that do not run SimCord, and why.
NOT_SIMCORD = {
    "tests/discord/test_ticker.py": "the deadline ticker alone, with stand-ins for the bot",
}


def _files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("test_*.py"))


def _module_marks(path: Path) -> set[str]:
    """The markers named in the file's top-level `pytestmark`."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute):
                    if sub.value.attr == "mark":
                        found.add(sub.attr)
    return found


def _marks_anywhere(path: Path) -> set[str]:
    """Every marker named in the file, at its top or on a single test."""
    return set(re.findall(r"\bpytest\.mark\.(\w+)", _text(path)))


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _uses_simcord(path: Path) -> bool:
    """Asks for SimCord's environment, or builds on the SimCord fixtures or tests."""
    text = _text(path)
    return bool(
        re.search(r"\bsimcord_env\b", text)
        or re.search(r"^from tests\.(community\.)?discord[.\w]* import", text, re.M)
    )


def _uses_a_browser(path: Path) -> bool:
    text = _text(path)
    return "playwright" in text or re.search(r"\bViewer\b", text) is not None


def _kills_or_signals(path: Path) -> bool:
    return re.search(r"SIGKILL|SIGTERM|SIGINT|\.kill\(|kill_runs", _text(path)) is not None


def _must_carry() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The markers each test file must name at its top (a whole folder, or a whole file of
    one kind), and those it must name at least on the tests that use them (a file where
    only some tests kill or signal a process, for instance)."""
    top: dict[str, set[str]] = {}
    somewhere: dict[str, set[str]] = {}
    for path in _files("tests"):
        name = _name(path)
        if name == "tests/architecture/test_tiers.py":
            continue  # names every kind's words, runs none of them
        whole, some = top.setdefault(name, set()), somewhere.setdefault(name, set())
        in_simcord_folder = name.startswith(("tests/discord/", "tests/community/discord/"))
        if (in_simcord_folder and name not in NOT_SIMCORD) or _uses_simcord(path):
            whole.add("simcord")
        if name == "tests/replay_page/test_browser.py":
            whole.add("browser")
        elif _uses_a_browser(path):
            some.add("browser")
        if name.startswith("tests/operations/") or name.endswith("_kill.py"):
            whole.add("processes")
        elif _kills_or_signals(path):
            some.add("processes")
        if path.name == "test_random_play.py":
            whole.add("whole_game")
    return {n: k for n, k in top.items() if k}, {n: k for n, k in somewhere.items() if k}


def test_every_file_of_a_slow_kind_carries_its_marker():
    top, somewhere = _must_carry()
    missing = {name: sorted(kinds - _module_marks(ROOT / name)) for name, kinds in top.items()}
    missing = {name: kinds for name, kinds in missing.items() if kinds}
    assert missing == {}, f"add `pytestmark = pytest.mark.<kind>` at the top of: {missing}"
    unmarked = {name: sorted(kinds - _marks_anywhere(ROOT / name)) for name, kinds in somewhere.items()}
    unmarked = {name: kinds for name, kinds in unmarked.items() if kinds}
    assert unmarked == {}, f"mark the tests of these kinds (`@pytest.mark.<kind>`) in: {unmarked}"


def test_the_rules_find_the_known_files_of_each_kind():
    """The rules above are not vacuous: they find the files this suite is known to have."""
    need, somewhere = _must_carry()
    assert "simcord" in need["tests/discord/test_discord_e2e.py"]
    assert "simcord" in need["tests/community/discord/test_signups.py"]
    assert "simcord" in need["tests/replay_page/test_discord.py"]
    assert "browser" in need["tests/replay_page/test_browser.py"]
    assert "processes" in need["tests/reliability/test_kill.py"]
    assert "processes" in need["tests/reliability/test_outbox_kill.py"]
    assert "processes" in need["tests/operations/test_shutdown.py"]
    assert "processes" in somewhere["tests/console/test_console.py"]
    assert "whole_game" in need["tests/schonbrunn/test_random_play.py"]
    for name in NOT_SIMCORD:
        assert (ROOT / name).is_file(), f"{name} is gone: take it out of NOT_SIMCORD"


def test_every_kind_is_declared_and_strict():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = options["tool"]["pytest"]["ini_options"]
    declared = {line.split(":")[0] for line in pytest_options["markers"]}
    assert {"slow", *SLOW_KINDS} <= declared
    assert "--strict-markers" in pytest_options["addopts"]


def test_a_test_of_any_kind_is_slow(request: pytest.FixtureRequest):
    """Among the tests this process collected, each one of a kind also carries `slow`."""
    of_a_kind = [
        item for item in request.session.items if any(item.get_closest_marker(k) for k in SLOW_KINDS)
    ]
    assert all(item.get_closest_marker("slow") for item in of_a_kind)
