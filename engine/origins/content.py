"""The content of Origins of World War I: board, attack table and national objectives.

Everything is loaded from `engine/content/origins/*.toml`, each entry with its provenance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeVar, cast

from engine.core import ContentError, Model, Sourced, load_toml
from engine.core import content as core_content

GAME_ID = "origins"


class Power(Sourced):
    """A country a player may hold: it earns PFs and has an embassy."""

    code: str
    name: str
    income: int


class Minor(Sourced):
    """An embassy nobody holds (Serbia ... Far East)."""

    code: str
    name: str


class Assignment(Sourced):
    players: int
    groups: list[list[str]]
    reading: str = ""  # "" the default; another reading is chosen by a table option


class Turn(Sourced):
    label: str
    scoring: bool = False  # Phase 6 (provisional VPs and diplomacy) this month
    end_on: int = 0  # Phase 2: a die roll at most this ends the game (0: no roll)


class Board(Model):
    powers: list[Power]
    minors: list[Minor]
    assignments: list[Assignment]
    turns: list[Turn]


class Column(Model):
    label: str
    attacker: int
    defender: int


class Row(Sourced):
    roll: int
    results: list[Literal["AE", "DE", "EX"]]
    rulebook_cells: int = 0  # how many cells from the left are printed in §7


class AttackTable(Model):
    columns: list[Column]
    rows: list[Row]


class Objective(Sourced):
    power: str
    location: str
    points: int
    exclusive: int | None = None  # replaces `points` when the treaty rights are exclusive


class Special(Sourced):
    power: str
    kind: Literal["nobody_above", "enemy_without_major_treaties"]
    points: int
    threshold: int = 0
    enemy: str = ""


class Objectives(Model):
    objectives: list[Objective]
    specials: list[Special]


# The rules look content up at every step; resolving the file path each time costs more
# than the rules themselves, so loaded tables are kept per content directory.
_memo: dict[tuple[str, object], object] = {}
T = TypeVar("T")


def _cached(key: str, make: Callable[[], T]) -> T:
    slot = (key, core_content.content_dir())
    if slot not in _memo:
        _memo[slot] = make()
    # what `make` made for this key: one key is always given the same factory
    return cast(T, _memo[slot])


def board() -> Board:
    return _cached("board", lambda: load_toml(GAME_ID, "board.toml", Board))


def attack_table() -> AttackTable:
    return _cached("attacks", lambda: load_toml(GAME_ID, "attack_table.toml", AttackTable))


def objectives() -> Objectives:
    return _cached("objectives", lambda: load_toml(GAME_ID, "objectives.toml", Objectives))


def powers() -> dict[str, Power]:
    return _cached("powers", lambda: {p.code: p for p in board().powers})


def names() -> dict[str, str]:
    """Every embassy code with its name, in board order (powers first)."""
    return _cached(
        "names",
        lambda: {**{p.code: p.name for p in board().powers}, **{m.code: m.name for m in board().minors}},
    )


def embassies() -> list[str]:
    return _cached("embassies", lambda: list(names()))


def check_content() -> None:
    """Every file loads, and every code an entry names is on the board (ContentError
    naming file, entry and field)."""
    b, table, objs = board(), attack_table(), objectives()
    where = {n: core_content.content_path(GAME_ID, n) for n in ("board.toml", "attack_table.toml", "objectives.toml")}
    codes = set(names())
    for i, a in enumerate(b.assignments):
        for g, group in enumerate(a.groups):
            for code in group:
                if code not in powers():
                    raise ContentError(f"{where['board.toml']}: assignments.{i}.groups.{g}: no power {code!r}")
    for i, row in enumerate(table.rows):
        if len(row.results) != len(table.columns):
            raise ContentError(
                f"{where['attack_table.toml']}: rows.{i} (roll {row.roll}).results: "
                f"{len(row.results)} results for {len(table.columns)} columns"
            )
    for i, o in enumerate(objs.objectives):
        if o.power not in powers():
            raise ContentError(f"{where['objectives.toml']}: objectives.{i}.power: no power {o.power!r}")
        if o.location not in codes:
            raise ContentError(f"{where['objectives.toml']}: objectives.{i}.location: no embassy {o.location!r}")
    for i, s in enumerate(objs.specials):
        if s.power not in powers():
            raise ContentError(f"{where['objectives.toml']}: specials.{i}.power: no power {s.power!r}")
        if s.enemy and s.enemy not in powers():
            raise ContentError(f"{where['objectives.toml']}: specials.{i}.enemy: no power {s.enemy!r}")


def assignment(players: int, reading: str = "") -> Assignment:
    """The §1 deal for this many players; `reading` names another reading of the rulebook
    (the 4-player "s9": §9's United Kingdom and Italy), where the board gives one."""
    for a in board().assignments:
        if a.players == players and a.reading == reading:
            return a
    if reading:
        return assignment(players)
    raise KeyError(players)
