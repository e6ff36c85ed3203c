"""Schönbrunn lists its legal actions at every prompt.

Three checks over whole games of every player count and variant: every listed action is
accepted by the rules; the choices the automatic and default players make (which the rules
accept) are in the list, so it misses nothing they use; and a seat that owes nothing gets
[]. Then whole games chosen uniformly from the list end, as a search's playouts would.
"""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalAction
from engine.schonbrunn import GAME
from engine.schonbrunn import actions as A

VARIANTS = {"standard": {}, "simplified": {"simplified": True}, "auction": {"auction": True}}


def canonical(action) -> str:
    """Equal choices compare equal: the '-1' markers' order does not matter."""
    if isinstance(action, A.Activate):
        action = action.model_copy(
            update={"targets": sorted(action.targets, key=lambda t: (t.nation, t.objective))}
        )
    return action.model_dump_json()


def accepted(state, seat, action) -> bool:
    try:
        GAME.apply(state, seat, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_listed_action_is_legal_and_the_bots_choices_are_listed(variant, players):
    for seed in range(2):
        state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(**VARIANTS[variant]), seed)
        pick = random.Random(seed)
        prompts = GAME.prompts(state)
        while prompts:
            owing = {p.seat for p in prompts}
            for seat in state.seats:
                if seat not in owing:
                    assert GAME.legal_actions(state, seat) == [], (state.stage, seat)
            seat = pick.choice(prompts).seat
            legal = GAME.legal_actions(state, seat)
            assert legal, (state.stage, seat)
            listed = {canonical(x) for x in legal}
            assert len(listed) == len(legal), "each choice is listed once"
            for action in pick.sample(legal, min(len(legal), 6)):
                assert accepted(state, seat, action), (state.stage, action)
            for action in (GAME.bot_action(state, seat, pick), GAME.default_action(state, seat)):
                if accepted(state, seat, action):
                    assert canonical(action) in listed, (state.stage, action)
            action = pick.choice(legal) if pick.random() < 0.5 else GAME.bot_action(state, seat, pick)
            state, _ = GAME.apply(state, seat, action)
            assert not GAME.invariants(state)
            prompts = GAME.prompts(state)
        assert GAME.outcome(state) is not None


@pytest.mark.parametrize("players", [3, 6])
def test_games_chosen_uniformly_from_the_list_end(players):
    for seed in range(5):
        state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(), seed)
        pick, rng = random.Random(seed), random.Random(~seed)
        for _ in range(3000):
            prompts = GAME.prompts(state)
            if not prompts:
                break
            seat = prompts[0].seat
            GAME.play(state, seat, pick.choice(GAME.legal_actions(state, seat)), rng)
            assert not GAME.invariants(state)
        assert GAME.outcome(state) is not None


def test_every_listed_action_has_its_own_words():
    state = GAME.setup(["s1", "s2", "s3", "s4"], GAME.Options(), 3)
    pick = random.Random(3)
    while GAME.prompts(state):
        seat = GAME.prompts(state)[0].seat
        legal = GAME.legal_actions(state, seat)
        labels = [GAME.action_label(state, seat, x) for x in legal]
        assert len(set(labels)) == len(labels), (state.stage, labels)
        assert all(label and "{" not in label and "[" not in label for label in labels)
        state, _ = GAME.apply(state, seat, pick.choice(legal))
