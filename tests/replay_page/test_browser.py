"""The replay page in a real browser (headless Chromium): a whole game of each title
stepped through as a viewer would (the board drawn anew at every step), the keyboard, a
hand shown, a phone's width and the board enlarged there, and not one request beyond the
file itself."""

from __future__ import annotations

import html
import re
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.render.pictures import draw, draw_vector
from bot.render.replay_page import replay_page
from engine.core import PUBLIC

from .conftest import TITLES, Played, Viewer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pages(played, tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for game_id in TITLES:
        out[game_id] = folder / f"{game_id}.html"
        out[game_id].write_bytes(replay_page(played[game_id].record))
    return out


def _read(text: str) -> str:
    """A log entry as a viewer reads it: no Markdown marks, bullets drawn by the page."""
    return "\n".join(
        re.sub(r"^\s*(?:• |- )", "", line).replace("**", "").strip() for line in text.splitlines()
    )


def _board_title(game: Played, step: int) -> str:
    """The title the board picture of `step` carries (its first text): the Week, round or
    month and what is being done, from that step's public view."""
    shapes = draw_vector(game.game.id, game.game.view(game.states[step], PUBLIC)).shapes
    first = next(shape for shape in shapes if shape.startswith("<text"))
    return html.unescape(re.sub("<[^>]+>", "", first))


def _scores(game: Played, step: int) -> list[list[str]]:
    return [[game.who(seat), str(game.score(step, seat))] for seat in game.record["seats"]]


@pytest.mark.parametrize("game_id", TITLES)
def test_stepping_through_a_whole_game_shows_each_steps_log_and_scores(browser, played, pages, game_id):
    game = played[game_id]
    last = len(game.states) - 1
    viewer = Viewer(browser, pages[game_id])
    seen = viewer.state()
    assert seen["slider"] == 0 and seen["where"].startswith("The start")
    assert len(seen["log"]) == game.log_count(0) and seen["legend"] == _scores(game, 0)
    assert seen["boardTitle"] == _board_title(game, 0)
    viewer.page.locator("#next").focus()
    titles, periods = set(), set()
    for step in range(1, last + 1):
        viewer.page.keyboard.press("ArrowRight")
        seen = viewer.state()
        assert seen["where"].startswith(f"Step {step} of {last}"), step
        assert seen["boardTitle"] == _board_title(game, step), step  # the board of this very step
        titles.add(seen["boardTitle"])
        periods.add(seen["where"].splitlines()[0].partition(" · ")[2])
        assert len(seen["log"]) == game.log_count(step), step
        assert seen["now"] == [_read(text) for text in game.public_lines[step]], step
        if step % 25 == 0 or step == last:
            assert seen["legend"] == _scores(game, step), step
    outcome = game.game.outcome(game.states[-1])
    assert seen["legend"] == [
        [game.who(s.seat), f"{s.score:g}"]
        for s in sorted(outcome.standings, key=lambda s: game.record["seats"].index(s.seat))
    ]
    assert len(titles) > len(periods), "the board changes within a Week, round or month, not only at its start"
    assert seen["boardAlt"], "the board picture has its text alternative"
    assert viewer.refused == [] and viewer.errors == []
    viewer.close()


@pytest.mark.parametrize("game_id", TITLES)
def test_a_players_hand_is_shown_behind_their_toggle(browser, played, pages, game_id):
    game = played[game_id]
    step = len(game.states) // 2
    seat = game.record["seats"][1]
    game_, state = game.game, game.states[step]
    public = set(game_.describe(game_.view(state, None)).splitlines())
    own = [
        line.replace("**", "").replace("• ", "").strip()
        for line in game_.describe(game_.view(state, seat)).splitlines()
        if line not in public and line.strip()
    ]
    viewer = Viewer(browser, pages[game_id])
    viewer.page.goto(f"{viewer.url}#step={step}")
    viewer.page.reload()
    assert viewer.state()["slider"] == step
    panel = viewer.page.locator("#private-1")
    assert panel.is_hidden()
    toggle = viewer.page.locator("button.toggle").nth(1)
    assert toggle.inner_text().strip() == f"Show {game.who(seat)}"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true" and panel.is_visible()
    shown = panel.inner_text()
    assert own and all(line in shown for line in own)
    assert viewer.page.locator("#private-0").is_hidden() and viewer.page.locator("#private-2").is_hidden()
    # the toggle stays open as the viewer moves on, showing the next step's own text
    viewer.page.keyboard.press("ArrowRight")
    assert panel.is_visible()
    toggle.click()
    assert panel.is_hidden() and toggle.get_attribute("aria-pressed") == "false"
    assert viewer.refused == [] and viewer.errors == []
    viewer.close()


def test_the_keyboard_moves_by_step_round_and_end(browser, played, pages):
    game = played["crisis1914"]
    last = len(game.states) - 1
    viewer = Viewer(browser, pages["crisis1914"])
    keys = viewer.page.keyboard
    viewer.page.locator("body").click()
    for _ in range(3):
        keys.press("ArrowRight")
    assert viewer.state()["slider"] == 3
    keys.press("ArrowLeft")
    assert viewer.state()["slider"] == 2
    keys.press("End")
    assert viewer.state()["slider"] == last
    keys.press("Home")
    assert viewer.state()["slider"] == 0
    # Page Down: the first step of the next Week
    weeks = [
        k
        for k in range(1, last + 1)
        if game.game.layout(game.game.view(game.states[k], None)).round
        != game.game.layout(game.game.view(game.states[k - 1], None)).round
    ]
    keys.press("PageDown")
    seen = viewer.state()
    assert seen["slider"] == weeks[0] and "Week 2" in seen["where"]
    keys.press("PageUp")
    assert viewer.state()["slider"] == 0
    # the slider itself: focused, its arrows move it too (and only once)
    viewer.page.locator("#slider").focus()
    keys.press("ArrowRight")
    assert viewer.state()["slider"] == 1
    assert viewer.refused == [] and viewer.errors == []
    viewer.close()


def test_a_phone_reads_it_at_360_pixels(browser, played, pages, tmp_path):
    viewer = Viewer(browser, pages["origins"], width=360, height=740)
    page = viewer.page
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360, "nothing scrolls sideways"
    for control in ("#slider", "#prev", "#next", "#first", "#last"):
        box = page.locator(control).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["height"] >= 30, control
    # the step buttons say what they do on a phone too, each on one line
    assert page.locator("#next").inner_text().startswith("Next ›")
    assert page.locator("#prev").inner_text().startswith("‹ Back")
    assert page.locator("#next").bounding_box()["height"] < 50
    assert page.locator("#boardSvg").bounding_box()["width"] <= 360
    page.locator("#next").click()
    page.locator("#next").click()
    assert viewer.state()["slider"] == 2
    page.screenshot(path=str(tmp_path / "phone.png"))
    assert (tmp_path / "phone.png").stat().st_size > 0
    assert viewer.refused == [] and viewer.errors == []
    viewer.close()


SMALLEST_TEXT = """() => Math.min(...[...document.querySelectorAll('#boardSvg text')]
    .map(t => t.getBoundingClientRect().height).filter(h => h > 0))"""


def test_on_a_phone_a_tap_enlarges_the_board_to_read_and_pan(browser, played, pages):
    game = played["crisis1914"]
    viewer = Viewer(browser, pages["crisis1914"], width=360, height=740, touch=True)
    page = viewer.page
    page.goto(f"{viewer.url}#step=40")
    page.reload()
    hint = page.locator("#boardCaption")
    assert hint.is_visible() and "Tap the board to enlarge" in hint.inner_text()
    small = page.evaluate(SMALLEST_TEXT)
    assert page.locator("#boardSvg").bounding_box()["width"] <= 360 and small < 9  # too small to read
    assert page.locator("#viewer").is_hidden()

    page.locator("#boardSvg").tap()
    assert page.locator("#viewer").is_visible()
    assert page.locator("#viewerTitle").inner_text() == f"The board at step 40 of {len(game.states) - 1}"
    assert page.evaluate("document.querySelector('main').inert"), "the page behind takes no focus"
    box = page.locator("#boardSvg").bounding_box()
    assert box["width"] >= 1000 > 360, "the board at the size it was drawn"
    assert page.evaluate(SMALLEST_TEXT) >= 9, "its smallest text is legible"
    panned = page.evaluate(
        "() => { const b = document.getElementById('viewerBox'); b.scrollLeft = 400; return b.scrollLeft; }"
    )
    assert panned == 400, "it moves sideways"
    # the arrows still step through the game, and the enlarged board follows
    page.keyboard.press("ArrowRight")
    assert viewer.state()["slider"] == 41 and viewer.state()["boardTitle"] == _board_title(game, 41)
    assert page.locator("#viewerTitle").inner_text().startswith("The board at step 41 of")
    # fit the screen, then close: the board is back in its place, phone-sized
    page.locator("#viewerFit").click()
    assert page.locator("#boardSvg").bounding_box()["width"] <= 360
    page.keyboard.press("Escape")
    assert page.locator("#viewer").is_hidden()
    assert page.locator("#figure #boardSvg").bounding_box()["width"] <= 360
    # the keyboard opens it too, with the Enlarge button beside the hint, and comes back to it
    page.locator("#figure .enlarge").focus()
    page.keyboard.press("Enter")
    assert page.locator("#viewer").is_visible()
    page.locator("#viewerClose").click()
    assert page.locator("#viewer").is_hidden()
    assert page.evaluate("document.activeElement.className") == "enlarge"
    assert viewer.refused == [] and viewer.errors == []
    viewer.close()


def test_a_players_own_picture_enlarges_too(browser, played, pages):
    viewer = Viewer(browser, pages["schonbrunn"], width=360, height=740, touch=True)
    page = viewer.page
    page.goto(f"{viewer.url}#step=30")
    page.reload()
    page.locator("button.toggle").nth(0).tap()
    own = page.locator("#private-0 svg")
    assert own.is_visible() and own.bounding_box()["width"] <= 360
    own.tap()
    assert page.locator("#viewer").is_visible() and page.locator("#viewerBox svg").bounding_box()["width"] >= 1000
    assert page.locator("#viewerTitle").inner_text().startswith("What Anna")
    page.keyboard.press("Escape")
    assert page.locator("#private-0 svg").is_visible() and page.locator("#viewer").is_hidden()
    assert viewer.refused == [] and viewer.errors == []
    viewer.close()


def test_a_request_the_page_made_would_be_caught(browser, pages, tmp_path):
    """The guard every test here relies on: the page's own policy refuses an outside
    picture before it is asked for, and without that policy the route would refuse it."""
    viewer = Viewer(browser, pages["schonbrunn"])
    viewer.page.evaluate(
        "() => { const i = new Image(); i.src = 'https://example.org/x.png'; document.body.append(i); }"
    )
    viewer.page.wait_for_timeout(300)
    viewer.close()
    assert viewer.refused == [] and any("Content Security Policy" in e for e in viewer.errors)

    text = pages["schonbrunn"].read_text(encoding="utf-8")
    bare = tmp_path / "no-policy.html"
    bare.write_text(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text), encoding="utf-8")
    viewer = Viewer(browser, bare)
    viewer.page.evaluate(
        "() => { const i = new Image(); i.src = 'https://example.org/x.png'; document.body.append(i); }"
    )
    viewer.page.wait_for_timeout(300)
    viewer.close()
    assert viewer.refused == ["https://example.org/x.png"]


@pytest.mark.parametrize("game_id", TITLES)
def test_the_svg_board_looks_like_the_png_the_channel_gets(browser, played, game_id):
    """The page's SVG board, drawn by the browser, against the PNG of the same view: the
    same drawing code, so they differ only by the type's antialiasing; a board of another
    step differs far more (the check can fail)."""
    game = played[game_id]
    views = [game.game.view(game.states[k], PUBLIC) for k in (len(game.states) // 2, 0)]
    vector = draw_vector(game_id, views[0])
    page = browser.new_page(viewport={"width": vector.width, "height": vector.height})
    page.set_content(f'<body style="margin:0">{vector.svg()}</body>')
    shot = Image.open(BytesIO(_screenshot(page))).convert("RGB")
    page.close()

    def difference(view: dict) -> float:
        png = Image.open(BytesIO(draw(game_id, view).png)).convert("RGB")
        return sum(ImageStat.Stat(ImageChops.difference(shot, png)).mean) / 3

    same, other = difference(views[0]), difference(views[1])
    assert same < 6.0 and other > 1.3 * same, (same, other)


def _screenshot(page) -> bytes:
    """The page's screenshot; asked once more if headless Chromium could not take it (its
    "Unable to capture screenshot" when both test workers' browsers draw at once)."""
    from playwright.sync_api import Error

    try:
        return page.screenshot()
    except Error:
        page.wait_for_timeout(200)
        return page.screenshot()
