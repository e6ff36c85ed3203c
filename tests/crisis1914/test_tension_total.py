"""Tension is a true total until the Congress Step has had its say (docs/rulings.md, Crisis 25).

Game End Check Step: "If any player has a City Box showing any red die at, or higher than 6,
the game ends"; "If no nation has a Tension total at or in excess of 6 [...] play will
continue". Congress Step: "every Tension die total is reduced by 1 point". So a box the
Score Step takes to 7 is still at 6 after a Congress: war. Only a box at exactly 6 is
saved by a Congress."""

from __future__ import annotations

from engine.crisis1914 import GAME
from engine.crisis1914.actions import Congress, Pass, Reduce, Resolve
from engine.crisis1914.rules import delegates_to_answer
from engine.crisis1914.state import Played

from .helpers import act, cid, week_start

SCORE_PLUS_3 = 25  # the Score Track's space 25 adds 3 Tension (2-player example, Score Step)


def _to_congress(players: int, city: str, box: str, before: int) -> object:
    """Sazonov ends the Week on 25 DP (+3 Tension to his Target box, `box` in `city`, which
    starts at `before`); everyone else passes at once. Returns the state at the Congress."""
    state, _ = week_start(players, {}, {})
    state.tension[city][box] = before
    ru = state.players["RU"]
    krivoshein = cid("Krivoshein")
    for pile in (ru.draw, ru.hand, ru.recycled):
        if krivoshein in pile:
            pile.remove(krivoshein)
    ru.draw += [t.card for t in ru.tableau]  # the First Draw card goes back: one card, one place
    ru.tableau = [Played(card=krivoshein, dp=SCORE_PLUS_3)]
    ru.score = SCORE_PLUS_3
    while state.phase != "congress_invite":
        pending = state.pending[0] if state.pending else None
        answer = {None: Pass(), "reduce": Reduce()}.get(pending and pending.kind, Resolve())
        act(state, pending.nation if pending else state.actor, answer)
    return state


def _hold_congress(state) -> None:
    act(state, state.congress_inviter, Congress(yes=True))
    while state.phase == "congress_answer":
        act(state, delegates_to_answer(state)[0], Congress(yes=True))


def _refuse_congress(state) -> None:
    act(state, state.congress_inviter, Congress(yes=False))


def test_a_box_reaching_7_keeps_its_true_total_until_the_congress():
    """The Score Step adds the Score Track's +3 to a die at 4: the box holds 7, not 6."""
    state = _to_congress(2, "RU", "AH", 4)
    assert state.tension["RU"]["AH"] == 7
    assert GAME.invariants(state) == []


def test_a_box_reaching_7_with_a_congress_is_still_war():
    """7 less the Congress's 1 is 6: "at, or higher than 6", so Sazonov loses."""
    state = _to_congress(2, "RU", "AH", 4)
    _hold_congress(state)
    ru = state.players["RU"]
    assert state.tension["RU"]["AH"] == 6
    assert state.phase == "over" and ru.lost == "Tension 6 in St. Petersburg: war" and ru.prestige == 0
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [state.players["AH"].seat]


def test_a_box_reaching_6_exactly_with_a_congress_is_saved():
    """6 less the Congress's 1 is 5: no die at 6, the game goes on to Week 2."""
    state = _to_congress(2, "RU", "AH", 3)
    assert state.tension["RU"]["AH"] == 6
    _hold_congress(state)
    assert state.tension["RU"]["AH"] == 5
    assert state.players["RU"].lost is None and state.phase != "over" and state.week == 2


def test_a_box_reaching_6_exactly_without_a_congress_is_war():
    state = _to_congress(2, "RU", "AH", 3)
    _refuse_congress(state)
    assert state.phase == "over" and state.players["RU"].lost == "Tension 6 in St. Petersburg: war"


def test_a_box_reaching_7_without_a_congress_loses_with_its_true_total():
    state = _to_congress(2, "RU", "AH", 4)
    events = [e.text for e in act(state, state.congress_inviter, Congress(yes=False))]
    assert state.players["RU"].lost == "Tension 7 in St. Petersburg: war"
    assert "Sazonov loses: Tension reaches 7 in St. Petersburg." in events


def test_a_belligerence_floor_keeps_a_box_above_6_after_a_congress():
    """The Congress lowers a die "although not below their current Belligerence Level
    markers": the true total of 8 falls to 7 however high the floor."""
    state = _to_congress(2, "RU", "AH", 5)
    state.players["RU"].belligerence = 5
    assert state.tension["RU"]["AH"] == 8
    _hold_congress(state)
    assert state.tension["RU"]["AH"] == 7 and state.players["RU"].lost is not None


def test_flow_down_reads_the_true_total_above_6():
    """Flow Down: the box below must be "at least half the total of the box above it". Half
    of the true 8 is 4 (half of a die cut to 6 would have been 3)."""
    state = _to_congress(3, "RU", "AH", 5)
    assert state.tension["RU"] == {"AH": 8, "DE": 4}


def test_the_status_shows_the_true_total_above_6():
    """A die cannot show 7, but the table announced the sum at the Score Step and the
    Congress lowers that sum: the status and the picture's numbers show it."""
    state = _to_congress(2, "RU", "AH", 4)
    view = GAME.view(state, None)
    assert view.tension["RU"]["AH"] == 7
    assert "Tension Austria-Hungary 7" in GAME.describe(view)
    panel = next(p for p in GAME.layout(view).panels if "Sazonov" in p.name)
    assert any("Tension: Austria-Hungary 7" in line for line in panel.lines)
