"""The bot's messages as a phone shows them (bench/discord_screens.py, `python bench/screens.py`).

One seeded game of one title is played through SimCord into its first round (the
captures are taken at the round's second decision), then to its end by the automatic
players, and its lobby entry, status message, turn notice, `/game me` answer and final
standings are drawn by SimCord's Preview in headless Chromium at 400 pixels
wide. Every capture must draw without a diagnostic (a missing attachment, an unsupported
component, a render error), and the status message must say who is awaited on the first
phone screen: the waiting line, with every awaited member's name, ends within the top
PHONE_SCREEN pixels of the message (the message area of Discord's app on a 400 x 866
phone, below its header and above its composer), read from the page's text positions.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench.discord_screens import (
    PHONE_SCREEN,
    TITLES,
    Capture,
    TextLine,
    capture_game,
    chromium,
    waiting_block,
)

pytestmark = [pytest.mark.simcord, pytest.mark.browser, pytest.mark.whole_game]

PHONE = 400


async def test_a_game_at_phone_width_draws_cleanly_and_says_who_is_awaited_on_the_first_screen(tmp_path):
    title = replace(next(t for t in TITLES if t.game_id == "schonbrunn"), rounds=0)
    async with chromium() as shared:
        figures = await capture_game(shared, title, tmp_path, (PHONE,))

    names = [c.name for c in figures.captures]
    assert names == ["lobby", "status", "notice", "me", "standings"]
    problems = [f"{c.name}: {d}" for c in figures.captures for d in c.diagnostics]
    assert problems == []
    assert all(c.complete and c.height > 0 and c.lines for c in figures.captures)
    assert all(c.path.is_file() and c.path.with_suffix(".txt").is_file() for c in figures.captures)

    (status,) = [c for c in figures.captures if c.name == "status"]
    assert figures.awaited, "nobody was awaited when the status message was captured"
    found = waiting_block(status, figures.awaited)
    assert found is not None, f"no line names {figures.awaited} as awaited in: {status.text}"
    assert found.block_bottom <= PHONE_SCREEN, (
        f"the waiting line ends {found.block_bottom:.0f} px down the status message, below the first "
        f"{PHONE_SCREEN} px a {PHONE} px phone shows: {found.block!r}"
    )


def test_the_check_finds_a_waiting_line_pushed_below_the_first_screen():
    """The check above can fail: a waiting line under a long summary is past the screen."""
    lines = [
        TextLine("Week 2 begins.", "Week 2 begins.", 0, 20, 0, 20),
        TextLine("Waiting for", "Waiting for Anna: a turn", 900, 920, 900, 940),
    ]
    capture = Capture("status", PHONE, None, 1000, 40, "", lines, [], True)  # type: ignore[arg-type]
    found = waiting_block(capture, ["Anna"])
    assert found is not None and found.block_bottom > PHONE_SCREEN
    assert waiting_block(capture, ["Bruno"]) is None
