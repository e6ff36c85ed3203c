"""engine/core/fast.py: the unvalidated copy and construction the engine's hot paths use
must give exactly what pydantic gives, and a copy must share nothing mutable."""
# A frozen Delegate refuses to change: tests/schonbrunn's random play would fail on any
# rule that still changed one in place.

from __future__ import annotations

import copy
import random

from engine import games
from engine.core import WHOLE, built, clone, replaced
from engine.origins.actions import Attack, Bid, Pass
from engine.schonbrunn.actions import Minister, TieBreak
from engine.schonbrunn.state import Delegate


def _mutables(value, seen=None):
    """id() of every list, dict and model reachable from `value`, but frozen models
    (Schönbrunn's Delegates) and fields marked WHOLE (Origins's score breakdowns), which
    the rules replace instead of changing (the random-play harness checks that a step
    leaves its input unchanged)."""
    seen = set() if seen is None else seen
    if hasattr(value, "model_config") and value.model_config.get("frozen"):
        return seen
    if isinstance(value, list | dict) or hasattr(value, "__pydantic_fields_set__"):
        seen.add(id(value))
        items = (
            value
            if isinstance(value, list)
            else value.values()
            if isinstance(value, dict)
            else [v for k, v in value.__dict__.items() if not _whole(value, k)]
        )
        for item in items:
            _mutables(item, seen)
    return seen


def _whole(model, name: str) -> bool:
    field = type(model).model_fields.get(name)
    return field is not None and WHOLE in field.metadata


def _played(game_id: str, players: int, steps: int):
    game = games.get(game_id)
    state = game.setup([f"s{i + 1}" for i in range(players)], game.Options(), 5)
    pick = random.Random(5)
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        seat = game.prompts(state)[0].seat
        state = game.step(state, seat, pick.choice(game.legal_actions(state, seat))).state
    return state


def test_a_clone_of_each_games_state_equals_it_and_shares_nothing_mutable():
    for game_id, players in (("crisis1914", 5), ("origins", 7), ("schonbrunn", 6)):
        for steps in (0, 40):
            state = _played(game_id, players, steps)
            twin = clone(state)
            assert twin == state and twin.model_dump_json() == state.model_dump_json()
            assert twin.model_fields_set == state.model_fields_set
            assert not _mutables(twin) & _mutables(state), game_id
            assert copy.deepcopy(state) == state  # each state's __deepcopy__ is the clone


def test_built_actions_equal_validated_ones():
    cases = [
        (Bid, {"payer": "GER", "card": "ITA", "position": 1, "amount": 2}),
        (Pass, {}),
        (Attack, {"embassy": "SER", "split": {"RUS": 3}}),
        (Minister, {"objective": None}),
        (TieBreak, {"order": ["s1", "s2"]}),
    ]
    for cls, fields in cases:
        fast, slow = built(cls, **fields), cls(**fields)
        assert fast == slow and fast.model_dump_json() == slow.model_dump_json()
        assert fast.model_fields_set == slow.model_fields_set


def test_replaced_equals_model_copy_with_the_update():
    d = Delegate(id="AUS3", owner="s1", value=3)
    fast, slow = replaced(d, place="II", face_up=True), d.model_copy(update={"place": "II", "face_up": True})
    assert fast == slow and fast.model_dump_json() == slow.model_dump_json()
    assert fast.model_fields_set == slow.model_fields_set
    assert d.place == "supply" and not d.face_up  # the original is left as it was


def test_schonbrunn_finds_a_seats_delegates_after_the_list_is_changed_replaced_or_cut():
    state = _played("schonbrunn", 6, 40)

    def scanned(seat):
        return [d for d in state.delegates if d.owner == seat]

    assert all(state.delegates_of(s) == scanned(s) for s in state.seats)
    moved = state.change(state.delegates_of("s2")[0], place="I")  # replaced in its place
    assert state.delegates_of("s2")[0] is moved and clone(state).delegates_of("s2")[0] == moved
    state.delegates = list(reversed(state.delegates))  # a list put in its place
    assert all(state.delegates_of(s) == scanned(s) for s in state.seats)
    del state.delegates[0]  # the same list, cut
    assert all(state.delegates_of(s) == scanned(s) for s in state.seats)
