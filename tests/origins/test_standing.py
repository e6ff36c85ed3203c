"""Issue 18: Origins' standing orders, answered before the decision comes (never a new rule)."""

from __future__ import annotations

from engine.crisis1914 import GAME as CRISIS
from engine.origins import GAME
from engine.origins.actions import Done, Pass

from .helpers import new_game, to_attacks


def test_pass_is_for_this_turns_bidding_then_the_next_turns():
    state = new_game(5, 1)
    assert state.phase == "bidding"
    assert GAME.standing_scope(state, "s1", "pass") == f"turn {state.turn}"
    assert GAME.standing_action(state, state.bidder, "pass") == Pass()
    other = next(s for s in state.seats if s != state.bidder)
    assert GAME.standing_action(state, other, "pass") is None  # not their decision yet
    state.phase = "placement"
    assert GAME.standing_scope(state, "s1", "pass") == f"turn {state.turn + 1}"


def test_no_more_attacks_answers_the_attack_prompt_with_done():
    state = to_attacks(new_game(5, 1), "GER", ["GER", "UK", "FRA", "RUS", "AH"])
    seat = state.holders["GER"]
    assert GAME.standing_action(state, seat, "no_attacks") == Done()
    assert GAME.standing_action(state, state.holders["UK"], "no_attacks") is None
    assert GAME.standing_scope(state, seat, "no_attacks") == f"turn {state.turn}"
    assert GAME.standing_scope(state, seat, "surrender") is None


def test_crisis_keep_my_hand_only_where_no_discard_is_owed():
    state = CRISIS.setup(["s1", "s2"], CRISIS.Options(), 3)
    assert CRISIS.standing_scope(state, "s1", "keep") == f"week {state.week}"
    assert CRISIS.standing_action(state, "s1", "keep") is None  # not the Refresh Step


def test_a_sheet_written_before_phase_4_is_the_draft_when_it_begins():
    state = new_game(5, 1)  # Phase 3: bidding
    seat = state.holders["GER"]
    order = "sheet SER 5, ROM 3"
    assert GAME.standing_scope(state, seat, order) == f"turn {state.turn}"
    assert GAME.standing_action(state, seat, order) is None  # not yet Phase 4
    assert GAME.standing_scope(state, seat, "sheet nonsense") is None
    assert GAME.standing_scope(state, seat, "sheet FRA: SER 5") is None  # not theirs
    state.phase = "placement"
    action = GAME.standing_action(state, seat, order)
    assert action.country == "GER" and action.text == "SER 5, ROM 3"
    state, events = GAME.apply(state, seat, action)
    assert state.drafts["GER"].place == {"SER": 5, "ROM": 3} and seat not in state.submitted
    assert "SER 5, ROM 3" in events[0].text and events[0].audience == seat
