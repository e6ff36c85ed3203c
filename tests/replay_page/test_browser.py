"""The replay page in a real browser (headless Chromium): a whole game of each title
stepped through as a viewer would, the keyboard, a hand shown, a phone's width, and not
one request beyond the file itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.render.replay_page import replay_page

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
    viewer.page.locator("#next").focus()
    for step in range(1, last + 1):
        viewer.page.keyboard.press("ArrowRight")
        seen = viewer.state()
        assert seen["where"].startswith(f"Step {step} of {last}"), step
        assert len(seen["log"]) == game.log_count(step), step
        assert seen["now"] == [_read(text) for text in game.public_lines[step]], step
        if step % 25 == 0 or step == last:
            assert seen["legend"] == _scores(game, step), step
    outcome = game.game.outcome(game.states[-1])
    assert seen["legend"] == [
        [game.who(s.seat), f"{s.score:g}"]
        for s in sorted(outcome.standings, key=lambda s: game.record["seats"].index(s.seat))
    ]
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
    # Page Down: the first step of the next Week, where the board picture changes
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
    assert page.locator("#boardImg").bounding_box()["width"] <= 360
    page.locator("#next").click()
    page.locator("#next").click()
    assert viewer.state()["slider"] == 2
    page.screenshot(path=str(tmp_path / "phone.png"))
    assert (tmp_path / "phone.png").stat().st_size > 0
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
