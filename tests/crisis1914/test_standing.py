"""Standing orders: answers a statesman gives before the decision comes, and the Congress asked of
every delegate at once (docs/rulings.md, Crisis 35). None is a new rule."""

from __future__ import annotations

import random

import pytest

from engine.core import NotYourTurn
from engine.core.chance import certain
from engine.crisis1914 import GAME
from engine.crisis1914.actions import Congress, Pass, Reduce, Resolve
from engine.crisis1914.standing import ahead

from .helpers import act, week_start


def _to_congress(players: int = 4):
    state, _ = week_start(players, hands={}, draws={})
    for nid in state.players:
        state.tension[nid] = {b: 3 for b in state.tension[nid]}
    while state.phase in ("first_draw", "play", "score"):
        pending = state.pending[0] if state.pending else None
        answer = {None: Pass(), "reduce": Reduce()}.get(pending and pending.kind, Resolve())
        act(state, pending.nation if pending else state.actor, answer)
    assert state.phase == "congress_invite"
    act(state, state.congress_inviter, Congress(yes=True))
    return state


def test_every_delegate_is_asked_at_once_and_answers_in_any_order():
    state = _to_congress(4)
    order = [n for n in state.initiative() if n != state.congress_inviter]
    asked = [p.seat for p in GAME.prompts(state)]
    assert asked == [state.players[n].seat for n in order]  # from the top down, all at once
    assert len({p.phase for p in GAME.prompts(state)}) == 1  # one deadline, one thread
    before = {k: dict(v) for k, v in state.tension.items()}
    act(state, order[-1], Congress(yes=True))  # the bottom one answers first
    with pytest.raises(NotYourTurn, match="already answered"):
        GAME.play(state, state.players[order[-1]].seat, Congress(yes=True), random.Random(0))
    assert [p.seat for p in GAME.prompts(state)] == [state.players[n].seat for n in order[:-1]]
    act(state, order[0], Congress(yes=True))
    assert state.phase == "congress_answer" and state.tension == before  # one still to answer
    act(state, order[1], Congress(yes=True))
    assert state.phase != "congress_answer"
    assert state.tension == {  # the Congress met: every die falls by 1, not below the floor
        city: {b: max(state.players[city].belligerence, v - 1, 0) for b, v in boxes.items()}
        for city, boxes in before.items()
    }
    assert state.tension != before


def test_one_refusal_in_any_order_ends_the_congress_and_the_others_are_no_longer_asked():
    state = _to_congress(4)
    order = [n for n in state.initiative() if n != state.congress_inviter]
    before = {k: dict(v) for k, v in state.tension.items()}
    act(state, order[1], Congress(yes=False))
    assert state.phase != "congress_answer" and state.tension == before
    assert not any(p.kind == "congress" for p in GAME.prompts(state))


def test_pass_next_passes_at_the_next_turn_of_this_week_only():
    state, _ = week_start(3, hands={}, draws={})
    while state.pending:
        act(state, state.pending[0].nation, Resolve())
    me = next(n for n in state.players if n != state.actor)
    seat = state.players[me].seat
    assert GAME.standing_scope(state, seat, "pass_next") == f"week {state.week}"
    assert GAME.standing_action(state, seat, "pass_next") is None  # not my turn yet
    while state.actor != me:
        act(state, state.actor, Pass())
        while state.pending:
            act(state, state.pending[0].nation, Resolve())
    assert GAME.standing_action(state, seat, "pass_next") == Pass()
    act(state, me, Pass())
    assert GAME.standing_scope(state, seat, "pass_next") is None  # passed: nothing left this Week


def test_certain_tries_every_way_the_draws_can_fall():
    def choose(rng: random.Random) -> str:
        if rng.random() < 0.3:
            return "seize"
        return "draw" if rng.random() < 0.5 else "pass"

    assert certain(choose) is None
    assert certain(lambda rng: "pass" if rng.random() < 0.9 or rng.random() < 0.1 else "pass") == "pass"
    seen = []

    def counting(rng: random.Random) -> str:
        seen.append((rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5))
        return "same"

    assert certain(counting) == "same" and len(set(seen)) == 8  # every path of three draws


def test_the_model_player_leaves_pass_next_only_when_its_pass_is_certain():
    state, _ = week_start(3, hands={}, draws={})
    while state.pending:
        act(state, state.pending[0].nation, Resolve())
    me = next(n for n in state.players if n != state.actor)
    p = state.players[me]
    seat = p.seat
    assert ahead(state, seat) == []  # a fresh Week: it would play or draw
    p.tableau = p.tableau + p.tableau * 10  # a full Tableau: the automatic player must Pass
    assert ahead(state, seat) == ["pass_next", "keep"]
    assert ahead(state, state.players[state.actor].seat) == []  # its turn: it answers itself
