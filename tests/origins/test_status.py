"""The public status: turn, attack order, PFs per embassy and country, treaty rights and
provisional VPs, short enough for one Discord message on a phone."""

from __future__ import annotations

import pytest

from engine.core.playout import play_out
from engine.origins import GAME, content

from .helpers import new_game, position, to_attacks


def test_public_status_shows_the_board_the_treaties_the_order_and_the_vps():
    state = position(new_game(5, 1), {"FE": {"UK": 12, "RUS": 3}, "SER": {"AH": 9}})
    state.provisional = {"UK": 10, "FRA": 5, "GER": 3, "RUS": 0, "AH": 0}
    state = to_attacks(state, state.order[0])
    text = GAME.describe(GAME.view(state, None))
    names = content.names()
    assert "October 1913" in text
    # every country and embassy in full
    assert "Attack order: " + " > ".join(names[c] for c in state.order) in text
    assert "Far East: United Kingdom 12★, Russia 3" in text
    assert "Serbia: Austria-Hungary 9" in text and "Austria-Hungary 9★" not in text
    assert "Provisional VPs: United Kingdom 10, France 5" in text
    # provisional VPs are dated and broken down
    state.provisional_when = "March 1914"
    state.provisional_parts = {"UK": [("treaty rights in Far East", 10)], "FRA": []}
    text = GAME.describe(GAME.view(state, None))
    assert "Provisional VPs (March 1914): United Kingdom 10, France 5" in text
    mine = GAME.describe(GAME.view(state, state.holders["UK"]))
    assert "  United Kingdom +10 (treaty rights in Far East +10)" in mine
    assert "France 0 (no objective met)" in GAME.describe(GAME.view(state, state.holders["FRA"]))


@pytest.mark.slow
def test_the_status_fits_one_message_even_late_in_a_seven_player_game():
    longest = 0

    def on_step(before, seat, action, after, events):
        nonlocal longest
        for observer in (None, seat):
            longest = max(longest, len(GAME.describe(GAME.view(after, observer))))

    play_out(GAME, 7, 2, on_step=on_step)
    assert longest < 2000


def test_the_status_card_gives_each_country_in_the_attack_order_its_vps_and_treaty_rights():
    state = position(new_game(5, 1), {"FE": {"UK": 12, "RUS": 3}, "SER": {"AH": 9}})
    state.provisional = {"UK": 10, "FRA": 5, "GER": 3, "RUS": 0, "AH": 0}
    state = to_attacks(state, state.order[0])
    layout = GAME.layout(GAME.view(state, None))
    names = content.names()
    assert layout.title == "Origins of World War I · October 1913 · Phase 5, diplomatic attacks"
    assert [p.name for p in layout.panels] == [f"{i}. {names[c]}" for i, c in enumerate(state.order, 1)]
    uk = next(p for p in layout.panels if p.name.endswith("United Kingdom"))
    assert uk.seat == state.holders["UK"]
    assert uk.lines[0].startswith("**10 VPs**") and uk.lines[-1] == "★ Far East"


def test_political_factors_are_named_in_full_where_a_player_first_meets_them():
    """PF is the rulebook's short name: each message says it in full the first time."""
    import re

    from engine.origins import GAME
    from engine.origins.texts import HOW_TO, explain_pfs

    assert re.search(r"\bPFs?\b", HOW_TO.split("political factors (PFs)")[0]) is None
    assert explain_pfs("Highest bid 1 PF") == "Highest bid 1 political factor (PF)"
    assert explain_pfs("3 PFs to place; 2 PFs home") == "3 political factors (PFs) to place; 2 PFs home"
    state = GAME.setup(["s1", "s2", "s3"], GAME.Options(), seed=3)
    for prompt in GAME.prompts(state):
        first = re.search(r"\bPFs?\b", prompt.text)
        assert first is None or "political factor" in prompt.text[: first.start()], prompt.text
    text = GAME.describe(GAME.view(state, "s1"))
    first = re.search(r"\bPFs?\b", text)
    assert first is None or "political factor" in text[: first.start()], text
    assert "PFs: political factors" in " ".join(GAME.layout(GAME.view(state, None)).lines)
