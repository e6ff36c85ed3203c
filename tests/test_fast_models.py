"""engine/core/fast.py: the unvalidated copy and construction the engine's hot paths use
must give exactly what pydantic gives, and a copy must share nothing mutable."""
# A frozen Delegate refuses to change: tests/schonbrunn's random play would fail on any
# rule that still changed one in place.

from __future__ import annotations

import copy
import dataclasses
import json
import random
from pathlib import Path

from pydantic import BaseModel

from engine import games
from engine.core import built, clone, replaced
from engine.core.fast import _fields
from engine.origins.actions import Attack, Bid, Pass
from engine.origins.state import Ledger
from engine.schonbrunn.actions import Minister, TieBreak
from engine.schonbrunn.state import Delegate, Player, SchonbrunnState


def _mutables(value, seen=None):
    """id() of every list, dict and model reachable from `value`, but frozen models and
    dataclasses (Schönbrunn's Delegates) and fields marked WHOLE (Origins's score
    breakdowns), which the rules replace instead of changing (the random-play harness
    checks that a step leaves its input unchanged)."""
    seen = set() if seen is None else seen
    if hasattr(value, "model_config") and value.model_config.get("frozen"):
        return seen
    if dataclasses.is_dataclass(value) and type(value).__dataclass_params__.frozen:
        return seen
    if isinstance(value, list | dict) or hasattr(value, "__dict__"):  # a model or a state
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
    """Whether `name` is a field marked WHOLE (not, for one, the Delegate positions a
    Schönbrunn state keeps beside its fields, which are checked as any other value)."""
    return any(whole for field, _, whole in _fields(type(model)) if field == name)


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
            if isinstance(state, BaseModel):  # Schönbrunn's state is a dataclass (state.py)
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
    ledger = Ledger(bids=2)
    fast, slow = replaced(ledger, income=3), ledger.model_copy(update={"income": 3})
    assert fast == slow and fast.model_dump_json() == slow.model_dump_json()
    assert fast.model_fields_set == slow.model_fields_set
    assert ledger.income == 0  # the original is left as it was


def test_replaced_equals_dataclasses_replace_for_a_frozen_dataclass():
    d = Delegate(id="AUS3", owner="s1", value=3)
    fast, slow = replaced(d, place="II", face_up=True), dataclasses.replace(d, place="II", face_up=True)
    assert fast == slow and type(fast) is Delegate and vars(fast) == vars(slow)
    assert d.place == "supply" and not d.face_up  # the original is left as it was
    p = Player(seat="s1", nation="AUS")
    assert replaced(p, prestige=2, prestige_items=(("x", 2),)) == Player(
        seat="s1", nation="AUS", prestige=2, prestige_items=(("x", 2),)
    )


def test_a_schonbrunn_state_mid_game_round_trips_through_json_equal_to_itself():
    # stored games keep loading: the Delegates and Players are dataclasses, not models,
    # and their JSON is what pydantic gave for them as models (objects in field order)
    state = _played("schonbrunn", 6, 120)
    assert state.round >= 1 and any(d.place != "supply" for d in state.delegates)
    text = state.model_dump_json()
    again = SchonbrunnState.model_validate_json(text)
    assert again == state and again.model_dump_json() == text
    assert type(again.delegates[0]) is Delegate and type(next(iter(again.players.values()))) is Player
    assert again.markers == state.markers
    first = again.model_dump(mode="json")["delegates"][0]
    assert list(first) == [f.name for f in dataclasses.fields(Delegate)]


def test_schonbrunn_finds_a_seats_delegates_after_the_list_is_changed_replaced_or_cut():
    state = _played("schonbrunn", 6, 40)

    def scanned(seat):
        return [d for d in state.delegates if d.owner == seat]

    assert all(state.delegates_of(s) == scanned(s) for s in state.seats)
    for s in state.seats:
        in_supply = [d for d in scanned(s) if d.place == "supply"]
        assert state.supply_values(s) == tuple(sorted({d.value for d in in_supply}))
        for value in range(8):
            first = next((d for d in in_supply if d.value == value), None)
            assert state.in_supply(s, value) is first
    moved = state.change(state.delegates_of("s2")[0], place="I")  # replaced in its place
    assert state.delegates_of("s2")[0] is moved and clone(state).delegates_of("s2")[0] == moved
    state.delegates = list(reversed(state.delegates))  # a list put in its place
    assert all(state.delegates_of(s) == scanned(s) for s in state.seats)
    del state.delegates[0]  # the same list, cut
    assert all(state.delegates_of(s) == scanned(s) for s in state.seats)


def test_schonbrunn_states_stored_while_the_state_was_a_pydantic_model_load_and_dump_the_same():
    # tests/schonbrunn/data: states of five games (the Auction, simplified and lasting-allies
    # variants among them) dumped by the code of 2026-12-03, when SchonbrunnState was a model
    path = Path(__file__).parent / "schonbrunn" / "data" / "states_dumped_by_the_model.jsonl"
    stored = path.read_text(encoding="utf-8").splitlines()
    assert {json.loads(text)["stage"] for text in stored} >= {"bid", "choose", "plot", "activate", "over"}
    game = games.get("schonbrunn")
    for text in stored:
        state = game.load_state(text)
        assert state.model_dump_json() == text
        assert SchonbrunnState.model_validate(state.model_dump()) == state
        assert json.loads(state.model_dump_json(indent=2)) == json.loads(text)
        assert state.model_copy(deep=True) == state and state.model_copy(update={"stage": "over"}).stage == "over"
        assert state.stage == json.loads(text)["stage"]  # the shallow copy changed nothing here
