"""Names as players type them into `/crisis` commands (the console's `as alice /crisis play
card:Szogyeny` builds the same way): no accents, straight quotes, any case, a word of the
name, the nations' common names; and a name that could be two cards is refused naming both."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, matches_seat
from engine.crisis1914 import GAME
from engine.crisis1914.actions import Play, Resolve
from engine.crisis1914.commands import nation_alternatives

from .helpers import SEATS, act, cid, week_start

COMMANDS = {c.name: c for c in GAME.commands}

AH_HAND = ["Szőgyény", "Stürgkh", "Forgách", "The Kaiser's Blank Cheque", "Straussenburg"]


def _ready():
    state, _ = week_start(
        2,
        hands={"AH": AH_HAND, "RU": ["Sergei Witte", "Bark", "Hartwig"]},
        draws={"AH": ["Conrad", "Potiorek"], "RU": ["Maklakov", "Krivoshein"]},
    )
    while state.pending:
        act(state, state.pending[0].nation, Resolve())
    return state


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Szogyeny", "Szőgyény"),
        ("Sturgkh", "Stürgkh"),
        ("FORGACH", "Forgách"),
        ("Kaiser's Blank Cheque", "The Kaiser's Blank Cheque"),
        ("the kaiser’s blank cheque", "The Kaiser's Blank Cheque"),
        ("Kaisers Blank-Cheque", "The Kaiser's Blank Cheque"),
        ("Blank Cheque", "The Kaiser's Blank Cheque"),
        ("Szőgyény", "Szőgyény"),  # the printed name, as always
        (cid("Forgách"), "Forgách"),  # and the card's id
    ],
)
def test_play_takes_a_card_named_without_accents_or_curly_quotes(typed, name):
    state = _ready()
    action = COMMANDS["play"].build(state, "s1", {"card": typed})
    assert action == Play(card=cid(name))
    act(state, "AH", action)  # the rules accept it: the card leaves the Hand
    assert cid(name) not in state.players["AH"].hand


def test_a_word_of_a_statesmans_name_plays_his_card():
    state = _ready()
    act(state, "AH", COMMANDS["play"].build(state, "s1", {"card": "Szogyeny"}))
    action = COMMANDS["play"].build(state, "s2", {"card": "Witte"})
    assert action == Play(card=cid("Sergei Witte"))
    act(state, "RU", action)
    assert cid("Sergei Witte") not in state.players["RU"].hand


def test_a_prefix_two_cards_share_is_refused_naming_both():
    state = _ready()
    with pytest.raises(IllegalAction) as refused:
        COMMANDS["play"].build(state, "s1", {"card": "St"})
    assert str(refused.value) == "`St` could be Stürgkh or Straussenburg: type more of the name."
    assert COMMANDS["play"].build(state, "s1", {"card": "Stu"}) == Play(card=cid("Stürgkh"))


def test_a_card_not_in_the_hand_is_still_refused():
    state = _ready()
    with pytest.raises(IllegalAction, match="'Witte' is not a legal card from your Hand. Legal: Szőgyény"):
        COMMANDS["play"].build(state, "s1", {"card": "Witte"})  # Sazonov's card


@pytest.mark.parametrize("typed", ["Austria", "austria-hungary", "Austria Hungary", "AH", "aus"])
def test_a_tension_box_by_the_nations_common_name(typed):
    state = _ready()
    action = COMMANDS["play"].build(state, "s2", {"card": "Witte", "box": typed})
    assert action == Play(card=cid("Sergei Witte"), box="AH")


def test_a_tension_box_that_is_not_on_the_board_is_refused():
    state = _ready()
    with pytest.raises(IllegalAction, match="'England' is not a legal Tension box. Legal: Austria-Hungary."):
        COMMANDS["play"].build(state, "s2", {"card": "Witte", "box": "England"})


def test_a_join_preference_names_a_statesman_or_nation_as_players_type_it():
    state = GAME.setup(SEATS, GAME.Options(), seed=1)
    labels = {s: GAME.seat_label(state, s) for s in SEATS}
    alternatives = nation_alternatives()

    def named(typed: str) -> list[str]:
        return [s for s, label in labels.items() if matches_seat(typed, s, label, alternatives)]

    assert labels["s4"] == "Poincaré (France)" and labels["s5"] == "Grey (Britain)"
    assert named("Poincare") == ["s4"]
    assert named("England") == ["s5"] and named("United Kingdom") == ["s5"] and named("UK") == ["s5"]
    assert named("Austria") == ["s1"] and named("Prussia") == ["s3"]
    assert named("Bethmann-Hollweg") == ["s3"] and named("s2") == ["s2"]
    assert named("Narnia") == []
