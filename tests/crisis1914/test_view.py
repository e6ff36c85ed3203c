"""The view as typed records (engine/crisis1914/view_types.py): read by attribute, written to
plain JSON key for key and in the order the status and exports have always had it, and
read back equal, with the parts of a seat's own view that are only sometimes there."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.crisis1914 import GAME
from engine.crisis1914.view_types import CrisisView, PlayedView, StatesmanView, YourView
from tests.harness import views_of_a_game


def _views(players: int, seed: int):
    return views_of_a_game(GAME, players, seed)


def _names(record: type) -> list[str]:
    return [f.name for f in dataclasses.fields(record)]


# the solitaire game; five statesmen, where one's Refresh choice waits for the others'
@pytest.mark.parametrize("players, seed", [(1, 1), (5, 5)])
def test_a_view_goes_to_json_and_back_unchanged(players, seed):
    phases, yours = set(), set()
    for view in _views(players, seed):
        data = GAME.view_dict(view)
        back = GAME.view_from_dict(json.loads(json.dumps(data)))
        assert back == view and GAME.view_dict(back) == data
        phases.add(view.phase)
        if view.you is not None:
            yours |= set(data["you"])
    # the steps of the Week that wait for a decision, and the parts of a seat's own view
    assert {"play", "refresh", "over"} <= phases
    assert yours >= {"nation", "hand", "known_top", "looking_at"}
    if players > 1:
        assert {"congress_invite", "congress_answer"} <= phases and yours == set(_names(YourView))


def test_the_json_keys_are_the_fields_in_order_and_lists_where_there_were_lists():
    view = next(v for v in _views(3, seed=1) if v.you is not None and v.you.looking_at)
    data = GAME.view_dict(view)
    assert list(data) == _names(CrisisView)
    statesman = next(p for p in data["players"].values() if p["tableau"])
    assert list(statesman) == _names(StatesmanView) and list(statesman["tableau"][0]) == _names(PlayedView)
    assert list(data["you"]) == ["nation", "hand", "known_top", "looking_at"]  # no Refresh choice yet
    assert isinstance(data["initiative"], list) and isinstance(statesman["tableau"], list)
    assert isinstance(data["you"]["looking_at"], list)


def test_the_public_view_has_no_part_of_its_own():
    view = GAME.view(GAME.setup(["s1", "s2"], GAME.Options(), 2), None)
    assert view.you is None and "you" not in GAME.view_dict(view)
    assert GAME.view_from_dict(GAME.view_dict(view)).you is None
