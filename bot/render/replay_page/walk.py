"""A finished game walked step by step for its replay page: what the table saw after each
action, and what each seat alone saw (docs/architecture.md §2 and §6).

The walk replays the record from setup with the engine, as `replay` does, and keeps for
every state: the public status text (`describe` of the public view) and the status card
(`layout`), each seat's own text (`describe` of that seat's view, less what the public
text already says), the public and private lines of the log, and every player's score.
Texts are kept as numbered lines in one table, each text a list of line numbers, so the
hundreds of steps of a long game repeat no line: a game's page stays small.

Pictures are drawn only where a Week, round or month begins and at the end (the board
and each seat's own picture), because drawing every step of a long game would take tens
of seconds and megabytes. A public-only walk (an abandoned game) keeps nothing private.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

from engine.core import PUBLIC, Game, GameState, Layout

from ..pictures import _MODULES, draw, draw_private, has_pictures
from ..pictures.layout import Picture
from .markup import layout_html, line_html, text_html

__all__ = ["Walk", "Texts", "walk_game", "holders"]


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
    pictures: list[dict[str, str]] = field(default_factory=list)  # src, alt, caption
    picture: list[int] = field(default_factory=list)  # per step: the board picture in effect, -1 none
    private_picture: dict[str, list[int]] = field(default_factory=dict)  # seat -> per step, -1 none

    @property
    def steps(self) -> int:
        return len(self.board)


def holders(game_id: str, view: dict[str, Any]) -> dict[str, str]:
    """Which seat holds each scored nation in a public view: the chart adds up each
    player's nations (an Origins player with fewer than seven holds two)."""
    if game_id == "origins":
        return {code: info["seat"] for code, info in view["countries"].items() if info.get("seat")}
    if game_id == "crisis1914":
        return {code: p["seat"] for code, p in view["players"].items()}
    if game_id == "schonbrunn":
        module = import_module(f"{__package__.rpartition('.')[0]}.pictures.schonbrunn")
        return {name: seat for seat, name in module._names(view).items()}
    return {}


def _png_source(picture: Picture) -> str:
    return "data:image/png;base64," + base64.b64encode(picture.png).decode("ascii")


class _Walker:
    """Collects a Walk as the states go by."""

    def __init__(self, walk: Walk, names: dict[str, str]):
        self.w = walk
        self.names = names
        self.game = walk.game
        self.module = None
        self.board_picture = -1  # the number of the last board picture drawn
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
        index = len(w.board)
        view = g.view(state, PUBLIC)
        public = g.describe(view).splitlines()
        w.board.append(w.texts.text([line_html(line) for line in public]))
        w.card.append(w.texts.text(layout_html(self._card(g.layout(view)))))
        w.actor.append(seat)
        period = self.module.period(view) if self.module is not None else ""
        over = g.outcome(state) is not None
        starts = index == 0 or period != w.period[-1] or over
        w.period.append(period)
        if self.module is not None:
            self._scores(self.module, view)
            if starts:
                self._picture(view, self._caption(period, index, over))
        w.picture.append(self.board_picture)
        if w.public_only:
            return
        seen = set(public)
        for s in w.seats:
            own = g.view(state, s)
            lines = [line for line in g.describe(own).splitlines() if line not in seen]
            w.private[s].append(w.texts.text([line_html(line) for line in lines]))
            if self.module is not None and starts:
                drawn = draw_private(g.id, own)
                if drawn is not None:
                    caption = self._caption(period, index, over)
                    w.pictures.append(
                        {"src": _png_source(drawn), "alt": drawn.description, "caption": caption}
                    )
                    w.private_picture[s].append(len(w.pictures) - 1)
                    continue
            w.private_picture[s].append(w.private_picture[s][-1] if w.private_picture[s] else -1)

    def _card(self, layout: Layout) -> Layout:
        """The status card with each nation's player named, as the channel's card shows it."""
        for panel in layout.panels:
            if panel.seat and self.names.get(panel.seat):
                panel.lines.insert(0, f"Played by {self.names[panel.seat]}")
        return layout

    @staticmethod
    def _caption(period: str, index: int, over: bool) -> str:
        if index == 0:
            return "As the game was set up"
        if over:
            return "At the end of the game"
        return f"At the start of {period}" if period else f"After action {index}"

    def _picture(self, view: dict[str, Any], caption: str) -> None:
        drawn = draw(self.game.id, view)
        self.board_picture = len(self.w.pictures)
        self.w.pictures.append({"src": _png_source(drawn), "alt": drawn.description, "caption": caption})

    def _scores(self, module: ModuleType, view: dict[str, Any]) -> None:
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
    view = raw.get("public_view") or {}
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
        if walker.module is not None:
            walker._picture(view, "When the game was abandoned")
            walk.picture[-1] = 0
    return walk
