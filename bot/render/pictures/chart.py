"""The end-of-game chart: every player's score over the whole game (docs/architecture.md §6).

Origins of World War I charts each country's provisional VPs, Crisis: 1914 and Schönbrunn
each nation's Prestige. The scores are read from the public view of every state of the
game (`score_series`: the save that ends the game replays its log once and stores them,
bot/service/final_scores.py), so the chart shows only what the table saw; it is drawn
from those scores and the final public view (`chart`), with no state at hand. Each line
ends in its name and final score, so no line is told apart by colour alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import Any

from engine.core import Game, GameState

from . import _MODULES
from .layout import Canvas, Picture, clip_description
from .palette import FAINT, INK, OKABE_ITO, RGB, RULE

WIDTH, HEIGHT = 1000, 520
LEFT, RIGHT, TOP, BOTTOM = 60, 220, 50, 60


def score_series(game: Game, states: Iterable[GameState]) -> tuple[dict[str, list[float]], list[tuple[int, str]]]:
    """(each player's score at every state, where each period begins), from the states
    of the game in order (taken one at a time: a long game's are never all held)."""
    module = import_module(f"{__package__}.{_MODULES[game.id]}")
    series: dict[str, list[float]] = {}
    periods: list[tuple[int, str]] = []
    for i, state in enumerate(states):
        view = game.view(state, None)
        period = module.period(view)
        if not periods or periods[-1][1] != period:
            periods.append((i, period))
        for name, score in module.scores(view).items():
            series.setdefault(name, [0.0] * i).append(float(score))
        for values in series.values():  # a player scored nothing yet keeps their last score
            if len(values) < i + 1:
                values.append(values[-1] if values else 0.0)
    return series, periods


def draw_chart(
    title: str,
    unit: str,
    series: dict[str, list[float]],
    periods: list[tuple[int, str]],
    colours: dict[str, RGB],
) -> Picture:
    c = Canvas(WIDTH, HEIGHT)
    c.text((LEFT - 50, 14), title, 20, bold=True, width=WIDTH - 20)
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    steps = max((len(v) for v in series.values()), default=1)
    top = max((max(v) for v in series.values() if v), default=1.0)
    top = max(top, 1.0)

    def at(i: int, value: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / max(steps - 1, 1), y1 - (y1 - y0) * value / top

    # grid: the score every fifth of the height, the periods along the bottom
    for k in range(6):
        v = top * k / 5
        y = y1 - (y1 - y0) * k / 5
        c.draw.line((x0, y, x1, y), fill=RULE)
        c.text((x0 - 6, y), f"{v:.0f}", 12, fill=FAINT, anchor="rm")
    shown = periods if len(periods) <= 12 else periods[:: max(1, len(periods) // 12)]
    for i, label in shown:
        x, _ = at(i, 0)
        c.draw.line((x, y0, x, y1), fill=RULE)
        c.text((x + 2, y1 + 6), label, 11, fill=FAINT, width=max(40, int((x1 - x0) / max(len(shown), 1)) - 4))
    c.draw.rectangle((x0, y0, x1, y1), outline=INK)
    c.text((x0, y1 + 26), f"{unit} after each action of the game", 12, fill=FAINT)
    finals = sorted(series.items(), key=lambda kv: -kv[1][-1] if kv[1] else 0)
    label_y: list[float] = []
    for name, values in finals:
        colour = colours.get(name, OKABE_ITO[len(label_y) % len(OKABE_ITO)])
        points = [at(i, v) for i, v in enumerate(values)]
        if len(points) > 1:
            c.draw.line(points, fill=INK, width=5)  # a dark edge keeps pale colours visible
            c.draw.line(points, fill=colour, width=3)
        # the end label, kept apart from the ones above it
        y = points[-1][1] if points else y1
        for taken in label_y:
            if abs(y - taken) < 18:
                y = taken + 18
        label_y.append(y)
        c.draw.line((points[-1][0], points[-1][1], x1 + 8, y), fill=RULE)
        c.chip(x1 + 10, int(y - 9), f"{name} {values[-1]:.0f}", colour, size=12, height=18, width=RIGHT - 20)
    text = f"{title}. Final {unit}: " + ", ".join(f"{n} {v[-1]:.0f}" for n, v in finals if v) + "."
    return Picture(c.png(), clip_description(text), "scores.png")


def chart(game: Game, series: dict[str, list[float]], periods: list[tuple[int, str]], final_view: Any) -> Picture:
    """The chart of `series` (as `score_series` gives them), coloured as `final_view` (the
    game's typed public view of its last state) colours each player."""
    module = import_module(f"{__package__}.{_MODULES[game.id]}")
    unit = module.SCORE_NAME
    return draw_chart(f"{game.title}: {unit} over the game", unit, series, periods, module.chart_colours(final_view))
