"""A Delegation Head with nowhere to go is kept at once (no real choice)."""

from __future__ import annotations

from engine import games
from engine.core.playout import play_out
from engine.schonbrunn import legal
from engine.schonbrunn.pieces import head_targets


def test_a_head_prompt_with_no_legal_placement_is_forced_and_no_other():
    game = games.get("schonbrunn")
    forced, free = [], 0

    def on_step(state, seat, action, new, events):
        nonlocal free
        if state.stage != "assign" or state.assign_step != "head":
            assert game.forced_action(state, seat) is None
            return
        choice = game.forced_action(state, seat)
        if head_targets(state, seat):
            assert choice is None  # a real choice: the player is asked
            free += 1
        elif choice is not None:
            assert legal.legal_actions(state, seat) == [choice.action]
            assert choice.action.target is None and "Delegation Head" in choice.said
            forced.append(choice)

    for seed in range(5):
        play_out(game, 4, seed, on_step=on_step)
    assert forced and free  # the seeds give both kinds
