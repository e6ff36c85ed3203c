"""The README's generated parts: the slash-command list, the content provenance table, the
table options and the map of the code (from docs/architecture.md).

    .venv/bin/python scripts/readme.py          # exit 1 if README.md is out of date
    .venv/bin/python scripts/readme.py --write  # rewrite the generated parts of README.md

The command list is built from the Discord adapter's `/game` group and one group per
registered game (from its engine Commands); the content table counts the provenance of
every entry in engine/content/<game>/*.toml. Both come from the code and data, so the
README cannot drift from them unnoticed: tests/cli/test_readme.py runs the check.
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
KINDS = ("rulebook", "public", "reconstructed")


def _markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- generated:{name} begin (scripts/readme.py --write; do not edit by hand) -->",
        f"<!-- generated:{name} end -->",
    )


def _on_path() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


# -- the command list ------------------------------------------------------------------------
def _usage(group_name: str, command: Any) -> str:
    words = [f"/{group_name} {command.name}"]
    words += [p.display_name if p.required else f"[{p.display_name}]" for p in command.parameters]
    return " ".join(words)


def commands() -> str:
    _on_path()
    from bot.discord.community_commands import CommunityGroup
    from bot.discord.diplomacy_commands import DiplomacyGroup
    from bot.discord.play_commands import build_game_group
    from bot.discord.table_commands import GameGroup
    from engine import games

    lines: list[str] = []
    groups = [GameGroup(), DiplomacyGroup()] + [build_game_group(g) for g in games.all() if g.commands]
    groups.append(CommunityGroup())
    for group in groups:
        lines += [f"**`/{group.name}`**: {group.description}", "", "| Command | What it does |", "|---|---|"]
        lines += [
            f"| `{_usage(group.name, c)}` | {c.description.replace('|', '/')} |" for c in group.commands
        ]
        lines.append("")
    from bot.discord.long_commands import TOP_LEVEL

    lines += [
        "**Beside `/game`** (its group holds Discord's 25 commands)",
        "",
        "| Command | What it does |",
        "|---|---|",
    ]
    lines += [
        f"| `{_usage(c.name, c).replace(f'/{c.name} {c.name}', f'/{c.name}')}` | {c.description.replace('|', '/')} |"
        for c in TOP_LEVEL
    ]
    return "\n".join(lines).rstrip()


# -- the content table -----------------------------------------------------------------------
def _count(node: Any, into: Counter[str]) -> None:
    """Count every entry's provenance kind, whatever the file's layout."""
    if isinstance(node, dict):
        provenance = node.get("provenance")
        if isinstance(provenance, dict) and provenance.get("kind") in KINDS:
            into[provenance["kind"]] += 1
        for value in node.values():
            if value is not provenance:
                _count(value, into)
    elif isinstance(node, list):
        for value in node:
            _count(value, into)


def _docs(folder: str, game: str) -> list[str]:
    found = sorted((ROOT / "docs" / folder).glob(f"{game}*.md"))
    return [f"[{p.relative_to(ROOT)}]({p.relative_to(ROOT)})" for p in found]


# docs/rulings.md keeps every game's rulings in one file, a section each
RULINGS_ANCHORS = {
    "crisis1914": "crisis-1914",
    "origins": "origins-of-world-war-i",
    "schonbrunn": "schönbrunn",
}


def _rulings(game: str) -> list[str]:
    anchor = RULINGS_ANCHORS.get(game)
    return [f"[docs/rulings.md#{anchor}](docs/rulings.md#{anchor})"] if anchor else []


def content() -> str:
    lines = ["| Content file | Rulebook | Public | Reconstructed |", "|---|---:|---:|---:|"]
    notes = []
    for game_dir in sorted(p for p in (ROOT / "engine" / "content").iterdir() if p.is_dir()):
        for path in sorted(game_dir.glob("*.toml")):
            counts: Counter[str] = Counter()
            _count(tomllib.loads(path.read_text(encoding="utf-8")), counts)
            rel = path.relative_to(ROOT)
            lines.append(f"| [{rel}]({rel}) | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
        docs = _rulings(game_dir.name) + _docs("balance", game_dir.name)
        if docs:
            notes.append(f"- {game_dir.name}: " + ", ".join(docs))
    if notes:
        lines += ["", "Rulings and balance notes:", "", *notes]
    return "\n".join(lines)


def options() -> str:
    """Each game's table options for `/game new`, with the rulebook section (bot/service/reference.py)."""
    _on_path()
    from bot.service.reference import table_options
    from engine import games

    lines = ["| Game | Option | Values (default) | What it does | Rulebook |", "|---|---|---|---|---|"]
    for game in games.all():
        for o in table_options(game):
            values = " / ".join(o.values) or "any"
            lines.append(
                f"| {game.title} | `{o.name}` | {values} ({o.default}) | {o.description} | {o.section} |"
            )
    return "\n".join(lines)


def code_map() -> str:
    """The map of the repository, copied from docs/architecture.md's "Where things are"."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## 8. Where things are") :]
    start = section.index("```\n")
    stop = section.index("```\n", start + 4) + 3
    return section[start:stop]


BLOCKS: dict[str, Callable[[], str]] = {
    "commands": commands,
    "content": content,
    "options": options,
    "map": code_map,
}


def render(name: str) -> str:
    begin, end = _markers(name)
    return f"{begin}\n{BLOCKS[name]()}\n{end}"


def current(text: str, name: str) -> str | None:
    begin, end = _markers(name)
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        return None
    return text[start : stop + len(end)]


def stale(text: str) -> list[str]:
    """Names of the generated parts of `text` that are missing or out of date."""
    return [name for name in BLOCKS if current(text, name) != render(name)]


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    missing = [name for name in BLOCKS if current(text, name) is None]
    if missing:
        print(f"README.md lacks the generated part(s) {missing}: add their markers", file=sys.stderr)
        return 1
    if "--write" in argv:
        for name in BLOCKS:
            text = text.replace(current(text, name) or "", render(name))
        README.write_text(text, encoding="utf-8")
        return 0
    outdated = stale(text)
    if outdated:
        print(
            f"README.md is out of date ({', '.join(outdated)}): run scripts/readme.py --write",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
