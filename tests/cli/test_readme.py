"""The README stays true: generated parts current, every config key and subcommand documented."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re

import pytest

from bot.__main__ import _parser
from bot.process.config import Config
from engine import games

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _readme_script():
    spec = importlib.util.spec_from_file_location("readme_script", ROOT / "scripts" / "readme.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def shipped_games(monkeypatch: pytest.MonkeyPatch):
    """The registry as a fresh process sees it: other tests may have registered test games."""
    monkeypatch.setattr(games, "_GAMES", {})
    monkeypatch.setattr(games, "_ALIASES", {})
    monkeypatch.setattr(games, "_loaded", False)


def test_generated_command_list_and_content_table_are_current(shipped_games):
    script = _readme_script()
    assert script.stale(README) == [], (
        "README.md is out of date: run .venv/bin/python scripts/readme.py --write"
    )


def test_the_generator_notices_a_stale_list(shipped_games):
    script = _readme_script()
    fresh = README
    for name in script.BLOCKS:
        fresh = fresh.replace(script.current(README, name), script.render(name))
    assert script.stale(fresh) == []
    assert script.stale(fresh.replace("| `/game start` |", "| `/game begin` |")) == ["commands"]


def test_the_two_commands_exist_and_ci_runs_the_test_command():
    for name in ("run", "test"):
        path = ROOT / "scripts" / name
        assert f"./scripts/{name}" in README
        assert path.is_file() and os.access(path, os.X_OK), f"scripts/{name} is not executable"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./scripts/test" in ci and os.access(ROOT / ".ci" / "run", os.X_OK)


def test_every_config_key_is_in_the_readme():
    for key in Config.model_fields:
        assert f"| `{key}` |" in README, f"README's configuration table lacks {key}"


def test_every_subcommand_is_in_the_readme():
    parser = _parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name in subparsers.choices:
        assert re.search(rf"\| `{name}( |`)", README), f"README's command-line table lacks {name}"


def test_where_things_are_names_every_file_under_bot():
    """The README's map of the code lists every file under bot/."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Where things are") :]
    section = section[: section.index("\n## ", 3)] if "\n## " in section[3:] else section
    files = [p for p in (root / "bot").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    missing = [str(p.relative_to(root)) for p in files if p.name not in section]
    assert not missing, f"README 'Where things are' does not name: {missing}"
