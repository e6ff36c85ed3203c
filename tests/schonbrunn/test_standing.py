"""Standing orders: Schönbrunn answers given before the decision comes in Hierarchy order: the
Receptions spent, the Treaties signed, no Plot (never a new rule)."""

from __future__ import annotations

import random

from engine.schonbrunn import GAME
from engine.schonbrunn import actions as A
from engine.schonbrunn.content import card
from engine.schonbrunn.standing import ahead


def _until(state, done, rng):
    """Play the automatic players' choices until `done(state)`."""
    while not done(state):
        seat = GAME.prompts(state)[0].seat
        state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
    return state


def _game(seed: int = 3):
    return GAME.setup(["s1", "s2", "s3", "s4"], GAME.Options(), seed)


def test_spend_is_given_from_the_commit_and_applied_at_the_players_turn_within_its_limit():
    rng = random.Random(1)
    state = _game()
    assert state.stage == "commit"
    assert GAME.standing_scope(state, "s1", "spend 2") == f"round {state.round}"
    assert GAME.standing_scope(state, "s1", "spend lots") is None
    state = _until(state, lambda s: s.stage == "receptions", rng)
    seat = state.queue[0]
    limit = min(state.players[seat].committed or 0, state.players[seat].receptions)
    assert GAME.standing_action(state, seat, "spend 9") == A.Spend(receptions=limit)  # never more
    assert GAME.standing_action(state, seat, "spend 0") == A.Spend(receptions=0)
    others = [s for s in state.seats if s != seat]
    assert all(GAME.standing_action(state, s, "spend 1") is None for s in others)  # not their turn
    state = _until(state, lambda s: s.stage == "assign", rng)
    assert GAME.standing_scope(state, seat, "spend 1") is None  # this round's Hierarchy is over


def test_sign_names_treaties_behind_the_screen_or_none():
    state = _game()
    seat = "s1"
    assert GAME.standing_scope(state, seat, "sign none") is not None
    assert GAME.standing_scope(state, seat, "sign Nothing Of The Kind") is None
    treaty = next(
        c for c in state.box + [x for p in state.piles.values() for x in p] if card(c).type == "treaty"
    )
    player = state.players[seat]
    state.change(player, screen=(*player.screen, treaty))  # Players are frozen: the rules replace them
    order = f"sign {card(treaty).name.upper()}"  # any case
    assert GAME.standing_scope(state, seat, order) is not None
    state.stage, state.queue = "sign", [seat]
    assert GAME.standing_action(state, seat, order) == A.Sign(treaties=[treaty])
    assert GAME.standing_action(state, seat, "sign none") == A.Sign(treaties=[])


def test_no_plot_passes_at_the_players_plot():
    rng = random.Random(2)
    state = _until(_game(), lambda s: s.stage == "plot", rng)
    seat = state.queue[0]
    assert GAME.standing_action(state, seat, "no_plot") == A.Pass()
    assert GAME.standing_scope(state, seat, "no_plot") == f"round {state.round}"


def test_what_the_model_player_leaves_ahead_is_what_it_chooses_when_asked():
    """Answering ahead never changes the automatic player's choice: every spend, signing and
    no Plot it leaves on a look is what it chooses when its turn comes."""
    checked = {"spend": 0, "sign": 0, "no_plot": 0}
    for seed in range(6):
        rng = random.Random(seed)
        state = _game(seed)
        left: dict[tuple[str, int, str], str] = {}  # (seat, round, kind) -> order
        while GAME.outcome(state) is None:
            for seat in state.seats:
                for order in ahead(state, seat, rng):
                    left.setdefault((seat, state.round, order.split(" ")[0]), order)
            prompt = GAME.prompts(state)[0]
            seat = prompt.seat
            chosen = GAME.bot_action(state, seat, rng)
            kind = {"receptions": "spend", "sign": "sign", "plot": "no_plot"}.get(state.stage)
            order = left.get((seat, state.round, kind)) if kind else None
            if order is not None:
                assert GAME.standing_action(state, seat, order) == chosen, (state.stage, order, chosen)
                checked[kind] += 1
            state, _ = GAME.apply(state, seat, chosen)
    assert all(checked.values()), checked
