"""What a member may read of a table is decided in one place, `Gallery.read`
(bot/service/gallery.py): a spectator of a game in play reads it some rounds behind, through
every command. So no function of the table service loads a table another way, except those
listed here with the reason they cannot answer a member with what the gallery holds back
(they answer only a seated member about their own seat, or tell nothing of the play, or
are the channel's own view or the operator's). A read path added later that loads a table
itself fails this test until it goes through the gallery, or is listed with its reason.

Modules are read with `ast`, never imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "bot" / "service"

# module.function -> why it may load a table without asking the gallery
ALLOWED = {
    "gallery.Gallery.read": "the one rule itself",
    "tables.TableService.load": "tests and tools look inside a table; no front end answers a member with it",
    "tables.TableService.seat_user": "who holds a seat, for the front end's own use",
    "tables.TableService.table_info": "a table's game, seats and status for the front end: nothing of the play",
    "posts.Posts.status_card": "the channel's own status message: what anyone who opens the channel sees",
    "posts.Posts.round_summary": "the channel's own round summary: what anyone who opens the channel sees",
    "posts.Posts.shown_now": "the channel's own status message and summary: what anyone who opens the channel sees",
    "front_rows.FrontRows.keep": "keeps what Discord answered (a message or thread id): answers nothing",
    "history.History.operator_export": "the operator's command line, never a member",
    "history.History.import_record": "the table it has just made",
    "controls.Controls.talk": "a seated member's private talk: the seats' names only",
    "deliveries.Deliveries.owing": "who owes a decision, for turn notices to the players",
    "deliveries.Deliveries.still_owes": "whether a player still owes, for their own turn notice",
    "notify.Notifications.mine": "the member's own seats (/game mine)",
    "digest.Digest.compose": "a member's digest of the tables where they hold a seat",
    "diplomacy.Diplomacy.showable": "a seated member's own things to show",
    "diplomacy.Diplomacy.pacts": "a seated member's own pacts; refuses anyone not seated",
    "reviews.Reviews._compute": "a finished game's review: nothing is held back after the end",
    "reviews.Reviews.text": "a finished game's review; refuses a game in play",
    "signups.lobby_news": "a lobby table's entry: seats free, before any play",
    "community.Community.finished_file": "a finished game: nothing is held back after the end",
    "community.Community.mydata": "a member's own data",
    "community.Community.forget": "forgetting a member: changes, answers nothing of the play",
    "community.Community._current": "a profile's current tables: which tables, nothing of the play",
    "community.Community.join_offer": "a free seat offered from the directory: seats, nothing of the play",
    "community.Community._rows": "the server's table directory: game, seats and status, nothing of the play",
    # names who owes a decision now (whose turn it is), nothing of what was played; a
    # spectator reading it learns only that: not yet routed through the gallery
    "community.Community.directory_page": "the server's table directory: who owes a decision now, no play",
}


def _loads(path: Path) -> dict[str, int]:
    """The functions of a module (as module.Class.function) that call `<...access>.load(`;
    a function nested in a method (a `run` under `with_table`) counts as the method."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, where: tuple[str, ...], in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, (*where, child.name), False)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, where if in_function else (*where, child.name), True)
            else:
                if isinstance(child, ast.Call) and _is_access_load(child.func):
                    found.setdefault(".".join((path.stem, *where)), child.lineno)
                visit(child, where, in_function)

    visit(ast.parse(path.read_text(encoding="utf-8")), (), False)
    return found


def _is_access_load(func: ast.expr) -> bool:
    """`self.access.load`, `access.load` or `self.load` inside the service."""
    if not (isinstance(func, ast.Attribute) and func.attr == "load"):
        return False
    receiver = func.value
    if isinstance(receiver, ast.Attribute):
        return receiver.attr == "access"
    return isinstance(receiver, ast.Name) and receiver.id in ("access", "self")


def _every_load() -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted(SERVICE.glob("*.py")):
        if path.name != "loaded.py":  # where loading is defined
            found.update(_loads(path))
    return found


def test_no_read_path_of_the_service_loads_a_table_past_the_gallery():
    unlisted = {name: line for name, line in _every_load().items() if name not in ALLOWED}
    assert unlisted == {}, (
        "these load a table without asking what the member may read: take the table from "
        "`self.gallery.read(channel_id, reader)` (bot/service/gallery.py), or list them in "
        f"ALLOWED with the reason they cannot answer a spectator: {unlisted}"
    )


def test_the_reading_commands_ask_the_gallery():
    """Not vacuous: the member-facing reads are found, and each takes its table from the
    gallery (their names are not in ALLOWED, so a load of their own would fail above)."""
    text = {p.stem: p.read_text(encoding="utf-8") for p in SERVICE.glob("*.py")}
    readers = {
        "tables": ("status", "picture", "final_pictures", "my_picture", "me", "aid", "suggest", "choices",
                   "choice_details", "turn_menu"),
        "history": ("log", "export"),
    }
    for module, names in readers.items():
        lines = text[module].splitlines()
        methods = {
            n.name: "\n".join(lines[n.lineno - 1 : n.end_lineno])
            for n in ast.walk(ast.parse(text[module]))
            if isinstance(n, ast.AsyncFunctionDef)
        }
        for name in names:
            assert "self.gallery.read(" in methods[name], f"{module}.{name} does not ask the gallery"
    loads = _every_load()
    assert "gallery.Gallery.read" in loads  # the walk finds loads where they are
    stale = [name for name in ALLOWED if name not in loads]
    assert stale == [], f"listed in ALLOWED but no longer loading a table: {stale}"


# The member-facing reads the front ends call, and how many arguments name the reader too.
READS_WITH_READER = {("service", "status"): 2, ("history", "log"): 3, ("history", "export"): 2,
                     ("history", "export_html"): 2}


def _front_end_reads() -> list[tuple[str, int, str, int]]:
    """Every call of a member-facing read in bot/discord and bot/console: (file, line,
    read, arguments given)."""
    found = []
    for folder in ("discord", "console"):
        for path in sorted((ROOT / "bot" / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                receiver = node.func.value
                owner = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
                if (owner, node.func.attr) in READS_WITH_READER:
                    given = len(node.args) + len(node.keywords)
                    found.append((path.relative_to(ROOT).as_posix(), node.lineno, f"{owner}.{node.func.attr}", given))
    return found


def test_the_front_ends_say_who_reads():
    """/game status, /game log, /game export and their buttons name the member who reads,
    so the gallery can answer a spectator with the delayed view (None, written out: the
    channel's own view, what anyone who opens it sees)."""
    reads = _front_end_reads()
    assert len(reads) >= 6  # status and log in Discord and its buttons, export, and the console's
    anonymous = [r for r in reads if r[3] < READS_WITH_READER[tuple(r[2].split("."))]]  # type: ignore[index]
    assert anonymous == [], f"pass the reader (the member's id): {anonymous}"
