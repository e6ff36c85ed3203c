"""The review of a finished game (engine/core/review.py): deterministic, the same however
its work is cut, from the seat's knowledge only, its three largest turning points first,
and never a forced decision or one without a choice."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import games
from engine.core import Forced
from engine.core.playout import play_out
from engine.core.review import FLOOR, Turning, advance, finish, iterations_for, judge, review, start, weighed
from engine.core.search import Strength
from tests.test_search import SearchingEnvoys
from tests.tinygame import Commit, EnvoyState, Press

ENVOYS = SearchingEnvoys()


def _record(game: Any, players: int, seed: int) -> list[tuple[str, Any]]:
    po = play_out(game, players, seed)
    return [(s, a.model_dump(mode="json") if hasattr(a, "model_dump") else a) for s, a in po.actions]


def _envoys(seed: int = 3, rounds: int = 6) -> tuple[list[str], Any, list[tuple[str, Any]]]:
    options = ENVOYS.Options(rounds=rounds)
    seats = ["s1", "s2", "s3"]
    state = ENVOYS.setup(seats, options, seed)
    rng = random.Random(seed)
    actions: list[tuple[str, Any]] = []
    while ENVOYS.outcome(state) is None:
        seat = ENVOYS.prompts(state)[0].seat
        action = ENVOYS.bot_action(state, seat, rng)
        actions.append((seat, action.model_dump(mode="json")))
        state = ENVOYS.step(state, seat, action).state
    return seats, options, actions


def test_a_review_is_the_same_for_a_seed_and_however_its_work_is_cut() -> None:
    seats, options, actions = _envoys()
    once = review(ENVOYS, seats, options, 3, actions, "s1", 99, per_decision=24)
    assert once == review(ENVOYS, seats, options, 3, actions, "s1", 99, per_decision=24)
    assert once, "the basic Envoy gives the search something to prefer"
    progress = start(ENVOYS, seats, options, 3, actions, "s1", per_decision=24)
    pieces = 0
    while not progress.done(actions):
        progress = advance(ENVOYS, progress, actions, 99, limit=24)  # one decision a piece
        pieces += 1
    assert pieces > 3
    assert finish(progress) == once


def test_the_review_shows_the_three_largest_turning_points_largest_first() -> None:
    seats, options, actions = _envoys(seed=5, rounds=8)
    progress = start(ENVOYS, seats, options, 5, actions, "s1", per_decision=24)
    progress = advance(ENVOYS, progress, actions, 7, limit=10**6)
    assert len(progress.found) > 3
    shown = finish(progress)
    assert len(shown) == 3
    margins = [t.margin for t in shown]
    assert margins == sorted(margins, reverse=True)
    assert min(margins) >= max(t.margin for t in progress.found if t not in shown)
    assert all(t.margin > 0 for t in shown)


def test_forced_decisions_and_single_choices_are_skipped() -> None:
    seats, options, actions = _envoys()
    progress = advance(ENVOYS, start(ENVOYS, seats, options, 3, actions, "s1", per_decision=24), actions, 1, 10**6)
    kinds = {actions[t.index][1]["kind"] for t in progress.found}
    assert kinds <= {"commit", "press"}  # never a Ready: its one legal choice

    class ForcedPress(SearchingEnvoys):
        def forced_action(self, state: EnvoyState, seat: str) -> Forced | None:
            return Forced(Press(), "presses") if state.phase == "press" else None

    forced = ForcedPress()
    found = advance(forced, start(forced, seats, options, 3, actions, "s1", per_decision=24), actions, 1, 10**6).found
    assert {actions[t.index][1]["kind"] for t in found} <= {"commit"}
    state = forced.setup(seats, options, 3)
    assert weighed(forced, forced.knowledge(), state, "s1", Commit(value=1))
    state.phase = "press"
    assert not weighed(forced, forced.knowledge(), state, "s1", Press())


@pytest.mark.parametrize("game_id", ["crisis1914", "origins", "schonbrunn"])
def test_a_decision_is_judged_from_the_seat_s_knowledge_only(game_id: str) -> None:
    """The same turning points from a state and from one whose facts hidden from the seat
    differ (the game's vary_hidden, as the hidden-information checks use it)."""
    game = games.get(game_id)
    po = play_out(game, 3, 21)
    knowledge = game.knowledge()
    state = game.setup(list(po.state.seats), game.Options(), 21)
    compared = varied_any = 0
    for index, (seat, action) in enumerate(po.actions):
        if seat == "s1" and compared < 6 and weighed(game, knowledge, state, seat, action):
            other = game.vary_hidden(state, seat, random.Random(index))
            varied_any += other.model_dump_json() != state.model_dump_json()
            strength = Strength(iterations=12)
            mine = judge(game, knowledge, state, seat, action, index, strength, random.Random(index))
            theirs = judge(game, knowledge, other, seat, action, index, strength, random.Random(index))
            assert mine == theirs, f"decision {index}"
            compared += 1
        state = game.step(state, seat, action).state
    assert compared == 6 and varied_any


def test_a_turning_point_is_said_in_the_game_s_words_and_survives_json() -> None:
    game = games.get("crisis1914")
    po = play_out(game, 2, 4)
    actions = [(s, a.model_dump(mode="json")) for s, a in po.actions]
    shown = review(game, list(po.state.seats), game.Options(), 4, actions, "s1", 2, per_decision=12, per_seat=120)
    assert shown
    for t in shown:
        assert Turning.from_json(t.to_json()) == t
        text = t.sentence()
        assert text.startswith("Week "), text
        assert t.preferred in text and t.chose in text
        assert "Prestige" in text and "s1" not in text


def test_the_work_is_bounded_per_decision_and_per_seat() -> None:
    actions = [("s1", {}), ("s2", {})] * 100
    assert iterations_for(actions, "s1", per_decision=48, per_seat=2400) == 24  # 100 actions share 2400
    assert iterations_for(actions, "s1", per_decision=16, per_seat=2400) == 16  # never more than a decision's
    assert iterations_for(actions, "s1", per_decision=48, per_seat=100) == FLOOR  # never fewer than the floor
    seats, options, record = _envoys()
    progress = advance(ENVOYS, start(ENVOYS, seats, options, 3, record, "s1", per_decision=24, per_seat=96), record, 1, 10**6)
    mine = sum(1 for s, _ in record if s == "s1")
    assert progress.iterations == max(FLOOR, 96 // mine) and progress.spent <= mine * progress.iterations


def test_a_turning_point_names_its_score_in_words() -> None:
    one = Turning(3, "Turn 4 (January 1914)", "Pass in the bidding", "Bid 1 PF", 5.0, 4.0, "VPs", 60.0, 40.0, 48)
    text = one.sentence()
    assert text.startswith("Turn 4 (January 1914): you chose Pass in the bidding. The automatic player would have")
    assert "worth about +1 VP by its estimate" in text and "projected you 5 VPs after it against 4 VPs after yours" in text
    assert "rated your position 60 against 40 out of 100, over 48 deals" in text
    same = Turning(3, "", "Pass", "Bid", 5.2, 5.0, "Prestige", 60.0, 40.0, 48).sentence()
    assert same.startswith("You chose Pass.") and "worth about as much Prestige" in same


def test_a_turning_point_names_the_game_s_main_danger_where_the_search_met_it() -> None:
    kwargs = dict(danger_words="war or mobilization cost you the game", danger=0.0, danger_chosen=0.25)
    text = Turning(9, "Week 5", "Play Hoyos (3 DP)", "Pass", 14.0, 12.0, "Prestige", 70.0, 40.0, 24, **kwargs).sentence()
    assert text.endswith(
        "over 24 deals of what you could not see, and war or mobilization cost you the game in 25% of its deals "
        "after yours against 0% after it."
    )
    calm = Turning(9, "Week 5", "Play Hoyos (3 DP)", "Pass", 14.0, 12.0, "Prestige", 70.0, 40.0, 24, danger_words="war")
    assert "war" not in calm.sentence()  # met in none of the deals: not said
    old = calm.to_json()
    for name in ("danger_words", "danger", "danger_chosen"):
        del old[name]
    assert Turning.from_json(old).danger_words == ""  # a review stored before the field existed
