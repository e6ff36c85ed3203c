"""The rulebook's worked examples for Belligerence, Scoring, Tension and Flow Down."""

from __future__ import annotations

from engine.crisis1914.actions import Play
from engine.crisis1914.log import Log
from engine.crisis1914.state import Played
from engine.crisis1914.weeks import finish_score, flow_down, score_week

from .helpers import act, cid, week_start


def _score_step(state) -> None:
    """The whole Score Step where no player owes a choice of Tension die."""
    score_week(state, Log())
    assert not state.pending
    finish_score(state, Log())


def _russia_to_play(players: int = 3):
    state, _ = week_start(players, hands={"RU": ["Krivoshein", "Yanushkevich", "Hartwig"]}, draws={})
    while state.actor != "RU" or state.pending:  # answer the First Draw Step choices, then let others pass
        seat_nation = state.pending[0].nation if state.pending else state.actor
        act(state, seat_nation, {"kind": "resolve"} if state.pending else {"kind": "pass"})
    return state


def test_belligerence_example_1():
    """Example #1: "Russia plays a card worth 3 DP and decides to play her first Belligerence
    action with it. The DP of the card increases to 6. [...] Austria-Hungary is at Tension 2,
    and Germany is at Tension 1. [...] the Belligerence Level Track marker is moved up to 2 [...]
    the die in the Germany box [...] is adjusted to 2." (Grand Duke Nicholas is a 3 DP card.)"""
    state = _russia_to_play()
    ru = state.players["RU"]
    ru.hand.append(cid("Grand Duke Nicholas"))
    state.tension["RU"] = {"AH": 2, "DE": 1}
    before = ru.score
    act(state, "RU", Play(card=cid("Grand Duke Nicholas"), belligerence=True))
    assert ru.tableau[-1] == Played(card=cid("Grand Duke Nicholas"), dp=6, belligerence=True)
    assert ru.score == before + 6
    assert ru.belligerence == 2
    assert state.tension["RU"] == {"AH": 2, "DE": 2}


def test_belligerence_example_2():
    """Example #2: "Russia plays a card worth 4 DP and decides to play her third Belligerence
    action with it. The DP of the card increases to 8. [...] Austria-Hungary is at Tension 3,
    and Germany is at Tension 3. The Belligerence Level Track marker was at 3 [...] they are
    both increased by 1, up to 4. [...] the Germany Tension box [...] too is increased up to 4."""
    state = _russia_to_play()
    ru = state.players["RU"]
    ru.belligerence = 3
    state.tension["RU"] = {"AH": 3, "DE": 3}
    act(state, "RU", Play(card=cid("Krivoshein"), belligerence=True))
    assert ru.tableau[-1].dp == 8
    assert ru.belligerence == 4
    assert state.tension["RU"] == {"AH": 4, "DE": 4}


def test_belligerence_never_above_5_and_never_down():
    state = _russia_to_play()
    ru = state.players["RU"]
    ru.belligerence = 4
    state.tension["RU"] = {"AH": 5, "DE": 4}
    act(state, "RU", Play(card=cid("Krivoshein"), belligerence=True))
    assert ru.belligerence == 5 and state.tension["RU"] == {"AH": 5, "DE": 5}


def _scoring_state(players: int, dp: dict[str, int], initiative: list[str]):
    state, _ = week_start(players, hands={}, draws={})
    state.pending = []
    for nid, p in state.players.items():
        p.tableau, p.score, p.second, p.passed = [], dp[nid], None, True
    state.current = initiative
    return state


def _assertions(state, nation: str, n: int) -> None:
    for name in ["Potiorek", "The Kaiser's Blank Cheque", "Giesl", "Stürgkh", "Krobatin"][:n]:
        state.players[nation].tableau.append(Played(card=cid(name), dp=0))


def test_scoring_example_1():
    """Scoring Example #1: "In a 2-player game [...] Berchtold has [...] 20, and Sazonov [...] 18.
    Berchtold is highest on the Initiative Track [...]. BERCHTOLD: [...] TOTAL: 4 PRESTIGE.
    SAZONOV: 1 Prestige (for scoring at least 14 DP) TOTAL: 1 PRESTIGE"."""
    state = _scoring_state(2, {"AH": 20, "RU": 18}, ["AH", "RU"])
    _score_step(state)
    assert state.players["AH"].prestige == 4
    assert state.players["RU"].prestige == 1


def test_scoring_example_2():
    """Scoring Example #2: "In a 3-player game [...] Berchtold has [...] 23, Sazonov has 19, and
    Bethmann has 24. Sazonov is highest up the Initiative Track. Bethmann played a Belligerence
    action. Berchtold has 4+ Assertion cards [...] and played 1 Belligerence action.
    BETHMANN: [...] TOTAL: 4 PRESTIGE. BERCHTOLD: [...] TOTAL: 2 PRESTIGE. SAZONOV: [...] TOTAL: 2 PRESTIGE"."""
    state = _scoring_state(3, {"AH": 23, "RU": 19, "DE": 24}, ["RU", "AH", "DE"])
    state.players["DE"].belligerent_this_week = True
    state.players["AH"].belligerent_this_week = True
    _assertions(state, "AH", 4)
    _score_step(state)
    assert state.players["DE"].prestige == 4
    assert state.players["AH"].prestige == 2
    assert state.players["RU"].prestige == 2


def test_ties_for_dp_go_to_the_higher_on_the_initiative_track():
    """Ties: "Being highest up the Initiative track breaks ties for DP on the Score Track."""
    state = _scoring_state(3, {"AH": 20, "RU": 20, "DE": 10}, ["DE", "RU", "AH"])
    _score_step(state)
    assert state.last_week["RU"]["prestige"] == 3 and state.last_week["AH"]["prestige"] == 2


def test_tension_from_score_track_example():
    """Scoring Tension, Example: "Sazonov's lowest (or only) score marker is at 24 DP, and so he
    creates 2 Tension to the Austria-Hungary Tension Box inside St. Petersburg [...] He does not
    (yet) apply any Tension to the Germany Box beneath it"."""
    state = _scoring_state(3, {"AH": 0, "RU": 24, "DE": 0}, ["AH", "RU", "DE"])
    state.players["RU"].second = 27  # only the lower marker counts for Tension
    state.tension["RU"] = {"AH": 1, "DE": 0}
    _score_step(state)
    assert state.tension["RU"]["AH"] == 3
    assert state.tension["RU"]["DE"] == 1  # flow down afterwards: half of 3, rounded down


def test_low_dp_lowers_one_tension_die_but_not_below_belligerence():
    """-1 Tension "If you have 13 DP or fewer [...] providing it does not move lower than the
    current Belligerence Level total there"."""
    state = _scoring_state(2, {"AH": 13, "RU": 13}, ["AH", "RU"])
    state.tension["AH"]["RU"] = 3
    state.tension["RU"]["AH"] = 2
    state.players["RU"].belligerence = 2
    _score_step(state)
    assert state.tension["AH"]["RU"] == 2
    assert state.tension["RU"]["AH"] == 2


def test_flow_down_example_1():
    """Flow Down Example #1: "In St. Petersburg the Tension in the Austria-Hungary box is 4. The
    Tension in the Germany box below it is 1. [...] the die there is increased to a value of 2."""
    state, _ = week_start(3, hands={}, draws={})
    state.tension["RU"] = {"AH": 4, "DE": 1}
    flow_down(state)
    assert state.tension["RU"] == {"AH": 4, "DE": 2}


def test_flow_down_example_2():
    """Flow Down Example #2: "In Berlin the Tension in the Russia box is 4. The Tension in the
    France box below it is 3, and the Tension in the Britain box is 0. [...] the value is not
    changed. But [...] the Britain box [...] is increased to 1."""
    state, _ = week_start(5, hands={}, draws={})
    state.tension["DE"] = {"RU": 4, "FR": 3, "GB": 0}
    flow_down(state)
    assert state.tension["DE"] == {"RU": 4, "FR": 3, "GB": 1}
