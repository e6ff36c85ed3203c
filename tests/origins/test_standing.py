"""Origins' standing orders, answered before the decision comes (never a new rule)."""

from __future__ import annotations

import random

from engine.crisis1914 import GAME as CRISIS
from engine.origins import GAME, bots, content, standing
from engine.origins.actions import Attack, Bid, Done, Pass, Submit
from engine.origins.state import Sheet

from .helpers import finish_bidding, new_game, position, to_attacks


def test_pass_is_for_this_turns_bidding_then_the_next_turns():
    state = new_game(5, 1)
    assert state.phase == "bidding"
    assert GAME.standing_scope(state, "s1", "pass") == f"turn {state.turn}"
    assert GAME.standing_action(state, state.bidder, "pass") == Pass()
    other = next(s for s in state.seats if s != state.bidder)
    assert GAME.standing_action(state, other, "pass") is None  # not their decision yet
    state.phase = "placement"
    assert GAME.standing_scope(state, "s1", "pass") == f"turn {state.turn + 1}"


def test_no_more_attacks_answers_the_attack_prompt_with_done():
    state = to_attacks(new_game(5, 1), "GER", ["GER", "UK", "FRA", "RUS", "AH"])
    seat = state.holders["GER"]
    assert GAME.standing_action(state, seat, "no_attacks") == Done()
    assert GAME.standing_action(state, state.holders["UK"], "no_attacks") is None
    assert GAME.standing_scope(state, seat, "no_attacks") == f"turn {state.turn}"
    assert GAME.standing_scope(state, seat, "surrender") is None


def test_crisis_keep_my_hand_only_where_no_discard_is_owed():
    state = CRISIS.setup(["s1", "s2"], CRISIS.Options(), 3)
    assert CRISIS.standing_scope(state, "s1", "keep") == f"week {state.week}"
    assert CRISIS.standing_action(state, "s1", "keep") is None  # not the Refresh Step


def test_a_sheet_written_before_phase_4_is_the_draft_when_it_begins():
    state = new_game(5, 1)  # Phase 3: bidding
    seat = state.holders["GER"]
    order = "sheet SER 5, ROM 3"
    assert GAME.standing_scope(state, seat, order) == f"turn {state.turn}"
    assert GAME.standing_action(state, seat, order) is None  # not yet Phase 4
    assert GAME.standing_scope(state, seat, "sheet nonsense") is None
    assert GAME.standing_scope(state, seat, "sheet FRA: SER 5") is None  # not theirs
    state.phase = "placement"
    action = GAME.standing_action(state, seat, order)
    assert action.country == "GER" and action.text == "SER 5, ROM 3"
    state, events = GAME.apply(state, seat, action)
    assert state.drafts["GER"].place == {"SER": 5, "ROM": 3} and seat not in state.submitted
    assert "SER 5, ROM 3" in events[0].text and events[0].audience == seat


# -- conditional orders and answers given ahead ----------------------------------------------


def _bid_for(state, seat, card, position):
    return {
        "kind": "bid",
        "payer": state.countries_of(seat)[0],
        "card": card,
        "position": position,
        "amount": state.high_bid + 1,
    }


def test_pass_unless_a_card_moves_holds_while_that_card_keeps_its_place():
    state = new_game(5, 1)
    order = list(state.order)
    later = state.seats[(state.seats.index(state.bidder) + 2) % 5]  # two places round the table
    watched = order[-1]  # the bottom card
    name = f"pass_unless {content_name(watched)}"
    given = GAME.standing_scope(state, later, name)
    assert given is not None
    assert GAME.standing_action(state, later, name) is None  # not their turn yet
    # a bid that moves another card above the bottom one leaves the bottom card where it is
    bidder = state.bidder
    state, _ = GAME.apply(state, bidder, _bid_for(state, bidder, order[1], 1))
    assert state.order[-1] == watched
    assert GAME.standing_scope(state, later, name) == given  # the order stands
    # a bid that moves the watched card lapses it
    state, _ = GAME.apply(state, state.bidder, _bid_for(state, state.bidder, watched, 1))
    assert GAME.standing_scope(state, later, name) != given


def test_pass_unless_names_cards_of_the_attack_order_only():
    state = new_game(5, 1)
    seat = state.seats[0]
    assert GAME.standing_scope(state, seat, "pass_unless Narnia") is None
    assert GAME.standing_scope(state, seat, "pass_unless") is None
    state.phase = "placement"
    assert GAME.standing_scope(state, seat, f"pass_unless {state.order[0]}") is None  # bidding only


def test_in_the_one_auction_reading_an_offer_that_would_move_the_card_lapses_the_pass():
    state = new_game(5, 1, one_auction=True)
    watched = state.order[-1]
    later = state.seats[(state.seats.index(state.bidder) + 2) % 5]
    name = f"pass_unless {watched}"
    given = GAME.standing_scope(state, later, name)
    state, _ = GAME.apply(state, state.bidder, _bid_for(state, state.bidder, watched, 1))
    assert state.order[-1] == watched  # an offer moves nothing until it wins
    assert GAME.standing_scope(state, later, name) != given


def test_a_bid_given_ahead_is_made_when_the_turn_comes_unless_anyone_bids_first():
    state = new_game(5, 1)
    nxt = state.seats[(state.seats.index(state.bidder) + 1) % 5]
    card = state.countries_of(nxt)[0]
    name = f"bid 1 {content_name(card)} to 1"
    given = GAME.standing_scope(state, nxt, name)
    assert given is not None and GAME.standing_action(state, nxt, name) is None
    passed, _ = GAME.apply(state, state.bidder, {"kind": "pass"})
    assert passed.bidder == nxt and GAME.standing_scope(passed, nxt, name) == given
    assert GAME.standing_action(passed, nxt, name) == Bid(payer=card, card=card, position=1, amount=1)
    outbid, _ = GAME.apply(state, state.bidder, _bid_for(state, state.bidder, state.order[-1], 1))
    assert GAME.standing_scope(outbid, nxt, name) != given  # someone bid first: it lapses
    assert GAME.standing_scope(state, nxt, "bid 1 Narnia to 1") is None
    assert GAME.standing_scope(state, nxt, "bid lots") is None


def test_hand_in_hands_in_the_sheets_given_or_as_written_when_phase_4_begins():
    state = new_game(5, 1)
    seat = state.holders["GER"]
    assert GAME.standing_scope(state, seat, "hand_in SER 5, ROM 3") == f"turn {state.turn}"
    assert GAME.standing_scope(state, seat, "hand_in FRA: SER 5") is None  # not theirs
    assert GAME.standing_action(state, seat, "hand_in SER 5, ROM 3") is None  # not yet Phase 4
    state = finish_bidding(state)
    action = GAME.standing_action(state, seat, "hand_in SER 5, ROM 3")
    assert action == Submit(sheets={"GER": Sheet(place={"SER": 5, "ROM": 3})})
    state, _ = GAME.apply(state, seat, {"kind": "sheet", "country": "GER", "text": "FE 2"})
    assert GAME.standing_action(state, seat, "hand_in") == Submit(sheets={"GER": Sheet(place={"FE": 2})})
    state, _ = GAME.apply(state, seat, GAME.standing_action(state, seat, "hand_in"))
    assert seat in state.submitted and GAME.standing_action(state, seat, "hand_in") is None


def test_hand_in_with_two_countries_names_each():
    state = new_game(3, 1)
    seat = next(s for s in state.seats if len(state.countries_of(s)) == 2)
    a, b = state.countries_of(seat)
    assert GAME.standing_scope(state, seat, "hand_in SER 5") is None  # which country's?
    both = f"hand_in {a}: SER 5 / {b}: ROM 2"
    assert GAME.standing_scope(state, seat, both) is not None
    state = finish_bidding(state)
    assert GAME.standing_action(state, seat, both) == Submit(
        sheets={a: Sheet(place={"SER": 5}), b: Sheet(place={"ROM": 2})}
    )


def test_no_attacks_unless_lapses_only_when_the_board_changes_where_the_player_is():
    board = {
        "SER": {"GER": 6, "RUS": 4},
        "ROM": {"AH": 5, "UK": 3},
        "BUL": {"FRA": 4, "RUS": 2},
    }
    state = position(to_attacks(new_game(5, 1), "AH", ["AH", "UK", "FRA", "GER", "RUS"]), board)
    seat = state.holders["GER"]
    name = "no_attacks_unless"
    given = GAME.standing_scope(state, seat, name)
    assert given is not None and GAME.standing_action(state, seat, name) is None
    # Austria-Hungary attacks the United Kingdom in Romania, where Germany has no PFs
    ah = state.holders["AH"]
    state, _ = GAME.apply(state, ah, {"kind": "attack", "embassy": "ROM", "split": {"UK": 5}})
    assert GAME.standing_scope(state, seat, name) == given
    # France attacks Russia in Bulgaria: Germany is not there either; Russia is, so its order lapses
    rus = state.holders["RUS"]
    rus_given = GAME.standing_scope(state, rus, name)
    while state.order[state.attacker] != "FRA":
        state, _ = GAME.apply(state, state.holders[state.order[state.attacker]], {"kind": "done"})
    state, _ = GAME.apply(
        state, state.holders["FRA"], {"kind": "attack", "embassy": "BUL", "split": {"RUS": 4}}
    )
    assert GAME.standing_scope(state, seat, name) == given
    assert GAME.standing_scope(state, rus, name) != rus_given
    while state.order[state.attacker] != "GER":
        state, _ = GAME.apply(state, state.holders[state.order[state.attacker]], {"kind": "done"})
    assert GAME.standing_action(state, seat, name) == Done()
    state.phase = "diplomacy"
    assert GAME.standing_scope(state, seat, name) is None  # given in the attacks only


def content_name(code: str) -> str:
    return content.names()[code]


def _board_for_attacks():
    board = {
        "SER": {"GER": 6, "RUS": 4},
        "ROM": {"AH": 5, "UK": 3},
        "BUL": {"FRA": 4, "RUS": 2},
    }
    return position(to_attacks(new_game(5, 1), "AH", ["AH", "UK", "FRA", "GER", "RUS"]), board)


def test_an_attack_given_ahead_is_made_when_the_card_comes_unless_the_board_changes_there():
    state = _board_for_attacks()
    ger = state.holders["GER"]
    name = "attack Russia in Serbia"
    given = GAME.standing_scope(state, ger, name)
    assert given is not None and GAME.standing_action(state, ger, name) is None  # not its card yet
    assert GAME.standing_scope(state, ger, "attack Germany in Serbia") is None  # its own country
    assert GAME.standing_scope(state, ger, "attack Russia at Serbia") is None  # does not read
    while state.order[state.attacker] != "GER":
        state, _ = GAME.apply(state, state.holders[state.order[state.attacker]], {"kind": "done"})
    assert GAME.standing_scope(state, ger, name) == given
    assert GAME.standing_action(state, ger, name) == Attack(embassy="SER", split={"RUS": 6})
    state, _ = GAME.apply(state, ger, GAME.standing_action(state, ger, name))
    assert GAME.standing_action(state, ger, name) is None  # made once
    # no more attacks once one is made: one_attack ends the country's attacks
    assert GAME.standing_action(state, ger, "one_attack") in (Done(), None)


def test_one_attack_waits_for_the_first_attack_then_ends_the_countrys_attacks():
    state = _board_for_attacks()
    state.pfs["BUL"]["GER"] = 3  # Germany may attack in Serbia and in Bulgaria
    while state.order[state.attacker] != "GER":
        state, _ = GAME.apply(state, state.holders[state.order[state.attacker]], {"kind": "done"})
    ger = state.holders["GER"]
    assert GAME.standing_scope(state, ger, "one_attack") == f"turn {state.turn}"
    assert GAME.standing_action(state, ger, "one_attack") is None  # no attack made yet
    state, _ = GAME.apply(state, ger, {"kind": "attack", "embassy": "SER", "split": {"RUS": 6}})
    assert state.order[state.attacker] == "GER"  # it could attack again in Bulgaria
    assert GAME.standing_action(state, ger, "one_attack") == Done()


def test_the_model_player_leaves_an_attack_ahead_only_if_it_surely_stops_after_it():
    state = _board_for_attacks()
    ger, rus = state.holders["GER"], state.holders["RUS"]
    # Germany's 6 against Russia's 4 in Serbia, its only embassy shared with a rival: it attacks
    assert bots.attack(state, "GER", random.Random(0)) == Attack(embassy="SER", split={"RUS": 6})
    assert standing.ahead(state, ger, random.Random(0)) == ["attack RUS in SER", "one_attack"]
    assert GAME.standing_scope(state, ger, "attack RUS in SER") is not None  # codes read too
    # Russia would make no attack on this board
    assert standing.ahead(state, rus, random.Random(0)) == ["no_attacks_unless"]
    # with Bulgaria to attack in as well, whether it goes on depends on the dice: nothing ahead
    state.pfs["BUL"]["GER"] = 9
    state.pfs["BUL"]["FRA"] = 3
    after = standing.ahead(state, ger, random.Random(0))
    assert not any(o.startswith("attack") for o in after) or "one_attack" in after
