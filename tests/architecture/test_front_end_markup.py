"""The service writes what each front end shows its own way as spans (bot/render/rich.py),
never in a front end's syntax: no Discord mention, channel link, timestamp, small-print line
or slash-command mention anywhere under bot/ but the Discord adapter, and no regular
expression in bot/console to turn one into words. Within the adapter, Discord's mentions
and timestamps are written in bot/discord/markup.py alone.

Modules are read as text (string literals with `ast`), never imported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Discord's own syntax as it would stand in a string the service writes: `<@1>`, `<@!1>`,
# `<@&1>`, `<#1>`, `<t:…>`, `</game status:1>`, a `-# ` small-print line.
DISCORD_SYNTAX = re.compile(r"<@[!&]?(\{|\d)|<#(\{|\d)|<t:|</[a-z]+[ :]|(^|\n)-# ")


def _strings(path: Path) -> list[tuple[int, str]]:
    return _strings_of(path.read_text(encoding="utf-8"))


def _strings_of(source: str) -> list[tuple[int, str]]:
    """Every string literal of a module (an f-string's literal parts too), with its line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            found.append((node.lineno, text))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
    return found


def _docstrings(path: Path) -> set[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and ast.get_docstring(node):
            lines.add(node.body[0].lineno)  # type: ignore[attr-defined]
    return lines


def test_nothing_outside_the_discord_adapter_writes_discord_syntax():
    """The service above all, and render, the store, the tools and the console with it."""
    offending = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if "discord" in path.relative_to(ROOT / "bot").parts[:1]:
            continue
        docs = _docstrings(path)
        for line, text in _strings(path):
            if line not in docs and DISCORD_SYNTAX.search(text):
                offending.append(f"{path.relative_to(ROOT)}:{line}: {text[:60]!r}")
    assert not offending, "Discord syntax outside bot/discord (write a span, bot/render/rich.py):\n" + "\n".join(offending)


def test_the_scan_finds_discord_syntax_where_it_stands():
    """The scan above can fail: it finds each kind in a module written like the service's."""
    sample = (
        'a = f"<@{uid}> your turn"\nb = "<#1>"\nc = f"due <t:{due}:R>"\nd = "-# a hint"\n'
        'e = "</game status:1>"\nf = "x\\n-# below"\n'
    )
    hits = {line for line, text in _strings_of(sample) if DISCORD_SYNTAX.search(text)}
    assert hits == {1, 2, 3, 4, 5, 6}


def test_the_console_reads_no_discord_syntax():
    """The console renders spans; it never turns Discord's markup into words with a pattern."""
    for path in sorted((ROOT / "bot" / "console").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert "<t:" not in source and "<@" not in source and "<#" not in source, path.name


def test_discord_markup_is_written_in_one_module():
    """Outside bot/discord/markup.py nothing under bot/ builds a mention or a timestamp."""
    writers = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path == ROOT / "bot" / "discord" / "markup.py" or "replay_page" in path.parts:
            continue
        docs = _docstrings(path)
        for line, text in _strings(path):
            if line not in docs and re.search(r"<@(\{|\d)|<#(\{|\d)|<t:\{", text):
                writers.append(f"{path.relative_to(ROOT)}:{line}")
    assert not writers, writers
