"""Colours of the board pictures (docs/architecture.md §6): Okabe and Ito's palette.

Okabe and Ito's eight colours stay distinguishable under the common colour-vision
deficiencies; every picture still writes a label (a nation's code or name) on or beside
each colour, so no fact is carried by colour alone.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

BLACK: RGB = (0, 0, 0)
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)

OKABE_ITO: tuple[RGB, ...] = (BLUE, SKY_BLUE, BLACK, BLUISH_GREEN, YELLOW, ORANGE, VERMILLION, REDDISH_PURPLE)

# The paper and ink of every picture.
PAPER: RGB = (250, 247, 240)
INK: RGB = (25, 25, 25)
FAINT: RGB = (120, 120, 120)
RULE: RGB = (200, 195, 185)
PANEL: RGB = (238, 233, 222)
HIGHLIGHT: RGB = (255, 255, 255)
NEUTRAL: RGB = (170, 170, 170)  # a piece that belongs to nobody (a minor's embassy)

# Origins of World War I: the seven countries a player may hold.
ORIGINS = {
    "UK": BLUE,
    "FRA": SKY_BLUE,
    "GER": BLACK,
    "RUS": BLUISH_GREEN,
    "AH": YELLOW,
    "ITA": ORANGE,
    "TUR": VERMILLION,
}

# Crisis: 1914: the five nations.
CRISIS = {"AH": YELLOW, "RU": BLUISH_GREEN, "DE": BLACK, "FR": SKY_BLUE, "GB": BLUE}


def colour_of(index: int) -> RGB:
    """The palette's colours in turn, for players without a fixed colour."""
    return OKABE_ITO[index % len(OKABE_ITO)]


def ink_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on `fill` (relative luminance)."""
    r, g, b = fill
    return INK if 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 else HIGHLIGHT
