"""The README's pictures of a replay page, taken the way the browser tests take theirs:
`python -m tests.replay_page.screens` writes docs/images/replay-desktop.png,
docs/images/replay-phone.png and docs/images/replay-phone-enlarged.png (the board after a
tap on a phone) from a seeded Crisis: 1914 game of the basic players."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from bot.render.replay_page import replay_page

from .conftest import CHROMIUM, CHROMIUM_ARGS, Viewer, play

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def take(folder: Path = IMAGES) -> list[Path]:
    game = play("crisis1914", players=4, names=["Anna", "Bruno", "Chiara", "Dmitri"])
    with tempfile.TemporaryDirectory() as scratch:
        page_file = Path(scratch) / "replay.html"
        page_file.write_bytes(replay_page(game.record))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            out = []
            for name, width, height in (("replay-desktop.png", 1280, 1000), ("replay-phone.png", 360, 780)):
                viewer = Viewer(browser, page_file, width=width, height=height)
                step = len(game.states) * 2 // 3
                viewer.page.goto(f"{viewer.url}#step={step}")
                viewer.page.reload()
                viewer.page.locator("button.toggle").nth(1).click()
                viewer.page.evaluate("document.getElementById('h-replay').scrollIntoView()")
                path = folder / name
                viewer.page.screenshot(path=str(path))
                out.append(path)
                if width < 400:  # on the phone, the board enlarged by a tap
                    viewer.page.locator("#boardSvg").click()
                    path = folder / "replay-phone-enlarged.png"
                    viewer.page.screenshot(path=str(path))
                    out.append(path)
                if viewer.refused or viewer.errors:
                    raise SystemExit(f"the page fetched {viewer.refused} or failed: {viewer.errors}")
                viewer.close()
            browser.close()
    return out


if __name__ == "__main__":
    for path in take(Path(sys.argv[1]) if len(sys.argv) > 1 else IMAGES):
        print(path)
