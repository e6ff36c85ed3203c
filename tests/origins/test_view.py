"""The view as typed records (engine/origins/view_types.py): read by attribute, written to
plain JSON key for key as the status and exports have always had it, and read back equal."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.origins import GAME
from engine.origins.view_types import OriginsView, You
from tests.harness import views_of_a_game


def _views(players: int, seed: int):
    return views_of_a_game(GAME, players, seed)


@pytest.mark.parametrize("players", [2, 7])
def test_a_view_goes_to_json_and_back_unchanged(players):
    phases, seen = set(), set()
    for view in _views(players, seed=3):
        data = GAME.view_dict(view)
        back = GAME.view_from_dict(json.loads(json.dumps(data)))
        assert back == view and GAME.view_dict(back) == data
        phases.add(view.phase)
        seen |= {k for k in ("bidding", "submitted", "attacking", "ready", "last_sheets", "you") if k in data}
        if view.you is not None:
            seen |= {f"you.{k}" for k in data["you"]}
    # every phase and every optional part of the view went through
    assert phases == {"bidding", "placement", "attacks", "diplomacy", "over"}
    assert {"bidding", "submitted", "attacking", "ready", "last_sheets", "you"} <= seen
    assert {"you.attacks", "you.sheets", "you.unplaced", "you.handed_in"} <= seen


def test_the_json_keys_are_the_fields_in_order_and_a_missing_part_is_none():
    view = next(v for v in _views(3, seed=1) if v.you is not None and v.phase == "placement")
    data = GAME.view_dict(view)
    fields = [f.name for f in dataclasses.fields(OriginsView)]
    assert list(data) == [f for f in fields if getattr(view, f) is not None or f in ("end_roll", "final")]
    assert view.bidding is None and "bidding" not in data
    you_fields = [f.name for f in dataclasses.fields(You)]
    assert list(data["you"]) == [f for f in you_fields if getattr(view.you, f) is not None]
    assert view.you.attacks is None and view.you.handed_in is False  # in Phase 4, before handing in


def test_a_view_kept_before_the_vps_were_dated_and_itemised_reads_back():
    """A public record kept by an earlier version has no `vps_when` nor `vps_parts`."""
    view = next(v for v in _views(3, seed=1) if v.phase == "diplomacy")
    data = GAME.view_dict(view)
    del data["vps_when"], data["vps_parts"]
    back = GAME.view_from_dict(data)
    assert back.vps_when == "" and back.vps_parts == {} and back.vps == view.vps
    assert GAME.describe(back).startswith("**Origins of World War I")
