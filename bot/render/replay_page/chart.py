"""Every player's score over the game as an inline SVG for the replay page.

The same scores as the end-of-game chart the bot posts (bot/render/pictures/chart.py),
read from the public view of every step, added up per player. Each line has its player's
colour from Okabe and Ito's palette, a dark edge (so a pale colour stays visible) and a
dash pattern of its own, and the page's legend repeats colour, pattern, name and score in
text, so no line is told apart by colour alone. The page moves a cursor to the step shown.
"""

from __future__ import annotations

import html
import math

__all__ = ["WIDTH", "X0", "X1", "DASHES", "nice_ticks", "score_chart", "swatch"]

WIDTH, HEIGHT = 360, 210
X0, X1, Y0, Y1 = 30, 350, 12, 178  # the plot area; the period names sit under it
DASHES = ("", "8 4", "2 3", "10 3 2 3", "5 5", "1 4", "12 2", "6 2 2 2 2 2")


def nice_ticks(low: float, high: float, most: int = 6, smallest: float = 1.0) -> list[float]:
    """Even steps for an axis from `low` to `high`: a step of 1, 2 or 5 times a power of
    ten (never below `smallest`: scores are whole numbers), the fewest that gives at most
    `most` intervals, from the step at or below `low` to the one at or above `high`."""
    if high <= low:
        high = low + smallest
    power = 10 ** math.floor(math.log10(max((high - low) / most, smallest)))
    step = next(
        m * p
        for p in (power, power * 10)
        for m in (1, 2, 5)
        if m * p >= smallest and math.ceil(high / (m * p)) - math.floor(low / (m * p)) <= most
    )
    first, last = math.floor(low / step), math.ceil(high / step)
    return [k * step for k in range(first, last + 1)]


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def score_chart(
    scores: list[list[float]],
    colours: list[tuple[int, int, int]],
    periods: list[tuple[int, str]],
    description: str,
) -> str:
    """The chart's SVG: `scores[p][k]` is player p's score after k actions; `periods`
    says where each Week, round or month begins. `description` is its text alternative."""
    steps = max((len(v) for v in scores), default=1)
    ticks = nice_ticks(min([0.0] + [min(v) for v in scores if v]), max([1.0] + [max(v) for v in scores if v]))
    bottom, top = ticks[0], ticks[-1]

    def x(k: int) -> float:
        return X0 + (X1 - X0) * k / max(steps - 1, 1)

    def y(value: float) -> float:
        return Y1 - (Y1 - Y0) * (value - bottom) / (top - bottom)

    parts = [
        f'<svg id="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-desc" '
        f'preserveAspectRatio="xMidYMid meet"><title id="chart-desc">{html.escape(description)}</title>',
        f'<rect x="{X0}" y="{Y0}" width="{X1 - X0}" height="{Y1 - Y0}" class="plot"/>',
    ]
    for value in ticks:
        parts.append(f'<line x1="{X0}" x2="{X1}" y1="{y(value):.1f}" y2="{y(value):.1f}" class="grid"/>')
        parts.append(
            f'<text x="{X0 - 4}" y="{y(value) + 4:.1f}" class="axis" text-anchor="end">{value:g}</text>'
        )
    shown = periods if len(periods) <= 6 else periods[:: -(-len(periods) // 6)]
    for k, _label in periods:
        parts.append(f'<line x1="{x(k):.1f}" x2="{x(k):.1f}" y1="{Y0}" y2="{Y1}" class="grid"/>')
    for k, label in shown:
        parts.append(f'<text x="{x(k) + 2:.1f}" y="{Y1 + 14}" class="axis">{html.escape(label)}</text>')
    for p, values in enumerate(scores):
        points = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(values))
        dash = DASHES[p % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline points="{points}" class="edge"/>')
        parts.append(f'<polyline points="{points}" class="series" stroke="{_hex(colours[p])}"{dash_attr}/>')
    parts.append(f'<line id="cursor" x1="{X0}" x2="{X0}" y1="{Y0 - 4}" y2="{Y1 + 2}"/>')
    parts.append("</svg>")
    return "".join(parts)


def swatch(colour: tuple[int, int, int], index: int) -> str:
    """A short sample of one player's line for the legend: the same colour and dashes."""
    dash = DASHES[index % len(DASHES)]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        '<svg class="swatch" viewBox="0 0 36 10" aria-hidden="true">'
        '<line x1="1" x2="35" y1="5" y2="5" class="edge"/>'
        f'<line x1="1" x2="35" y1="5" y2="5" class="series" stroke="{_hex(colour)}"{dash_attr}/></svg>'
    )
