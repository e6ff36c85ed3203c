"""The rules one at a time, each quoted from rules/crisis-1914.txt."""

from __future__ import annotations

import json

import pytest

from engine.core import IllegalAction
from engine.core.plain import as_plain
from engine.crisis1914 import GAME
from engine.crisis1914 import content as ct
from engine.crisis1914.actions import (
    Deliberate,
    Draw,
    Pass,
    Play,
    Reduce,
    Refresh,
    Reorganize,
    Resolve,
    Seize,
)
from engine.crisis1914.cards import apply_effect, limit
from engine.crisis1914.log import Log
from engine.crisis1914.state import Played

from .helpers import Stacked, act, cid, week_start


def _to_turn(state, nation):
    """Answer First Draw choices and let the others pass until `nation` is to act."""
    while state.pending or state.actor != nation:
        if state.pending:
            act(state, state.pending[0].nation, Resolve())
        else:
            act(state, state.actor, Pass())
    return state.players[nation]


def _game(players=2, **kw):
    kw.setdefault("hands", {})
    kw.setdefault("draws", {})
    state, _ = week_start(players, **kw)
    return state


@pytest.mark.parametrize(
    "tableau, expected",
    [
        ([], 7),
        (["Conrad"], 8),  # National Interests: +1 each
        (["The Emperor"], 7),  # one Consensus card is not a pair
        (["The Emperor", "Straussenburg"], 8),
        (["The Emperor", "Straussenburg", "Burian"], 8),
        (["The Emperor", "Straussenburg", "Burian", "Archduke Friedrich", "Conrad"], 10),
    ],
)
def test_card_limit_7_plus_national_interests_plus_consensus_pairs(tableau, expected):
    """ "the limit of 7 cards plus one per National Interests card and one per pair of Consensus cards"."""
    state = _game()
    p = state.players["AH"]
    p.tableau = [Played(card=cid(n), dp=0) for n in tableau]
    assert limit(p) == expected


def test_at_the_limit_a_player_must_pass():
    state = _game(hands={"AH": ["Hoyos"]})
    p = _to_turn(state, "AH")
    p.tableau = [Played(card=cid("Bilinski"), dp=0) for _ in range(7)]
    with pytest.raises(IllegalAction, match="must Pass"):
        GAME.play(state, p.seat, Play(card=cid("Hoyos")), Stacked())


def test_momentum_stops_opposing_nations_from_deliberate_and_reorganize():
    """Momentum: "The moment you have 3 or more cards with the Momentum effect on your Tableau
    all of your opposing nations are prohibited from taking a Deliberate or Reorganize action"."""
    hands = {
        "AH": ["Krobatin", "No Romanian Support", "Szőgyény"],
        "RU": ["Bark", "Basili", "Sergei Witte"],
        "DE": ["Jagow", "Stumm", "Schoen"],
    }
    state = _game(3, hands=hands)
    ah = _to_turn(state, "AH")
    ah.tableau += [Played(card=cid("Krobatin"), dp=0), Played(card=cid("No Romanian Support"), dp=0)]
    ah.hand.remove(cid("Krobatin"))
    ah.hand.remove(cid("No Romanian Support"))
    act(state, "AH", Play(card=cid("Szőgyény")))
    assert ah.momentum
    ru = _to_turn(state, "RU")
    for blocked in (Deliberate(discard=cid("Bark")), Reorganize(discard=cid("Bark"))):
        with pytest.raises(IllegalAction, match="Momentum"):
            GAME.play(state, ru.seat, blocked, Stacked())
    act(state, "RU", Pass())
    _to_turn(state, "DE")
    act(state, "DE", Reorganize(discard=cid("Jagow")))  # Germany is not an opposing nation


def test_ultimatum_is_forced_to_belligerence_and_pays_prestige_at_once():
    """ "These cards must always be played as Belligerence actions, if possible. [...] The Prestige
    awarded on playing these cards is awarded immediately"."""
    state = _game(hands={"AH": ["Hoyos"]})
    ah = _to_turn(state, "AH")
    ah.set_aside.remove(cid("Ultimatum"))
    ah.hand.append(cid("Ultimatum"))
    before = ah.score
    act(state, "AH", Play(card=cid("Ultimatum")))
    assert ah.tableau[-1].belligerence and ah.tableau[-1].dp == 8 and ah.score == before + 8
    assert ah.belligerence == 1 and ah.prestige == 3  # Ultimatum's designed award, at once


def test_ultimatum_at_belligerence_5_is_still_played_without_it():
    state = _game(hands={"AH": ["Hoyos"]})
    ah = _to_turn(state, "AH")
    ah.set_aside.remove(cid("Ultimatum"))
    ah.hand.append(cid("Ultimatum"))
    ah.belligerence = 5
    state.tension["AH"]["RU"] = 5
    with pytest.raises(IllegalAction, match="no Belligerence"):
        GAME.play(state, ah.seat, Play(card=cid("Hoyos"), belligerence=True), Stacked())
    act(state, "AH", Play(card=cid("Ultimatum")))
    assert not ah.tableau[-1].belligerence and ah.tableau[-1].dp == 4 and ah.prestige == 3


def test_reduce_tension_never_below_the_belligerence_level():
    """ "Reduce Tension effects [...] are all ignored if they would move the relevant Tension
    levels below the number indicated on the Belligerence Level Track"."""
    state = _game(hands={"RU": ["Sergei Witte", "Bark", "Basili"]})
    ru = _to_turn(state, "RU")
    state.tension["RU"]["AH"] = 2
    ru.belligerence = 2
    act(state, "RU", Play(card=cid("Sergei Witte")))
    assert state.tension["RU"]["AH"] == 2
    state2 = _game(hands={"RU": ["Sergei Witte", "Bark", "Basili"]})
    _to_turn(state2, "RU")
    state2.tension["RU"]["AH"] = 2
    act(state2, "RU", Play(card=cid("Sergei Witte")))
    assert state2.tension["RU"]["AH"] == 1


def test_you_may_reduce_any_one_tension_die_in_your_city_box():
    """3. Score Step: "if you did not reach 14 DP you may reduce any one Tension die in your City
    Box by 1 point". The player chooses the die; the deadline's default is the Target box."""
    state = _game(3)
    state.tension["RU"] = {"AH": 2, "DE": 3}
    while not state.pending or state.pending[0].kind != "reduce":
        if state.pending:
            act(state, state.pending[0].nation, Resolve())
        else:
            act(state, state.actor, Pass())
    ru = state.players["RU"]
    assert state.pending[0].nation == "RU" and ru.highest < 14
    assert GAME.legal_actions(state, ru.seat) == [Reduce(box="DE"), Reduce(box="AH")]
    assert GAME.default_action(state, ru.seat) == Reduce()  # the Target Nation's box
    act(state, "RU", Reduce(box="AH"))  # the lower die, by choice
    assert state.tension["RU"] == {"AH": 1, "DE": 3} and state.phase == "congress_invite"


def test_reduce_tension_effect_lowers_the_target_box_unless_another_is_named():
    """Reduce Tension: the player names the die (`box`); unnamed, the Target Nation's box."""
    state = _game(3, hands={"RU": ["Sergei Witte", "Bark", "Basili"]})
    _to_turn(state, "RU")
    state.tension["RU"] = {"AH": 2, "DE": 3}
    act(state, "RU", Play(card=cid("Sergei Witte")))
    assert state.tension["RU"] == {"AH": 1, "DE": 3}
    state = _game(3, hands={"RU": ["Sergei Witte", "Bark", "Basili"]})
    _to_turn(state, "RU")
    state.tension["RU"] = {"AH": 2, "DE": 3}
    act(state, "RU", Play(card=cid("Sergei Witte"), box="DE"))
    assert state.tension["RU"] == {"AH": 2, "DE": 2}


def test_assassination_investigations_at_3_logs_no_move():
    """Ruling 13: the Investigations marker stays at 3; the log says it moves only when it does."""
    state = _game(hands={"AH": ["Assassination Investigations", "Hoyos", "Bilinski"]})
    ah = _to_turn(state, "AH")
    ah.counters["investigations"] = 3
    events = act(state, "AH", Play(card=cid("Assassination Investigations")))
    assert ah.tableau[-1].dp == 3 and ah.counters["investigations"] == 3
    assert not [e for e in events if e.kind == "counter"]


def test_content_notes_match_the_data():
    """Board notes name each track's real range; General Mobilization's notes name its real
    conditions (Belligerence 3 with a Tension die at 4); no card repeats the Blank Cheque."""
    content = ct.load_content()
    for nation in content.nations.values():
        for counter in nation.counters.values():
            assert f"track {counter.start}-{counter.max}" in nation.board_text, nation.id
        mobilization = next(c for c in content.decks[nation.id].cards if c.id in content.mobilization)
        aside = next(s for s in nation.set_aside if s.card == mobilization.id)
        assert [(c.kind, getattr(c, "level", None)) for c in aside.enters_when] == [
            ("belligerence_at_least", 3),
            ("tension_at_least", 4),
        ]
        for note in (mobilization.provenance.note, nation.provenance.note):
            assert "Belligerence 4" not in note and "reaches 4" not in note
    names = [c.name for c in content.cards.values()]
    assert "Potsdam Assurances" not in names  # the same event as The Kaiser's Blank Cheque


def test_hartwig_makes_the_target_nation_discard_a_card_of_its_choice():
    state = _game(hands={"RU": ["Hartwig", "Bark", "Basili"], "AH": ["Hoyos", "Tisza", "Bilinski"]})
    _to_turn(state, "RU")
    act(state, "RU", Play(card=cid("Hartwig")))
    assert state.pending[0].kind == "discard" and state.pending[0].nation == "AH"
    assert GAME.prompts(state)[0].seat == state.players["AH"].seat
    act(state, "AH", {"kind": "discard", "cards": [cid("Tisza")]})
    assert cid("Tisza") in state.players["AH"].returned  # Tisza's icon: Return Discards


def test_caution_draws_or_takes_an_assertion_back():
    """Caution: "take the top card from your Draw Pile into your Hand. / Take an Assertion card
    already on your Tableau into your Hand (and reduce your DP total accordingly)"."""
    state = _game(hands={"AH": ["Mensdorff", "Hoyos", "Tisza"]}, draws={"AH": ["Conrad", "Bilinski"]})
    ah = _to_turn(state, "AH")
    ah.tableau.append(Played(card=cid("Potiorek"), dp=8, belligerence=True))
    ah.score += 8
    act(state, "AH", Play(card=cid("Mensdorff"), alternative=True))
    assert cid("Potiorek") in ah.hand and ah.score == 4  # Conrad's 4 remain
    assert ah.draw[0] == cid("Bilinski")


def test_back_channel_places_then_moves_the_second_marker():
    state = _game(hands={"AH": ["Forgách", "Szapáry", "Hoyos"]})
    ah = _to_turn(state, "AH")
    start = ah.score
    act(state, "AH", Play(card=cid("Forgách")))
    assert (ah.score, ah.second) == (start + 3, start + 4)
    act(state, "RU", Pass())
    act(state, "AH", Play(card=cid("Szapáry")))
    assert (ah.score, ah.second) == (start + 3, start + 5)


def test_recycled_discards_form_a_draw_pile_only_when_a_card_is_needed():
    state = _game(hands={"AH": ["Hoyos", "Tisza", "Bilinski"]})
    ah = _to_turn(state, "AH")
    ah.recycled, ah.draw = ah.recycled + ah.draw, []
    act(state, "AH", Reorganize(discard=cid("Hoyos")))  # looks at an empty Draw Pile: no reform
    assert ah.draw == [] and cid("Hoyos") in ah.recycled
    act(state, "RU", Pass())
    act(state, "AH", Draw())
    assert ah.draw and ah.recycled == []


def test_a_card_entering_during_a_week_never_forms_a_draw_pile_alone():
    """ "If a card is added to the Draw Pile during a Week [...] that card cannot be in a Draw
    Pile on its own, and, at that point, a Draw Pile is reformed from Recycled Discards."""
    state = _game()
    ah = state.players["AH"]
    ultimatum = cid("Ultimatum")
    ah.recycled, ah.draw = [], []
    apply_effect(state, ah, ct.BringIn(card=ultimatum), Resolve(), "", Stacked(), Log())
    assert ultimatum in ah.set_aside and ah.draw == []  # nothing to join: it waits
    ah.recycled = [cid("Hoyos"), cid("Bilinski")]
    apply_effect(state, ah, ct.BringIn(card=ultimatum), Resolve(), "", Stacked(), Log())
    assert sorted(ah.draw) == sorted([ultimatum, cid("Hoyos"), cid("Bilinski")]) and ah.recycled == []


def test_more_than_32_dp_loses_and_ends_the_game_with_the_week():
    """Sudden Game End: "If your Highest (or only) Score marker is off the board because it is
    in excess of 32 DP, you lose [...] The game ends at the end of the current Week."""
    state = _game(hands={"AH": ["Hoyos", "Tisza", "Bilinski"]})
    ah = _to_turn(state, "AH")
    ah.score = 29
    act(state, "AH", Play(card=cid("Hoyos")))
    assert ah.lost and ah.prestige == 0 and "AH" not in state.current
    while state.phase == "play":
        act(
            state,
            state.pending[0].nation if state.pending else state.actor,
            Resolve() if state.pending else Pass(),
        )
    if state.phase == "congress_invite":
        act(state, "RU", {"kind": "congress", "yes": False})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [state.players["RU"].seat]


def test_general_mobilization_loses_at_once_but_the_week_is_finished():
    """ "If you play a General Mobilization card [...] you take no further turns [...] your
    Prestige score is set to 0. Everyone else continues playing until the current Week ends."""
    state = _game(hands={"AH": ["Hoyos", "Tisza", "Bilinski"]})
    ah = _to_turn(state, "AH")
    gm = cid("General Mobilization (Austria-Hungary)")
    ah.set_aside.remove(gm)
    ah.hand.append(gm)
    ah.prestige = 7
    act(state, "AH", Play(card=gm))
    assert ah.lost == "General Mobilization" and ah.prestige == 0
    assert state.actor == "RU" and GAME.outcome(state) is None
    act(state, "RU", Pass())
    assert state.phase == "over" and GAME.figures(state)["war"] == 1.0


def test_six_tension_in_your_city_box_loses_at_the_game_end_check():
    state = _game(hands={"AH": ["Hoyos"], "RU": ["Bark"]})
    _to_turn(state, "AH")
    state.tension["RU"]["AH"] = 5
    state.players["RU"].score = 25  # +3 Tension
    state.players["RU"].tableau = [Played(card=cid("Krivoshein"), dp=25)]
    act(state, "AH", Pass())
    act(state, "RU", Pass())
    act(state, state.players[state.congress_inviter].nation, {"kind": "congress", "yes": False})
    ru = state.players["RU"]
    assert state.phase == "over" and ru.lost and ru.prestige == 0


def test_a_newly_added_card_cannot_form_a_draw_pile_on_its_own_at_the_refresh_step():
    """Draw Pile Exhausted, Note: "A newly added card cannot form a Draw Pile on its own."
    General Mobilization entering an empty Draw Pile at the Refresh Step is shuffled in with
    the Recycled Discards, so the forced First Draw does not have to turn it over."""
    state = _game(1, hands={"AH": ["Hoyos", "Burian", "Bilinski"]})
    ah = _to_turn(state, "AH")
    ah.recycled, ah.draw = ah.recycled + ah.draw, []
    ah.belligerence, state.tension["AH"]["RU"] = 3, 4  # General Mobilization's conditions
    ah.score = 18
    act(state, "AH", Pass())
    mobilization = cid("General Mobilization (Austria-Hungary)")
    assert mobilization in ah.draw and len(ah.draw) > 1 and ah.recycled == []
    act(state, "AH", Refresh())
    assert state.week == 2 and ah.lost is None
    assert mobilization in ah.draw and ah.tableau[0].card != mobilization


def test_back_channel_card_or_take_an_assertion_card_back_into_your_hand():
    """DIPLOMATIC BACK-CHANNEL CARDS: "Apply the current card's DP value, then place your second
    Score marker +1 DP ahead of it." / "Take an Assertion card already in your Tableau into your
    Hand." Read as the Caution type is laid out: the second paragraph is the "or" effect."""
    state = _game(hands={"AH": ["Forgách", "Szőgyény"]})
    ah = _to_turn(state, "AH")
    ah.tableau = [Played(card=cid("Potiorek"), dp=4)]
    ah.score, ah.second = 4, None
    act(state, "AH", Play(card=cid("Forgách"), alternative=True))  # 3 DP, Potiorek back (-4)
    assert cid("Potiorek") in ah.hand and (ah.score, ah.second) == (3, None)
    assert [t.card for t in ah.tableau] == [cid("Forgách")]
    _to_turn(state, "AH")
    with pytest.raises(IllegalAction, match="takes an Assertion card back, and you have none"):
        GAME.play(state, ah.seat, Play(card=cid("Szőgyény"), alternative=True), Stacked())
    act(state, "AH", Play(card=cid("Szőgyény")))  # the first effect: the second marker
    dp = ct.load_content().cards[cid("Szőgyény")].dp  # reconstructed: read, not written here
    assert (ah.score, ah.second) == (3 + dp, 3 + dp + 1)


def test_refresh_keeps_the_hand_within_3_and_6():
    """ "A player may not have more than 6 cards in Hand at the end of this step" and is dealt
    cards "to ensure they have at least 3 cards in Hand"."""
    state = _game()
    _to_turn(state, "AH")
    ah, ru = state.players["AH"], state.players["RU"]
    extra = [c for c in ah.draw if c != cid("Tisza")][:8]
    for c in extra:
        ah.draw.remove(c)
    ah.hand = [c for c in ah.hand if c != cid("Tisza")] + extra
    ru.hand = []
    act(state, "AH", Pass())
    act(state, "RU", Pass())
    act(state, state.congress_inviter, {"kind": "congress", "yes": False})
    assert state.phase == "refresh"
    with pytest.raises(IllegalAction, match="at most 6"):
        GAME.play(state, ah.seat, Refresh(), Stacked())
    act(state, "AH", Refresh(discards=ah.hand[: len(ah.hand) - 6]))
    assert len(ah.hand) == 6 and len(ru.hand) == 3 and state.week == 2


def test_a_player_whose_hand_is_only_return_cards_is_not_asked_for_refresh_discards():
    """6. Refresh Step: Return cards in Hand go back into the Draw Pile first; a player left
    with no card in Hand has no discard to choose, so is not asked (docs/rulings.md, Crisis 28)
    and simply draws up to 3."""
    state = _game()
    _to_turn(state, "AH")
    ah, ru = state.players["AH"], state.players["RU"]
    tisza = cid("Tisza")
    for p in (ah, ru):
        for pile in (p.hand, p.draw, p.recycled):
            if tisza in pile:
                pile.remove(tisza)
    ru.hand = []
    ah.hand = [tisza]  # a Return card: it goes back at the Refresh Step
    while state.phase == "play":
        act(state, state.actor, Pass())
    act(state, state.congress_inviter, {"kind": "congress", "yes": False})
    assert state.week == 2 and state.phase != "refresh"  # nobody was asked
    assert len(ah.hand) == 3 and len(ru.hand) == 3


def test_congress_refused_changes_nothing():
    state = _game(3)
    for nid in state.players:
        state.tension[nid] = {b: 3 for b in state.tension[nid]}
    while state.phase in ("first_draw", "play", "score"):
        pending = state.pending[0] if state.pending else None
        answer = {None: Pass(), "reduce": Reduce()}.get(pending and pending.kind, Resolve())
        act(state, pending.nation if pending else state.actor, answer)
    inviter = state.congress_inviter
    assert inviter == state.current[-1]
    before = {k: dict(v) for k, v in state.tension.items()}
    act(state, inviter, {"kind": "congress", "yes": True})
    first = next(n for n in state.current if n != inviter)
    act(state, first, {"kind": "congress", "yes": False})
    assert state.tension == before
    assert state.players[inviter].prestige == 0


def test_seize_needs_as_much_dp_as_the_top_of_the_initiative_track():
    state = _game(hands={"RU": ["Bark", "Basili", "Sergei Witte"]})
    ru = _to_turn(state, "RU")
    ah = state.players["AH"]
    ah.score, ru.score = 10, 9
    with pytest.raises(IllegalAction, match="at least 10 DP"):
        GAME.play(state, ru.seat, Seize(discards=list(ru.hand)), Stacked())
    ru.score = 10
    act(state, "RU", Seize(discards=list(ru.hand)))
    assert state.current == ["RU", "AH"]  # the Round ended: Will Move Top went to the top


def test_will_move_piles_keep_their_order():
    """Beginning a New Round: the bottom pile's lowest marker goes lowest, and the top pile's
    top marker goes highest."""
    state = _game(
        5, hands={"AH": ["Hoyos"], "RU": ["Bark"], "DE": ["Jagow"], "FR": ["Viviani"], "GB": ["Haldane"]}
    )
    _to_turn(state, "AH")
    act(state, "AH", Deliberate(discard=cid("Hoyos")))
    act(state, "AH", Resolve(card=state.pending[0].cards[0]))
    act(state, "RU", Deliberate(discard=cid("Bark")))
    act(state, "RU", Resolve(card=state.pending[0].cards[0]))
    for nid in ("DE", "FR", "GB"):
        state.players[nid].score = 30 if nid != "DE" else 0
    state.players["DE"].score = 0
    act(state, "DE", Pass())
    gb_first = state.players["FR"]
    gb_first.hand = [cid("Viviani"), cid("Paul Cambon"), cid("Abel Ferry")]
    act(state, "FR", Seize(discards=list(gb_first.hand)))
    state.players["GB"].hand = [cid("Haldane"), cid("Burns"), cid("George V")]
    act(state, "GB", Seize(discards=list(state.players["GB"].hand)))
    assert state.current == ["GB", "FR", "DE", "AH", "RU"]


def test_solitaire_costs_and_no_seize():
    state = _game(1, hands={"AH": ["Hoyos", "Tisza", "Bilinski"]})
    ah = _to_turn(state, "AH")
    with pytest.raises(IllegalAction, match="costs 1 Prestige"):
        GAME.play(state, ah.seat, Reorganize(discard=cid("Hoyos")), Stacked())
    ah.prestige = 3
    act(state, "AH", Reorganize(discard=cid("Hoyos")))
    act(state, "AH", {"kind": "reorder", "order": state.pending[0].cards})
    assert ah.prestige == 2
    with pytest.raises(IllegalAction, match="not available"):
        GAME.play(state, ah.seat, Seize(discards=[cid("Tisza"), cid("Bilinski"), cid("Hoyos")]), Stacked())


def test_assertion_cards_double_prestige_in_solitaire_too():
    """ASSERTION CARDS: "if you have 4 or more Assertion cards on your Tableau your Prestige
    score is doubled"; the Solitaire Game removes only the Initiative and Belligerence awards."""
    state = _game(1)
    ah = _to_turn(state, "AH")
    four = ["The Kaiser's Blank Cheque", "Potiorek", "Giesl", "Krobatin"]
    ah.tableau = [Played(card=cid(n), dp=5) for n in four]
    ah.score, ah.second = 20, None  # 1 for 14+ DP, 2 for 20 (2 above 18): 3, doubled
    act(state, "AH", Pass())
    assert state.last_week["AH"]["prestige"] == 6 and ah.prestige == 6
    three = _game(1)
    ah = _to_turn(three, "AH")
    ah.tableau = [Played(card=cid(n), dp=5) for n in four[:3]] + [Played(card=cid("Hoyos"), dp=5)]
    ah.score = 20
    act(three, "AH", Pass())
    assert three.last_week["AH"]["prestige"] == 3


@pytest.mark.parametrize(
    "prestige, level",
    [
        (40, "Emphatic Diplomatic Victory"),
        (35, "Clear Diplomatic Victory"),
        (34, "Marginal Diplomatic Victory"),
        (25, "Diplomatic Tie"),
        (24, "Diplomatic Loss"),
    ],
)
def test_solitaire_victory_levels(prestige, level):
    state = _game(1)
    state.phase = "over"
    state.players["AH"].prestige = prestige
    assert GAME.outcome(state).standings[0].detail.split(":")[0] == level


def test_every_deck_has_24_cards_a_general_mobilization_card_and_provenance():
    content = ct.load_content()
    for nid, deck in content.decks.items():
        assert len(deck.cards) == 24
        assert any(any(e.kind == "mobilize" for e in c.effects) for c in deck.cards), nid
        for c in deck.cards:
            assert c.provenance.source and (c.provenance.kind != "reconstructed" or c.provenance.note), c.id
        for aside in content.nations[nid].set_aside:
            assert aside.card in {c.id for c in deck.cards}


def test_the_score_track_reproduces_the_rulebook():
    """18 and 19: +1 (solitaire example); 24: +2; 25: +3 (Scoring Tension; 2-player example)."""
    track = ct.load_content().tension_at
    assert len(track) == 33 and (track[18], track[19], track[24], track[25]) == (1, 1, 2, 3)
    assert track == sorted(track) and track[13] == 0


def test_public_view_and_description_show_the_status():
    state = _game(3)
    view = GAME.view(state, None)
    assert view.you is None and all("hand" not in as_plain(p) for p in view.players.values())
    text = GAME.describe(view)
    assert "Week 1" in text and "Berchtold" in text and "Initiative" in text and "Prestige" in text
    mine = GAME.view(state, state.players["AH"].seat)
    assert mine.you is not None and len(mine.you.hand) == len(state.players["AH"].hand)
    assert "Your Hand" in GAME.describe(mine)


def test_a_card_that_takes_you_beyond_32_dp_gives_no_prestige():
    state = _game(hands={"AH": ["Hoyos"]})
    ah = _to_turn(state, "AH")
    ah.set_aside.remove(cid("Ultimatum"))
    ah.hand.append(cid("Ultimatum"))
    ah.score = 26
    act(state, "AH", Play(card=cid("Ultimatum")))  # 8 DP with its forced Belligerence: 34
    assert ah.lost and ah.prestige == 0


def test_a_refused_choice_changes_nothing_even_in_place():
    """IllegalAction leaves the state as it was (the core also works on a copy)."""
    state = _game(hands={"AH": ["Hoyos", "Tisza", "Bilinski"]})
    ah = _to_turn(state, "AH")
    ah.belligerence = 5
    state.tension["AH"]["RU"] = 5
    before = state.model_dump_json()
    with pytest.raises(IllegalAction, match="no Belligerence"):
        GAME.play(state, ah.seat, Play(card=cid("Hoyos"), belligerence=True), Stacked())
    assert state.model_dump_json() == before
    act(state, "AH", Deliberate(discard=cid("Tisza")))
    before = state.model_dump_json()
    with pytest.raises(IllegalAction, match="no Belligerence"):
        GAME.play(state, ah.seat, Resolve(card=state.pending[0].cards[0], belligerence=True), Stacked())
    assert state.model_dump_json() == before


def test_others_never_see_a_hand_or_the_cards_being_looked_at():
    state = _game(hands={"AH": ["Hoyos", "Tisza", "Bilinski"]})
    _to_turn(state, "AH")
    act(state, "AH", Deliberate(discard=cid("Tisza")))
    public, theirs = GAME.view(state, None), GAME.view(state, state.players["RU"].seat)
    mine = GAME.view(state, state.players["AH"].seat)
    assert mine.you and mine.you.looking_at and len(mine.you.looking_at) == 3
    assert theirs.you and theirs.you.looking_at is None
    for view in (public, theirs):
        text = json.dumps(GAME.view_dict(view))
        assert all(c not in text for c in state.pending[0].cards + state.players["AH"].hand)


def test_opening_events_log_the_first_draw_cards_already_on_the_tableaux():
    from engine import games

    game = games.get("crisis1914")
    state = game.setup(["a", "b", "c"], game.Options(), 5)
    events = game.opening_events(state)
    on_tableaux = [t for p in state.players.values() for t in p.tableau]
    assert on_tableaux, "setup runs the First Draw until its first decision"
    assert len(events) == len([p for p in state.players.values() if p.tableau])
    assert all(e.audience is None and e.text.startswith("First Draw: ") for e in events)
    assert game.round_label(state) == "Week 1"


def test_a_button_says_what_the_alternative_effect_does():
    """A Play button with the card's "or" effect names it in words, as the card does."""
    state = _game(hands={"AH": ["Forgách", "Szőgyény"]})
    _to_turn(state, "AH")
    seat = state.players["AH"].seat
    label = GAME.action_label(state, seat, Play(card=cid("Forgách"), alternative=True))
    assert label == "Play Forgách (3 DP) with the alternative effect (reclaim an Assertion)"
    both = GAME.action_label(state, seat, Play(card=cid("Forgách"), alternative=True, belligerence=True))
    assert both.endswith(" with Belligerence and the alternative effect (reclaim an Assertion)")
