"""The board pictures as SVG, drawn by the same code as the PNGs (docs/architecture.md §6).

`SvgCanvas` is a `Canvas` whose pen writes SVG elements instead of pixels: a game's
`draw(view, canvas=SvgCanvas)` runs the very calls that draw its PNG, so the two never
disagree on what the board shows. Text is measured with the pictures' own font (DejaVu
Sans) and each text element carries that width (`textLength`), so a label fits its box
whatever font the reader's browser finds. The replay page shows the board at every step
this way: a few kilobytes of shapes per step, most of them the same as the step before,
where a PNG per step would cost tens of milliseconds and tens of kilobytes each.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import ImageFont

from .fonts import font
from .layout import Canvas, Picture
from .layout import _width as text_width
from .palette import INK, PAPER, RGB

__all__ = ["SvgCanvas", "Vector", "FONT_FAMILY"]

FONT_FAMILY = "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', sans-serif"


@dataclass(frozen=True)
class Vector(Picture):
    """A picture drawn as SVG: its size and its shapes (one SVG element each, in drawing
    order), beside the same text alternative a PNG has. `png` is empty."""

    width: int = 0
    height: int = 0
    shapes: tuple[str, ...] = ()

    def svg(self) -> str:
        """The picture as one standalone SVG document."""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}" '
            f'width="{self.width}" height="{self.height}" font-family="{FONT_FAMILY}" '
            f'fill="{_hex(INK)}">' + "".join(self.shapes) + "</svg>"
        )


def _hex(colour: RGB | None) -> str:
    if colour is None:
        return "none"
    return "#{:02x}{:02x}{:02x}".format(*colour[:3])


def _n(value: float) -> str:
    """A coordinate as short as it can be written (one decimal at most)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _box(xy: Sequence[Any]) -> tuple[float, float, float, float]:
    if len(xy) == 2:  # two points
        (x0, y0), (x1, y1) = xy
    else:
        x0, y0, x1, y1 = xy
    return float(x0), float(y0), float(x1), float(y1)


@lru_cache(maxsize=65536)
def _rect_shape(
    box: tuple[float, float, float, float], radius: float, fill: RGB | None, outline: RGB | None, width: int
) -> str:
    x0, y0, x1, y1 = box
    inset = width / 2 if outline is not None else 0.0
    w, h = x1 - x0 + 1 - 2 * inset, y1 - y0 + 1 - 2 * inset
    attrs = f'x="{_n(x0 + inset)}" y="{_n(y0 + inset)}" width="{_n(max(w, 0))}" height="{_n(max(h, 0))}"'
    if radius:
        attrs += f' rx="{_n(max(radius - inset, 0))}"'
    paint = f' fill="{_hex(fill)}"'
    if outline is not None:
        paint += f' stroke="{_hex(outline)}"' + (f' stroke-width="{width}"' if width != 1 else "")
    return f"<rect {attrs}{paint}/>"


@lru_cache(maxsize=65536)
def _text_shape(x: float, y: float, text: str, size: int, bold: bool, fill: RGB, anchor: str) -> str:
    """Pillow's anchors: l/m/r across; a (ascender), m (middle), s (baseline), d
    (descender) up and down, turned into SVG's text-anchor and a baseline."""
    ascent, descent = font(size, bold).getmetrics()
    across, down = anchor[0], anchor[1]
    baseline = {"a": y + ascent, "m": y + (ascent - descent) / 2, "d": y - descent}.get(down, y)
    attrs = f'x="{_n(x)}" y="{_n(baseline)}" font-size="{size}"'
    if across != "l":
        attrs += f' text-anchor="{"middle" if across == "m" else "end"}"'
    if bold:
        attrs += ' font-weight="bold"'
    if fill != INK:
        attrs += f' fill="{_hex(fill)}"'
    attrs += f' textLength="{text_width(text, size, bold)}" lengthAdjust="spacingAndGlyphs"'
    return f"<text {attrs}>{html.escape(text, quote=False)}</text>"


class _Pen:
    """The part of Pillow's ImageDraw the pictures call, writing SVG elements. Pillow
    counts a box's right and bottom pixels in and draws its outline inside the box; the
    shapes here cover the same pixels. A board repeats most of its shapes from one step
    to the next, so each is written once and then found again."""

    def __init__(self, shapes: list[str]):
        self.shapes = shapes

    def rectangle(
        self, xy: Sequence[Any], fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.shapes.append(_rect_shape(_box(xy), 0, fill, outline, width))

    def rounded_rectangle(
        self,
        xy: Sequence[Any],
        radius: float = 0,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self.shapes.append(_rect_shape(_box(xy), radius, fill, outline, width))

    def line(self, xy: Sequence[Any], fill: RGB | None = None, width: int = 1) -> None:
        x0, y0, x1, y1 = _box(xy)
        half = 0.5 if width % 2 else 0.0  # a one-pixel line sits on the pixel's centre
        stroke = f' stroke-width="{width}"' if width != 1 else ""
        self.shapes.append(
            f'<line x1="{_n(x0 + half)}" y1="{_n(y0 + half)}" x2="{_n(x1 + half)}" y2="{_n(y1 + half)}" '
            f'stroke="{_hex(fill or INK)}"{stroke}/>'
        )

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        font: ImageFont.FreeTypeFont,
        fill: RGB = INK,
        anchor: str = "la",
    ) -> None:
        if text:
            bold = "Bold" in (font.getname()[1] or "")
            self.shapes.append(_text_shape(float(xy[0]), float(xy[1]), text, int(font.size), bold, fill, anchor))


class SvgCanvas(Canvas):
    """A canvas of SVG shapes: the same drawing calls as a PNG's, nothing rasterised."""

    def __init__(self, width: int, height: int, background: RGB = PAPER):
        self.width, self.height = width, height
        self.shapes: list[str] = []
        self.draw = _Pen(self.shapes)  # type: ignore[assignment]  # ImageDraw's calls, in SVG
        self.shapes.append(f'<rect width="{width}" height="{height}" fill="{_hex(background)}"/>')

    def png(self) -> bytes:
        raise TypeError("An SVG canvas has no PNG; use picture() for its shapes.")

    def picture(self, description: str, filename: str) -> Picture:
        return Vector(
            b"",
            description,
            filename.rsplit(".", 1)[0] + ".svg",
            width=self.width,
            height=self.height,
            shapes=tuple(self.shapes),
        )
