"""Schönbrunn's view as typed records (engine/schonbrunn/view_types.py): its dictionary is
the plain JSON an export keeps, key for key and in the same order, and that JSON reads back
to the same view, with every key that is only sometimes there."""

from __future__ import annotations

import json
import random

from engine.schonbrunn import GAME
from engine.schonbrunn.view_types import SchonbrunnView

# The keys of each record of an export's public view, in the order the JSON has always had
# them; in these records the last key is there only where the view has it.
KEYS = {
    "view": ["round", "rounds", "stage", "phase", "simplified", "hierarchy", "master", "objectives"]
    + ["balance", "players", "waiting", "last_awards", "final", "me"],
    "objective": ["reparation", "reparation_text", "pile", "favour", "pieces"],
    "delegation": ["face_up", "face_down", "minister", "head", "markers", "total"],
    "balance": ["reparation", "reparation_text", "pile"],
    "player": ["nation", "prestige", "signed", "behind_screen", "under_nation_card", "ally_markers"]
    + ["supply", "committed", "head", "bid", "receptions"],
    "me": ["seat", "nation", "receptions", "supply", "screen", "screen_texts", "signed_texts"]
    + ["nation_text", "aids_shown", "bid", "committed", "face_down"],
}
SOMETIMES = {"view", "delegation", "player", "me"}


def _in_order(data: dict, record: str) -> bool:
    keys = KEYS[record]
    return list(data) == keys or record in SOMETIMES and list(data) == keys[:-1]


def _states(options: dict[str, bool], players: int, seed: int) -> list:
    """Every fifth state of one game the automatic players play with these table options."""
    seats = [f"s{i + 1}" for i in range(players)]
    state = GAME.setup(seats, GAME.Options(**options), seed)
    bots = random.Random(seed)
    states = [state]
    while GAME.outcome(state) is None:
        seat = GAME.prompts(state)[0].seat
        state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, bots))
        states.append(state)
    return states[::5] + [states[-1]]


def test_every_view_reads_back_from_its_json():
    """Public and private views along games with the table options that add keys (the
    simplified game's Receptions, one's own face-down Delegates, the auction's bids): each
    reads back from its JSON to an equal view, whose dictionary is the same."""
    keys: set[str] = set()
    for options, players, seed in [
        ({"simplified": True}, 3, 1),
        ({"see_own_face_down": True, "auction": True}, 4, 2),
        ({}, 6, 3),
    ]:
        for state in _states(options, players, seed):
            for seat in [None, *state.seats]:
                view = GAME.view(state, seat)
                assert isinstance(view, SchonbrunnView)
                data = GAME.view_dict(view)
                text = json.dumps(data, ensure_ascii=False)
                back = GAME.view_from_dict(json.loads(text))
                assert back == view and json.dumps(GAME.view_dict(back), ensure_ascii=False) == text
                assert _in_order(data, "view") and _in_order(data["balance"], "balance")
                assert all(_in_order(o, "objective") for o in data["objectives"].values())
                assert all(_in_order(p, "player") for p in data["players"].values())
                me = data.get("me", {})
                pieces = [pc for o in data["objectives"].values() for pc in o["pieces"].values()]
                assert all(_in_order(pc, "delegation") for pc in pieces)
                assert "me" not in data or _in_order(me, "me")
                keys |= {k for k in ("me",) if k in data} | {k for k in ("face_down",) if k in me}
                keys |= {k for p in data["players"].values() for k in ("receptions",) if k in p}
                keys |= {"total" for pc in pieces if "total" in pc}
                keys |= {"bid" for p in data["players"].values() if p["bid"] is not None}
    assert keys == {"me", "face_down", "receptions", "total", "bid"}
