"""The import graph of bot/ and engine/: no module may depend, however indirectly, on itself.

Every import counts, wherever it is written: at the top, under `if TYPE_CHECKING:` or
inside a function. An import hidden in a function still makes the two modules need each
other; it only moves the failure from import time to the first call. Each module is read
with `ast`, never imported, so a cycle is found even where Python would import it fine.

An import names a module (`from bot.service import tables`) or a package's attribute
(`from bot.service.tables import TableService`): the edge goes to `pkg.name` when that is
a module of the tree, else to `pkg`. Parent packages are not edges of their own.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "engine")


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, tuple[Path, bool]]:
    """Every module under the packages, by dotted name: (its file, whether it is an __init__)."""
    found: dict[str, tuple[Path, bool]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_init = parts[-1] == "__init__"
            if is_init:
                parts.pop()
            found[".".join(parts)] = (path, is_init)
    return found


def _imported(name: str, path: Path, is_init: bool, known: dict[str, tuple[Path, bool]]) -> set[str]:
    """The modules of the tree that the module `name` imports, anywhere in its text."""
    package = name if is_init else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in known:
                    found.add(f"{target}.{alias.name}")
                elif target in known:
                    found.add(target)
    found.discard(name)
    return found


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: _imported(name, path, is_init, known) for name, (path, is_init) in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    without recursion): each is a set of modules that all depend on one another."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def describe(graph: dict[str, set[str]], cycle: list[str]) -> str:
    """A cycle's modules, each with the modules of the cycle it imports."""
    members = set(cycle)
    lines = [f"a cycle of {len(cycle)} modules:"]
    lines += [f"  {m} imports {', '.join(sorted(graph[m] & members))}" for m in cycle]
    return "\n".join(lines)


def test_no_module_of_bot_or_engine_depends_on_itself():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles (every import counts, under TYPE_CHECKING or in a function too):\n" + (
        "\n".join(describe(graph, c) for c in found)
    )


def packages_of(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between bot/'s role folders (bot.service, bot.render, bot.store, …): an edge
    wherever a module of one imports a module of another."""

    def role(module: str) -> str:
        return ".".join(module.split(".")[:2])

    folders: dict[str, set[str]] = {}
    for module, targets in graph.items():
        if module.startswith("bot."):
            folders.setdefault(role(module), set()).update(
                role(t) for t in targets if t.startswith("bot.") and role(t) != role(module)
            )
    return folders


def test_no_role_folder_of_bot_depends_on_itself_through_another():
    """Roles layer one way (docs/architecture.md §1): the store below the service and the
    pictures and texts (render), the front ends and tools above; the game record sits in the
    store, so render's replay page and the service both read it from below."""
    folders = packages_of(import_graph())
    found = cycles({name: targets & folders.keys() for name, targets in folders.items()})
    assert not found, "role folders that import each other:\n" + "\n".join(describe(folders, c) for c in found)
    assert "bot.render" not in folders["bot.store"] and "bot.service" not in folders["bot.render"]


def test_only_the_discord_package_imports_the_bot_client():
    # The handlers see the bot through bot.discord.host.Host; the client sits on top.
    importers = sorted(m for m, targets in import_graph().items() if "bot.discord.client" in targets)
    assert importers == ["bot.discord"]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_cycle_finder_sees_imports_under_type_checking_and_in_functions(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
            "pkg/b.py": "def f():\n    from pkg.sub import c\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/c.py": "from .. import a\n",
            "pkg/d.py": "import pkg.a\nfrom pkg.b import f\n",  # imports into the cycle, not part of it
            "pkg/e.py": "from . import f\n",
            "pkg/f.py": "from .e import thing\n",
        },
    )
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.sub.c"] == {"pkg.a"}  # `from .. import a`: the module, not the package
    assert graph["pkg.d"] == {"pkg.a", "pkg.b"}
    found = cycles(graph)
    assert found == [["pkg.a", "pkg.b", "pkg.sub.c"], ["pkg.e", "pkg.f"]]
    assert "pkg.b imports pkg.sub.c" in describe(graph, found[0])
