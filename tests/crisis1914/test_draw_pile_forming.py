"""A newly added card never forms a Draw Pile on its own (docs/rulings.md, Crisis 20).

Draw Pile Exhausted, Note: "if conditions are such that a player must add a card into their
Draw Pile and shuffle it, but there is no other card in the Draw Pile at the time [...] a
new Draw Pile must be formed from Recycled Discards. A newly added card cannot form a Draw
Pile on its own." Reforming the Draw Deck: "If a card is added to the Draw Pile during a
Week [...] that card cannot be in a Draw Pile on its own, and, at that point, a Draw Pile
is reformed from Recycled Discards." With neither a Draw Pile nor Recycled Discards the card
waits on the player board and is shuffled into the next Draw Pile formed."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.crisis1914 import GAME
from engine.crisis1914 import content as ct
from engine.crisis1914.actions import Draw, Pass, Play, Refresh, Reorganize, Resolve
from engine.crisis1914.cards import apply_effect
from engine.crisis1914.log import Log

from .helpers import Stacked, act, cid, week_start

MOBILIZATION = "General Mobilization (Austria-Hungary)"


def _bring_in(state, nation: str, card_id: str) -> list:
    """The `bring_in` effect (in the card vocabulary; no shipped card has it yet)."""
    log = Log()
    apply_effect(state, state.players[nation], ct.BringIn(card=card_id), Resolve(), "", Stacked(), log)
    return log.done()


def test_a_card_added_with_no_draw_pile_and_no_recycled_discards_waits_on_the_player_board():
    state, _ = week_start(2, {"AH": ["Hoyos", "Tisza", "Bilinski"]}, {})
    ah = state.players["AH"]
    ultimatum = cid("Ultimatum")
    ah.permanent, ah.recycled, ah.draw = ah.draw + ah.recycled, [], []  # out of play
    events = _bring_in(state, "AH", ultimatum)
    assert ah.draw == [] and ah.waiting == [ultimatum] and ultimatum in ah.set_aside
    assert any(e.kind == "waits" and "waits on the player board" in e.text for e in events)
    assert GAME.invariants(state) == []


def test_a_waiting_card_is_never_drawn_on_its_own():
    """Nothing else to form a pile with: there is no card to draw, and Draw is not offered."""
    state, _ = week_start(2, {"AH": ["Hoyos", "Tisza", "Bilinski"]}, {})
    ah = state.players["AH"]
    ah.permanent, ah.recycled, ah.draw = ah.draw + ah.recycled, [], []  # out of play
    _bring_in(state, "AH", cid("Ultimatum"))
    assert state.actor == "AH"
    assert Draw() not in GAME.legal_actions(state, ah.seat)
    with pytest.raises(IllegalAction, match="no card to draw"):
        GAME.play(state, ah.seat, Draw(), Stacked())


def test_a_waiting_card_is_shuffled_in_when_the_recycled_discards_next_form_a_draw_pile():
    """A Reorganize discard makes a Recycled Discard; the next card needed forms the Draw Pile
    from it, and the waiting card joins it there: never a pile of its own."""
    state, _ = week_start(2, {"AH": ["Hoyos", "Tisza", "Bilinski"]}, {})
    ah = state.players["AH"]
    ultimatum, hoyos = cid("Ultimatum"), cid("Hoyos")
    ah.permanent, ah.recycled, ah.draw = ah.draw + ah.recycled, [], []  # out of play
    _bring_in(state, "AH", ultimatum)
    act(state, "AH", Reorganize(discard=hoyos))  # nothing to look at: no pile is formed (ruling 18)
    assert ah.draw == [] and ah.recycled == [hoyos] and ah.waiting == [ultimatum]
    act(state, "RU", Pass())
    act(state, "AH", Draw())
    on_top = state.pending[0].cards if state.pending else [ah.tableau[-1].card]
    assert sorted(on_top + ah.draw) == sorted([hoyos, ultimatum])
    assert ah.waiting == [] and ultimatum not in ah.set_aside and ah.recycled == []
    assert GAME.invariants(state) == []


def test_a_card_added_during_a_week_joins_the_recycled_discards_at_once():
    state, _ = week_start(2, {"AH": ["Hoyos", "Tisza", "Bilinski"]}, {})
    ah = state.players["AH"]
    ultimatum = cid("Ultimatum")
    ah.recycled, ah.draw = ah.draw[:2], ah.draw[2:]
    ah.permanent, ah.draw = ah.draw, []
    recycled = list(ah.recycled)
    _bring_in(state, "AH", ultimatum)
    assert sorted(ah.draw) == sorted([ultimatum, *recycled])
    assert ah.recycled == [] and ah.waiting == [] and ultimatum not in ah.set_aside
    assert GAME.invariants(state) == []


def _solo_refresh_without_a_pile(hand: list[str], tension: int):
    """Solitaire Berchtold ends Week 1 with no Draw Pile, no Recycled Discards and an empty
    Tableau (every other card is a Permanent Discard, except Summer Harvest Leave, kept in
    Hand so that Ultimatum stays set aside); General Mobilization's conditions hold at the
    Refresh Step (Belligerence 3, a die at 4 after the Score Step's -1 for 13 DP or fewer)."""
    state, _ = week_start(1, {"AH": [*hand, "Summer Harvest Leave"]}, {})
    ah = state.players["AH"]
    assert not state.pending and state.actor == "AH"
    ah.permanent = ah.draw + ah.recycled + [t.card for t in ah.tableau]
    ah.draw, ah.recycled, ah.tableau, ah.score = [], [], [], 0
    ah.belligerence, state.tension["AH"]["RU"] = 3, tension
    assert GAME.invariants(state) == []
    act(state, "AH", Pass())
    return state, ah


def test_at_the_refresh_step_a_new_card_with_no_other_card_to_join_waits():
    state, ah = _solo_refresh_without_a_pile(["Hoyos", "Burian", "Bilinski"], 5)
    mobilization = cid(MOBILIZATION)
    assert state.phase == "refresh" and state.tension["AH"]["RU"] == 4
    assert ah.draw == [] and ah.waiting == [mobilization] and mobilization in ah.set_aside
    act(state, "AH", Refresh())
    assert state.week == 2 and ah.lost is None and ah.tableau == []  # no forced First Draw of it
    assert GAME.invariants(state) == []


def test_a_card_waiting_since_the_refresh_step_enters_with_the_next_recycled_discards():
    """It was added (its conditions held then): it enters when a pile can take it, even
    though a die has fallen below 4 since."""
    state, ah = _solo_refresh_without_a_pile(["Hoyos", "Burian", "Bilinski"], 5)
    mobilization = cid(MOBILIZATION)
    act(state, "AH", Refresh())
    act(state, "AH", Play(card=cid("Hoyos")))
    act(state, "AH", Pass())  # 4 DP: the Score Step lowers the die to 3, the Belligerence floor
    assert state.tension["AH"]["RU"] == 3
    assert state.phase == "refresh" and state.week == 2
    assert mobilization in ah.draw and cid("Hoyos") in ah.draw
    assert ah.waiting == [] and mobilization not in ah.set_aside


def test_at_the_refresh_step_return_cards_form_the_pile_and_a_new_card_joins_them():
    """Return Discards are not newly added: they may form the pile, and the new card is not
    alone in it."""
    state, ah = _solo_refresh_without_a_pile(["Hoyos", "Burian", "Tisza"], 5)
    mobilization, tisza = cid(MOBILIZATION), cid("Tisza")
    assert state.phase == "refresh"
    assert sorted(ah.draw) == sorted([tisza, mobilization]) and ah.waiting == []
