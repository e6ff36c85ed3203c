"""Random legal play: whole games for every player count, with the invariants checked at
every step (PFs conserved, no negative counts, treaty rights matching the counts, an end
between July and September 1914), and the hidden-information check."""

from __future__ import annotations

import pytest

from engine.core.playout import play_out
from engine.origins import GAME, quick_player
from tests.harness import check_hidden_information, check_random_play

pytestmark = pytest.mark.whole_game

PLAYERS = range(2, 8)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", range(3))
def test_random_play_round_trips_and_replays(players, seed):
    state = check_random_play(GAME, players, seed)
    assert state.phase == "over"


def _sweep(players: int, games: int, policy) -> None:
    kinds: set[str] = set()

    def on_step(before, seat, action, after, events):
        broken = GAME.invariants(after)
        assert not broken, (players, after.seed, after.step, broken)
        kinds.add(action.kind)

    lengths = []
    for seed in range(games):
        result = play_out(GAME, players, 1000 + seed, on_step=on_step, policy=policy)
        assert result.outcome is not None
        assert 9 <= result.state.turn <= 11
        lengths.append(result.state.turn)
    # the players really play: they bid, place, attack (sometimes split) and negotiate
    assert {"bid", "pass", "submit", "attack", "done", "ready"} <= kinds
    if games >= 100:
        assert len(set(lengths)) == 3  # games end in July, August and September


@pytest.mark.parametrize("players", PLAYERS)
def test_two_hundred_whole_games_keep_the_invariants(players):
    """A 1,200-game sweep, by the quick player (the strong one would take minutes)."""
    _sweep(players, 200, quick_player.choose)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_strong_automatic_player_keeps_the_invariants(players):
    """The `bot_action` that fills seats and drives `simulate`, over fewer games."""
    _sweep(players, 6, None)


def test_the_margin_rule_variant_plays_through():
    state = check_random_play(GAME, 5, 7, GAME.Options(margin_rule=True))
    assert GAME.outcome(state) is not None


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", range(3))
def test_hidden_information(players, seed):
    """Drafts and handed-in sheets stay secret until all sheets are revealed together."""
    assert check_hidden_information(GAME, players, seed, samples=16) > 0


def test_vary_hidden_really_changes_the_hidden_sheets():
    """The check above is only meaningful if vary_hidden changes what is secret."""
    import random

    from engine.origins.state import Sheet

    from .helpers import finish_bidding, new_game

    state = finish_bidding(new_game(5, 3))
    seat = state.holders["GER"]
    state, _ = GAME.apply(state, seat, {"kind": "place", "country": "GER", "embassy": "SER", "amount": 5})
    observer = state.holders["UK"]
    varied = GAME.vary_hidden(state, observer, random.Random(1))
    assert varied.drafts["GER"] != state.drafts["GER"]
    assert all(
        varied.drafts.get(c, Sheet()) == state.drafts.get(c, Sheet()) for c in state.countries_of(observer)
    )
    assert GAME.view(varied, observer) == GAME.view(state, observer)
    assert GAME.view(varied, seat) != GAME.view(state, seat)


@pytest.mark.parametrize("players", [3, 7])
def test_may_act_agrees_with_the_prompts_at_every_step(players):
    """`may_act` answers without writing the prompts (legal_actions asks it every step)."""

    def on_step(before, seat, action, after, events):
        owing = {p.seat for p in GAME.prompts(after)}
        assert {s for s in after.seats if GAME.may_act(after, s)} == owing, (after.phase, after.step)

    play_out(GAME, players, 5, on_step=on_step, policy=quick_player.choose)
