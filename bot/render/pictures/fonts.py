"""The fonts of the board pictures, shipped in `fonts/` (DejaVu Sans, its licence in
`fonts/LICENSE`) so a picture looks the same on every machine (docs/architecture.md §6)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS = Path(__file__).with_name("fonts")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)
