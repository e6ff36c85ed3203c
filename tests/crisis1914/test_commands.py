"""The declarative commands: each builds the engine action, and autocomplete offers only what
is legal for the caller (Hand choices only from the caller's own Hand)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.crisis1914 import GAME
from engine.crisis1914.actions import Deliberate, Draw, Pass, Play, Refresh, Reorder, Resolve, Seize

from .helpers import act, cid, week_start

COMMANDS = {c.name: c for c in GAME.commands}


def _opt(command: str, option: str):
    return next(o for o in COMMANDS[command].options if o.name == option)


def _ready():
    state, _ = week_start(
        2,
        hands={"AH": ["Hoyos", "Tisza", "Bilinski"], "RU": ["Bark", "Hartwig", "The Czar"]},
        draws={
            "AH": ["Conrad", "Potiorek", "Mensdorff", "Czernin"],
            "RU": ["Maklakov", "Krivoshein", "Sergei Witte"],
        },
    )
    while state.pending:  # choices the First Draw Step's cards demand
        act(state, state.pending[0].nation, Resolve())
    return state


def test_every_decision_of_the_issue_has_a_command():
    assert {
        "draw",
        "play",
        "deliberate",
        "choose",
        "reorganize",
        "reorder",
        "seize",
        "pass",
        "congress",
        "refresh",
        "place",
        "discard",
        "hand",
    } <= set(COMMANDS)


def test_play_suggests_only_the_callers_hand_and_builds_the_action():
    state = _ready()
    offered = [c.value for c in _opt("play", "card").suggest(state, "s1", {})]
    assert sorted(offered) == sorted([cid("Hoyos"), cid("Tisza"), cid("Bilinski")])
    assert COMMANDS["play"].private
    action = COMMANDS["play"].build(state, "s1", {"card": "hoyos", "belligerence": "true"})
    assert action == Play(card=cid("Hoyos"), belligerence=True)
    with pytest.raises(IllegalAction, match="not a legal card"):
        COMMANDS["play"].build(state, "s1", {"card": "Bark"})  # Sazonov's card


def test_deliberate_then_a_private_choice_of_the_three():
    state = _ready()
    act(state, "AH", COMMANDS["deliberate"].build(state, "s1", {"discard": "Tisza"}))
    drawn = [c.value for c in _opt("choose", "card").suggest(state, "s1", {})]
    assert drawn == [cid("Potiorek"), cid("Mensdorff"), cid("Czernin")]
    assert _opt("choose", "card").suggest(state, "s2", {}) == []
    assert COMMANDS["choose"].private and COMMANDS["choose"].build(
        state, "s1", {"card": "Potiorek"}
    ) == Resolve(card=cid("Potiorek"))


def test_reorganize_then_a_private_reorder():
    state = _ready()
    act(state, "AH", Pass())
    act(state, "RU", COMMANDS["reorganize"].build(state, "s2", {"discard": "Bark"}))
    looked = [c.value for c in _opt("reorder", "first").suggest(state, "s2", {})]
    assert looked[:2] == [cid("Krivoshein"), cid("Sergei Witte")]
    action = COMMANDS["reorder"].build(state, "s2", {"first": "Sergei Witte"})
    assert isinstance(action, Reorder) and action.order[:2] == [cid("Sergei Witte"), cid("Krivoshein")]
    act(state, "RU", action)
    assert state.players["RU"].draw[0] == cid("Sergei Witte") and state.players["RU"].known == 3


def test_seize_pass_draw_congress_and_refresh_build():
    state = _ready()
    assert COMMANDS["seize"].build(
        state, "s1", {"first": "Hoyos", "second": "Tisza", "third": "Bilinski"}
    ) == Seize(discards=[cid("Hoyos"), cid("Tisza"), cid("Bilinski")])
    assert COMMANDS["pass"].build(state, "s1", {}) == Pass()
    assert COMMANDS["draw"].build(state, "s1", {}) == Draw()
    assert COMMANDS["refresh"].build(state, "s1", {"discards": "Hoyos, Tisza"}) == Refresh(
        discards=[cid("Hoyos"), cid("Tisza")]
    )
    assert COMMANDS["refresh"].build(state, "s1", {"discards": "none"}) == Refresh()
    state.phase = "congress_invite"
    assert [c.value for c in _opt("congress", "answer").suggest(state, "s2", {})] == ["invite", "no"]
    assert COMMANDS["congress"].build(state, "s2", {"answer": "invite"}).yes
    state.phase = "congress_answer"
    assert not COMMANDS["congress"].build(state, "s1", {"answer": "refuse"}).yes


def test_legal_actions_for_buttons():
    state = _ready()
    legal = GAME.legal_actions(state, "s1")
    assert Draw() in legal and Pass() in legal
    assert Deliberate(discard=cid("Tisza")) in legal
    assert Play(card=cid("Hoyos"), belligerence=True) in legal
    assert GAME.legal_actions(state, "s2") == []  # not Sazonov's turn
    for action in legal:  # every listed action is accepted
        GAME.validate(state, "s1", action)
