"""Golden board pictures: fixed states of each game, drawn and kept as PNG files.

The states are seeded games of the automatic players stopped after a fixed number of
actions (`bot/render/pictures/sample.py`); each one's public view is kept beside its
picture as JSON, so a change to the rules or the automatic players (which changes which
state a seed reaches) does not change the golden pictures: only a change to the drawing
does. When a drawing changes on purpose, regenerate the files and look at them before
committing:

    .venv/bin/python -m tests.render.golden

`tests/render/test_pictures.py` compares each picture with its file, allowing a small
per-pixel tolerance (type rasterised by another FreeType version differs at its edges).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

from bot.render.pictures import draw
from bot.render.pictures.sample import sample_state
from engine import games

HERE = Path(__file__).with_name("golden")

# (game, players, seed, step): a state in the middle of a game, and the end of one.
CASES: list[tuple[str, int, int, int | None]] = [
    ("origins", 7, 3, 150),
    ("origins", 3, 5, None),
    ("crisis1914", 5, 3, 60),
    ("crisis1914", 2, 4, None),
    ("schonbrunn", 6, 3, 150),
    ("schonbrunn", 3, 4, 60),
]

# A pixel counts as different when a channel is off by more than CHANNEL; a picture
# matches while at most SHARE of its pixels differ.
CHANNEL = 48
SHARE = 0.005


def name(case: tuple[str, int, int, int | None]) -> str:
    game, players, seed, step = case
    return f"{game}-{players}p-seed{seed}-{'end' if step is None else f'step{step}'}.png"


def sampled_view(case: tuple[str, int, int, int | None]) -> Any:
    game_id, players, seed, step = case
    game = games.get(game_id)
    return game.view(sample_state(game, players, seed, step), None)


def kept_view(case: tuple[str, int, int, int | None]) -> Any:
    """The case's view read back from the JSON kept beside its picture (`Game.view_from_dict`)."""
    kept = json.loads((HERE / name(case)).with_suffix(".json").read_text(encoding="utf-8"))
    return games.get(case[0]).view_from_dict(kept)


def picture(case: tuple[str, int, int, int | None], view: Any = None) -> bytes:
    """The case's picture, drawn from its kept view (or the given one)."""
    return draw(case[0], kept_view(case) if view is None else view).png


def differing_share(a: bytes, b: bytes) -> float:
    """The share of pixels that differ by more than CHANNEL in some channel (1.0 when the sizes differ)."""
    one = Image.open(io.BytesIO(a)).convert("RGB")
    two = Image.open(io.BytesIO(b)).convert("RGB")
    if one.size != two.size:
        return 1.0
    red, green, blue = ImageChops.difference(one, two).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    diff = largest.point(lambda v: 255 if v > CHANNEL else 0)
    return diff.histogram()[255] / (one.width * one.height)


def main() -> int:
    HERE.mkdir(exist_ok=True)
    for case in CASES:
        path = HERE / name(case)
        view = sampled_view(case)
        kept = games.get(case[0]).view_dict(view)
        path.with_suffix(".json").write_text(json.dumps(kept, ensure_ascii=False, indent=1), encoding="utf-8")
        path.write_bytes(picture(case, view))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
