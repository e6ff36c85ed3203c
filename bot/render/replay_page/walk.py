"""A finished game walked step by step for its replay page: what the table saw after each
action, and what each seat alone saw (docs/architecture.md §2 and §6).

The walk replays the record from setup with the engine, as `replay` does, and keeps for
every state: the public status text (`describe` of the public view) and the status card
(`layout`), each seat's own text (`describe` of that seat's view, less what the public
text already says), the public and private lines of the log, and every player's score.
Texts are kept as numbered lines in one table, each text a list of line numbers, so the
hundreds of steps of a long game repeat no line: a game's page stays small.

The board and each seat's own picture are drawn at every step, as SVG by the pictures'
own drawing code (bot/render/pictures/svg.py), and kept as shapes: each shape is stored
once, each picture as runs of shape numbers, so a step that moves one piece adds a few
shapes and a short list, and a step that changes nothing adds nothing. A public-only walk
(an abandoned game) keeps nothing private.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any, cast

from engine.core import PUBLIC, Game, GameState, Layout

from ..pictures import _MODULES, draw_private_vector, draw_vector, has_pictures
from ..pictures.svg import Vector
from .markup import layout_html, line_html, text_html

__all__ = ["Walk", "Texts", "Drawings", "walk_game", "holders"]


class Texts:
    """Numbered HTML lines and the texts made of them, each stored once."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.texts: list[list[int]] = []
        self._line_ids: dict[str, int] = {}
        self._text_ids: dict[tuple[int, ...], int] = {}

    def line(self, html: str) -> int:
        found = self._line_ids.get(html)
        if found is None:
            found = self._line_ids[html] = len(self.lines)
            self.lines.append(html)
        return found

    def text(self, html_lines: list[str]) -> int:
        key = tuple(self.line(h) for h in html_lines)
        found = self._text_ids.get(key)
        if found is None:
            found = self._text_ids[key] = len(self.texts)
            self.texts.append(list(key))
        return found


_SENTENCE = re.compile(r"(?<=[.;:]) ")


class Drawings:
    """The SVG pictures of a walk, each shape stored once: a frame is a picture's width,
    height and shapes (as runs: first shape number, how many follow in order); a picture
    is a frame with its text alternative, kept as numbered sentences (most of them the
    same from one step to the next), as `Texts` keeps lines."""

    def __init__(self) -> None:
        self.shapes: list[str] = []  # one SVG element each
        self.frames: list[list[int]] = []  # width, height, then (first shape, count) runs
        self.sentences: list[str] = []
        self.alts: list[list[int]] = []  # sentence numbers, joined by spaces
        self.pictures: list[tuple[int, int]] = []  # (frame, alt)
        self._shape_ids: dict[str, int] = {}
        self._frame_ids: dict[tuple[int, ...], int] = {}
        self._sentence_ids: dict[str, int] = {}
        self._alt_ids: dict[tuple[int, ...], int] = {}
        self._picture_ids: dict[tuple[int, int], int] = {}

    def add(self, vector: Vector) -> int:
        """The number of `vector`'s picture, stored if it is new."""
        frame = [vector.width, vector.height]
        ids = self._shape_ids
        for shape in vector.shapes:
            found = ids.get(shape)
            if found is None:
                found = ids[shape] = len(self.shapes)
                self.shapes.append(shape)
            if len(frame) > 2 and frame[-2] + frame[-1] == found:
                frame[-1] += 1
            else:
                frame += [found, 1]
        key = (self._number(self._frame_ids, self.frames, tuple(frame), frame), self._alt(vector.description))
        return self._number(self._picture_ids, self.pictures, key, key)

    def _alt(self, text: str) -> int:
        numbers = [self._number(self._sentence_ids, self.sentences, s, s) for s in _SENTENCE.split(text)]
        return self._number(self._alt_ids, self.alts, tuple(numbers), numbers)

    @staticmethod
    def _number(ids: dict[Any, int], table: list[Any], key: Any, value: Any) -> int:
        found = ids.get(key)
        if found is None:
            found = ids[key] = len(table)
            table.append(value)
        return found


@dataclass
class Walk:
    """Everything the page shows, step by step (step 0 is the table as set up)."""

    game: Game
    seats: list[str]
    labels: dict[str, str]  # seat -> its nation or role at the end, in the game's words
    public_only: bool
    final: GameState | None  # the last state (None for a public record, which has none)
    texts: Texts = field(default_factory=Texts)
    board: list[int] = field(default_factory=list)  # per step: the public text's number
    card: list[int] = field(default_factory=list)  # per step: the status card's number
    private: dict[str, list[int]] = field(default_factory=dict)  # seat -> per step
    log: list[tuple[int, str]] = field(default_factory=list)  # (step, html), public lines
    told: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # seat -> private lines
    actor: list[str] = field(default_factory=list)  # per step: the seat that acted ("" at setup)
    did: list[str] = field(default_factory=list)  # per step: what it chose, in a button's words
    period: list[str] = field(default_factory=list)  # per step: its Week, round or month
    scores: dict[str, list[float]] = field(default_factory=dict)  # seat -> per step
    score_name: str = ""
    colours: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # seat -> colour
    drawings: Drawings = field(default_factory=Drawings)  # every picture below, as SVG shapes
    picture: list[int] = field(default_factory=list)  # per step: the board's picture, -1 none
    private_picture: dict[str, list[int]] = field(default_factory=dict)  # seat -> per step, -1 none

    @property
    def steps(self) -> int:
        return len(self.board)


def holders(game_id: str, view: Any) -> dict[str, str]:
    """Which seat holds each scored nation in a public view: the chart adds up each
    player's nations (an Origins player with fewer than seven holds two)."""
    if not has_pictures(game_id):
        return {}
    module = import_module(f"{__package__.rpartition('.')[0]}.pictures.{_MODULES[game_id]}")
    return cast("dict[str, str]", module.holders(view))


class _Walker:
    """Collects a Walk as the states go by."""

    def __init__(self, walk: Walk, names: dict[str, str]):
        self.w = walk
        self.names = names
        self.game = walk.game
        self.module = None
        # the last view drawn for the board ("") and for each seat, and its picture's number
        self.drawn: dict[str, tuple[object | None, int]] = {}
        if has_pictures(self.game.id):
            self.module = import_module(f"{__package__.rpartition('.')[0]}.pictures.{_MODULES[self.game.id]}")
        for seat in walk.seats:
            walk.scores[seat] = []
            if not walk.public_only:
                walk.private[seat] = []
                walk.told[seat] = []
                walk.private_picture[seat] = []
        if self.module is not None:
            walk.score_name = self.module.SCORE_NAME

    def events(self, step: int, events: list[Any]) -> None:
        for e in events:
            if e.audience is None:
                self.w.log.append((step, text_html(e.text)))
            elif not self.w.public_only and e.audience in self.w.told:
                self.w.told[e.audience].append((step, text_html(e.text)))

    def state(self, state: GameState, seat: str) -> None:
        """Keep what the page shows of `state`, reached by `seat`'s action ("" at setup)."""
        w, g = self.w, self.game
        view = g.view(state, PUBLIC)
        public = g.describe(view).splitlines()
        w.board.append(w.texts.text([line_html(line) for line in public]))
        w.card.append(w.texts.text(layout_html(self._card(g.layout(view)))))
        w.actor.append(seat)
        w.period.append(self.module.period(view) if self.module is not None else "")
        if self.module is not None:
            self._scores(self.module, view)
        w.picture.append(self._picture("", view))
        if w.public_only:
            return
        seen = set(public)
        for s in w.seats:
            own = g.view(state, s)
            lines = [line for line in g.describe(own).splitlines() if line not in seen]
            w.private[s].append(w.texts.text([line_html(line) for line in lines]))
            w.private_picture[s].append(self._picture(s, own))

    def _card(self, layout: Layout) -> Layout:
        """The status card with each nation's player named, as the channel's card shows it."""
        for panel in layout.panels:
            if panel.seat and self.names.get(panel.seat):
                panel.lines.insert(0, f"Played by {self.names[panel.seat]}")
        return layout

    def _picture(self, seat: str, view: object) -> int:
        """The number of the board's picture (`seat` "") or a seat's own, drawn from
        `view` unless it is the view drawn last time; -1 where there is none."""
        if self.module is None:
            return -1
        last, number = self.drawn.get(seat, (None, -1))
        if last is not None and last == view:
            return number
        drawn = draw_private_vector(self.game.id, view) if seat else draw_vector(self.game.id, view)
        number = -1 if drawn is None else self.w.drawings.add(drawn)
        self.drawn[seat] = (view, number)
        return number

    def _scores(self, module: ModuleType, view: object) -> None:
        """Keep each seat's score in `view`, read by the game's picture `module` (and, once, the colours)."""
        held = holders(self.game.id, view)
        totals = dict.fromkeys(self.w.seats, 0.0)
        for key, score in module.scores(view).items():
            if held.get(key) in totals:
                totals[held[key]] += float(score)
        for seat, total in totals.items():
            self.w.scores[seat].append(total)
        if not self.w.colours:
            colours = module.chart_colours(view)
            for key, seat in held.items():
                if seat in self.w.seats and key in colours:
                    self.w.colours.setdefault(seat, tuple(colours[key]))


def walk_game(
    game: Game,
    seats: list[str],
    options: Any,
    seed: int,
    actions: list[tuple[str, Any]],
    names: dict[str, str],
    public_only: bool,
) -> Walk:
    """Replay `actions` from setup and keep what the page shows at every step."""
    state = game.setup(list(seats), options, seed)
    walk = Walk(game=game, seats=list(seats), labels={}, public_only=public_only, final=state)
    walker = _Walker(walk, names)
    walker.events(0, game.opening_events(state))
    walk.did.append("")
    walker.state(state, "")
    for index, (seat, action) in enumerate(actions, start=1):
        if isinstance(action, dict):
            action = game.parse_action(action)
        # the choice itself, secret orders included, only where the game's secrets are out
        walk.did.append("" if public_only else game.action_label(state, seat, action))
        applied = game.step(state, seat, action)
        state = applied.state
        walker.events(index, applied.events)
        walker.state(state, seat)
    walk.final = state
    # the nations the players ended with (a Schönbrunn Auction gives them only later)
    walk.labels = {s: game.seat_label(state, s) for s in seats}
    return walk


def walk_public_record(game: Game, raw: dict[str, Any]) -> Walk:
    """An abandoned game's public record: its public log, action by action, and the
    table only as it stood at the end (the record keeps no earlier state, no seed and no
    action to replay, so the page can show nothing more)."""
    seats = [str(s) for s in raw.get("seats", [])]
    view = game.view_from_dict(raw["public_view"]) if raw.get("public_view") else None
    log = raw.get("public_log") or []
    last = max([int(e.get("action") or 0) for e in log] + [0])
    walk = Walk(game=game, seats=seats, labels=dict(raw.get("labels") or {}), public_only=True, final=None)
    walker = _Walker(walk, dict(raw.get("names") or {}))
    walk.score_name = ""  # one view, at the end: no scores over the game to chart
    for entry in log:
        walk.log.append((int(entry.get("action") or 0), text_html(str(entry.get("text", "")))))
    kept = "The public record keeps the table only as it stood when the game was abandoned (the last step)."
    waiting = walk.texts.text([line_html(kept)])
    for _ in range(last + 1):
        walk.did.append("")
        walk.actor.append("")
        walk.period.append("")
        walk.picture.append(-1)
        walk.board.append(waiting)
        walk.card.append(walk.texts.text([]))
    if view:
        walk.board[-1] = walk.texts.text([line_html(line) for line in game.describe(view).splitlines()])
        walk.card[-1] = walk.texts.text(layout_html(walker._card(game.layout(view))))
        walk.picture[-1] = walker._picture("", view)
    return walk
