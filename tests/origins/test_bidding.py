"""Phase 3: the attack order and the bidding that rearranges it."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, NotYourTurn
from engine.origins import GAME

from .helpers import new_game


def _bid(state, seat, payer, card, position, amount):
    return GAME.apply(
        state, seat, {"kind": "bid", "payer": payer, "card": card, "position": position, "amount": amount}
    )


def _next_seat(state, seat):
    return state.seats[(state.seats.index(seat) + 1) % len(state.seats)]


def test_the_cards_are_shuffled_one_per_held_country():
    orders = {tuple(new_game(5, seed).order) for seed in range(10)}
    assert len(orders) > 3
    assert all(sorted(o) == sorted(new_game(5).holders) for o in orders)


def test_the_owner_of_the_bottom_card_bids_first():
    """'Starting from the player who owns the country from the most bottom card.'"""
    for seed in range(5):
        state = new_game(5, seed)
        assert state.bidder == state.holders[state.order[-1]]
        assert [p.seat for p in GAME.prompts(state)] == [state.bidder]


def test_a_bid_moves_one_card_any_number_of_places_and_goes_round_the_table():
    state = new_game(5, 3)
    seat = state.bidder
    country = state.countries_of(seat)[0]
    card = state.order[-1]
    state, events = _bid(state, seat, country, card, 1, 2)
    assert state.order[0] == card
    assert state.high_bid == 2
    assert state.bidder == _next_seat(state, seat)
    assert "bids 2 PF" in events[0].text and events[0].public


def test_a_bid_must_outbid_the_last_and_must_move_the_card():
    state = new_game(5, 3)
    seat = state.bidder
    country = state.countries_of(seat)[0]
    state, _ = _bid(state, seat, country, state.order[-1], 1, 2)
    other = state.bidder
    mine = state.countries_of(other)[0]
    with pytest.raises(IllegalAction, match="at least 3"):
        _bid(state, other, mine, state.order[-1], 1, 2)
    with pytest.raises(IllegalAction, match="already at position"):
        _bid(state, other, mine, state.order[0], 1, 3)
    with pytest.raises(NotYourTurn):
        _bid(state, seat, country, state.order[-1], 2, 5)


def test_bids_are_paid_from_income_then_the_own_embassy_and_never_from_other_embassies():
    state = new_game(5, 3)
    seat = state.bidder
    country = state.countries_of(seat)[0]
    income = state.unplaced[country]
    state.pfs = {country: {country: 4}, "SER": {country: 9}}
    state.book(country, income=13)
    with pytest.raises(IllegalAction, match=f"at most {income + 4} PFs"):
        _bid(state, seat, country, state.order[-1], 1, income + 5)
    state, _ = _bid(state, seat, country, state.order[-1], 1, income + 3)
    assert state.unplaced[country] == 0
    assert state.at(country, country) == 1
    assert state.at("SER", country) == 9
    assert state.ledger[country].bids == income + 3


def test_every_bid_is_lost_even_when_outbid():
    state = new_game(5, 3)
    first = state.bidder
    a = state.countries_of(first)[0]
    state, _ = _bid(state, first, a, a, 1 if state.order.index(a) else 2, 1)
    second = state.bidder
    b = state.countries_of(second)[0]
    state, _ = _bid(state, second, b, a, 5, 2)
    assert state.ledger[a].bids == 1 and state.ledger[b].bids == 2
    assert GAME.invariants(state) == []


def test_a_player_who_passed_may_bid_again_and_bidding_ends_when_all_pass_in_a_row():
    state = new_game(3, 4)
    first = state.bidder
    state, _ = GAME.apply(state, first, {"kind": "pass"})
    second = state.bidder
    country = state.countries_of(second)[0]
    state, _ = _bid(state, second, country, country, 1 if state.order.index(country) else 2, 1)
    state, _ = GAME.apply(state, state.bidder, {"kind": "pass"})  # the third player
    assert state.bidder == first  # the first player passed earlier and may come back in
    mine = state.countries_of(first)[0]
    state, _ = _bid(state, first, mine, state.order[-1], 1, 2)
    for _ in range(2):  # two passes in a row are not yet all three players
        state, _ = GAME.apply(state, state.bidder, {"kind": "pass"})
        assert state.phase == "bidding"
    assert state.bidder == first  # the last bidder may outbid itself
    state, events = GAME.apply(state, first, {"kind": "pass"})
    assert state.phase == "placement" and state.bidder is None
    assert events[-1].kind == "order"


def test_a_player_who_cannot_outbid_passes_by_necessity():
    state = new_game(2, 4)
    first = state.bidder
    other = [s for s in state.seats if s != first][0]
    for c in state.countries_of(other):  # the other player spent its income already
        state.book(c, bids=state.unplaced[c])
        state.unplaced[c] = 0
    country = state.countries_of(first)[0]
    state, _ = _bid(state, first, country, state.order[-1], 1, 1)
    assert state.bidder == first  # the other player was skipped


def test_a_player_bids_with_one_of_its_own_countries_only():
    state = new_game(2, 4)
    seat = state.bidder
    theirs = [c for c in state.holders if state.holders[c] != seat][0]
    with pytest.raises(IllegalAction, match="do not hold"):
        _bid(state, seat, theirs, state.order[-1], 1, 1)


def test_pfs_of_two_countries_are_never_combined_for_a_bid():
    """Phase 1: PFs cannot be transferred between countries, even of the same player."""
    state = new_game(2, 4)
    seat = state.bidder
    first, second = state.countries_of(seat)[:2]
    most = state.unplaced[first]
    assert most + 1 <= most + state.unplaced[second]
    with pytest.raises(IllegalAction, match=f"at most {most} PFs"):
        _bid(state, seat, first, state.order[-1], 1, most + 1)


def test_one_auction_every_bidder_pays_what_it_bid_and_only_the_highest_bid_moves_its_card():
    """Table option one_auction, a house reading of §6 Phase 3: a bid stands as the offer to
    beat and does not move its card at once; the highest bidder is not asked to outbid
    itself; when every other player has passed in a row the highest bid alone moves its
    card. 'All the bidding PFs are lost regardless of the final order established': every
    bid is paid when it is made, the outbid ones too. The default reading (each bid pays and
    moves its card at once) is the other tests'."""
    state = new_game(3, 2, one_auction=True)
    start = list(state.order)
    first = state.bidder
    payer = state.countries_of(first)[0]
    card = start[-1]
    funds_before = dict(state.unplaced)
    state, events = _bid(state, first, payer, card, 1, 1)
    assert state.order == start  # the bid does not move its card yet
    assert state.unplaced[payer] == funds_before[payer] - 1 and state.ledger[payer].bids == 1  # but is paid
    assert "paid" in events[0].text
    second = state.bidder
    assert second != first
    payer2 = state.countries_of(second)[0]
    card2 = start[0]
    state, _ = _bid(state, second, payer2, card2, len(start), 2)  # outbids: the first bid's card stays
    assert state.order == start
    assert state.ledger[payer].bids == 1 and state.ledger[payer2].bids == 2
    assert GAME.invariants(state) == []
    while state.phase == "bidding":
        assert state.bidder != second  # the high bidder is never asked to outbid itself
        state, events = GAME.apply(state, state.bidder, {"kind": "pass"})
    assert state.order == [*start[1:], card2]  # only the highest bid moved a card
    assert any(e.text.startswith("The auction is won") for e in events)
    # each bidder lost exactly what it bid, the outbid first bidder too; the winner paid once
    assert state.unplaced[payer] == funds_before[payer] - 1 and state.ledger[payer].bids == 1
    assert state.unplaced[payer2] == funds_before[payer2] - 2 and state.ledger[payer2].bids == 2
    assert GAME.invariants(state) == []


def test_one_auction_a_player_who_bids_twice_pays_both_bids():
    """Every bid is lost (§6 Phase 3): raising one's own bid after being outbid costs the
    new bid on top of the old."""
    state = new_game(2, 4, one_auction=True)
    first = state.bidder
    second = next(s for s in state.seats if s != first)
    payer = state.countries_of(first)[0]
    other = state.countries_of(second)[0]
    before = state.unplaced[payer]
    state, _ = _bid(state, first, payer, state.order[-1], 1, 1)
    state, _ = _bid(state, second, other, state.order[0], 2, 2)
    state, _ = _bid(state, first, payer, state.order[-1], 1, 3)
    assert state.ledger[payer].bids == 1 + 3 and state.unplaced[payer] == before - 4
    assert GAME.invariants(state) == []
    start = list(state.order)
    state, _ = GAME.apply(state, second, {"kind": "pass"})
    assert state.phase == "placement" and state.order == [start[-1], *start[:-1]]


def test_one_auction_is_labelled_a_house_reading():
    field = GAME.Options.model_fields["one_auction"]
    assert field.description.startswith("House reading, not in the rulebook")
    assert "paid" in field.description
