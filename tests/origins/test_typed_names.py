"""Countries and embassies as players type them into `/origins` commands (the console's
`as alice /origins place embassy:Turkiye amount:3` builds the same way): no accents or
hyphens, any case, a prefix or a word of the name, the common names (England, Austria,
Ottoman Empire, Prussia); and a name that could be two countries is refused naming both."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, matches_seat
from engine.origins import GAME
from engine.origins.actions import Attack, Bid, Place
from engine.origins.commands import nation_alternatives

from .helpers import finish_bidding, new_game, position, to_attacks

COMMANDS = {c.name: c for c in GAME.commands}


@pytest.mark.parametrize(
    ("country", "embassy", "code"),
    [
        ("England", "Ottoman Empire", "TUR"),
        ("Great Britain", "Türkiye", "TUR"),
        ("united kingdom", "turk", "TUR"),
        ("UK", "Austria", "AH"),
        ("Britain", "Hungary", "AH"),  # a word of Austria-Hungary
        ("brit", "AustriaHungary", "AH"),
        ("England", "Far-East", "FE"),
        ("England", "far east", "FE"),
        ("England", "East", "FE"),
    ],
)
def test_place_takes_countries_and_embassies_by_their_common_names(country, embassy, code):
    state = finish_bidding(new_game(2, 3))
    seat = state.holders["UK"]  # who also holds France and Russia
    action = COMMANDS["place"].build(state, seat, {"embassy": embassy, "amount": 3, "country": country})
    assert action == Place(country="UK", embassy=code, amount=3)
    state, _ = GAME.apply(state, seat, action)  # the rules take it
    assert state.drafts["UK"].place == {code: 3}


def test_a_sheet_line_takes_the_common_names():
    state = finish_bidding(new_game(2, 3))
    position(state, {"AH": {"UK": 2}})
    seat = state.holders["UK"]
    action = COMMANDS["sheet"].build(
        state, seat, {"line": "Ottoman Empire 5, Rumania 3, far-east 2, -Austria 1", "country": "England"}
    )
    state, _ = GAME.apply(state, seat, action)
    assert state.drafts["UK"].place == {"TUR": 5, "ROM": 3, "FE": 2}
    assert state.drafts["UK"].remove == {"AH": 1}


def test_a_bid_names_the_card_and_the_payer_by_their_common_names():
    state = new_game(2, 3)
    seat = state.bidder
    assert state.countries_of(seat) == ["GER", "AH", "TUR"]
    action = COMMANDS["bid"].build(
        state, seat, {"card": "England", "position": "1", "amount": "1", "payer": "Prussia"}
    )
    assert action == Bid(payer="GER", card="UK", position=1, amount=1)
    state, _ = GAME.apply(state, seat, action)
    assert state.order[0] == "UK" and state.high_bid == 1


def test_an_attack_names_embassy_and_target_by_their_common_names():
    state = new_game(5, 1)
    position(state, {"SER": {"GER": 6, "RUS": 3, "AH": 2}})
    state = to_attacks(state, "GER")
    seat = state.holders["GER"]
    single = COMMANDS["attack"].build(state, seat, {"embassy": "Serb", "target": "Austria"})
    assert single == Attack(embassy="SER", split={"AH": 6})
    split = COMMANDS["attack"].build(
        state, seat, {"embassy": "serbia", "split": "Russian Empire 4, Austria 2"}
    )
    assert split == Attack(embassy="SER", split={"RUS": 4, "AH": 2})
    GAME.validate(state, seat, split)


def test_a_name_that_could_be_two_countries_is_refused_naming_both():
    state = finish_bidding(new_game(2, 3))
    seat = state.holders["UK"]
    with pytest.raises(IllegalAction) as refused:
        COMMANDS["place"].build(state, seat, {"embassy": "A", "amount": 3, "country": "UK"})
    assert str(refused.value) == "`A` could be Austria-Hungary or Africa: type more of the name."
    with pytest.raises(IllegalAction, match="No embassy called 'Narnia'. Embassies: UK, FRA"):
        COMMANDS["place"].build(state, seat, {"embassy": "Narnia", "amount": 3, "country": "UK"})


def test_a_join_preference_names_a_country_by_its_common_name():
    state = new_game(5, 3)
    labels = {s: GAME.seat_label(state, s) for s in state.seats}
    alternatives = nation_alternatives()

    def named(typed: str) -> list[str]:
        return [s for s, label in labels.items() if matches_seat(typed, s, label, alternatives)]

    assert named("England") == [state.holders["UK"]] and named("Britain") == [state.holders["UK"]]
    assert named("Austria") == [state.holders["AH"]] and named("Prussia") == [state.holders["GER"]]
    assert named("france") == [state.holders["FRA"]] and named("Narnia") == []
