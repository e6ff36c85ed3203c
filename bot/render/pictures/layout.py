"""Drawing helpers every board picture shares: a canvas with text that fits its box,
panels, labelled chips and the PNG encoding (docs/architecture.md §6)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import font
from .palette import INK, PANEL, PAPER, RGB, RULE, ink_on

Box = tuple[int, int, int, int]  # left, top, right, bottom


@dataclass(frozen=True)
class Picture:
    """One drawn picture: the PNG and the alt text a screen reader reads (Discord's
    attachment description, at most 1,024 characters)."""

    png: bytes
    description: str
    filename: str = "board.png"


DESCRIPTION_LIMIT = 1024


def clip_description(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1].rstrip() + "…"


@lru_cache(maxsize=16384)
def _width(text: str, size: int, bold: bool) -> int:
    """A text's width in pixels. Boards repeat their labels from one state to the next,
    and measuring (to fit text to its box) cost as much as drawing it."""
    return int(font(size, bold).getlength(text))


class Canvas:
    """A picture being drawn: a white-paper RGB image and its ImageDraw."""

    def __init__(self, width: int, height: int, background: RGB = PAPER):
        self.width, self.height = width, height
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)

    def text_width(self, text: str, size: int, bold: bool = False) -> int:
        return _width(text, size, bold)

    def fit(
        self, text: str, size: int, width: int, bold: bool = False, smallest: int = 11
    ) -> tuple[str, int]:
        """Shrink the type until `text` fits `width`, then cut it with an ellipsis."""
        while size > smallest and self.text_width(text, size, bold) > width:
            size -= 1
        if self.text_width(text, size, bold) <= width:
            return text, size
        while text and self.text_width(text + "…", size, bold) > width:
            text = text[:-1]
        return text + "…", size

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 16,
        bold: bool = False,
        fill: RGB = INK,
        anchor: str = "la",
        width: int | None = None,
    ) -> int:
        """Write `text` (cut to `width` if given); return the width written."""
        if width is not None:
            text, size = self.fit(text, size, width, bold)
        self.draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)
        return _width(text, size, bold)

    def panel(
        self, box: Box, fill: RGB = PANEL, outline: RGB = RULE, width: int = 1, radius: int = 8
    ) -> None:
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)

    def chip(
        self,
        x: int,
        y: int,
        label: str,
        colour: RGB,
        size: int = 16,
        height: int = 24,
        width: int | None = None,
        bold: bool = True,
        strong: bool = False,
    ) -> int:
        """A rounded chip in `colour` with its label written on it; `strong` doubles the
        outline (a shape, not only a colour, marks it). Returns the chip's width."""
        w = width if width is not None else self.text_width(label, size, bold) + 14
        self.draw.rounded_rectangle(
            (x, y, x + w, y + height), radius=6, fill=colour, outline=INK, width=3 if strong else 1
        )
        self.text((x + w / 2, y + height / 2), label, size, bold, ink_on(colour), anchor="mm", width=w - 6)
        return w

    def picture(self, description: str, filename: str) -> Picture:
        """The finished picture with its text alternative (an SVG canvas gives its shapes)."""
        return Picture(self.png(), description, filename)

    def png(self) -> bytes:
        out = io.BytesIO()
        # A board is flat colour plus antialiased type: 256 palette colours keep it
        # looking the same, and the palette image encodes in half the time of RGB at
        # a third of the size (measured on the Origins board: 10 ms and 42 KB against
        # 20 ms and 97 KB). Higher compression levels cost time for a few per cent.
        paletted = self.image.quantize(256, method=Image.Quantize.FASTOCTREE)
        paletted.save(out, format="PNG", compress_level=3)
        return out.getvalue()
