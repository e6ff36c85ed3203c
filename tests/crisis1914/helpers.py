"""Setting up Crisis: 1914 positions directly, as the rulebook's examples describe them."""

from __future__ import annotations

import random
from typing import Any

from engine.crisis1914 import GAME
from engine.crisis1914.content import load_content
from engine.crisis1914.log import Log
from engine.crisis1914.rules import advance
from engine.crisis1914.state import CrisisState

SEATS = ["s1", "s2", "s3", "s4", "s5"]


def cid(name: str) -> str:
    """A card's id from its printed name (names are unique across the five decks)."""
    matches = [c.id for c in load_content().cards.values() if c.name == name]
    assert len(matches) == 1, name
    return matches[0]


class Stacked(random.Random):
    """A generator whose shuffles put the named cards on top, in this order (the rest keep
    their order): how a test says "the shuffle happened to give ..." as the example does."""

    def __init__(self) -> None:
        super().__init__(0)
        self.order: list[str] = []

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        first = [c for c in self.order if c in x]
        rest = [c for c in x if c not in first]
        x[:] = first + rest


def week_start(
    players: int,
    hands: dict[str, list[str]],
    draws: dict[str, list[str]],
    recycled: dict[str, list[str]] | None = None,
    rng: random.Random | None = None,
) -> tuple[CrisisState, list]:
    """A game at the First Draw Step of Week 1 with the given Hands and Draw Pile tops (card
    names; the rest of each deck follows in deck order), then the First Draw Step is run."""
    state = GAME.setup(SEATS[:players], GAME.Options(), seed=1)
    content = load_content()
    for nid, p in state.players.items():
        hand = [cid(n) for n in hands.get(nid, [])]
        top = [cid(n) for n in draws.get(nid, [])]
        rec = [cid(n) for n in (recycled or {}).get(nid, [])]
        used = set(hand) | set(top) | set(rec) | set(p.set_aside)
        rest = [c.id for c in content.decks[nid].cards if c.id not in used]
        p.hand, p.draw, p.recycled, p.tableau = hand, top + rest, rec, []
        p.score, p.second, p.known = 0, None, 0
    state.phase, state.turn, state.actor, state.pending = "first_draw", 0, None, []
    log = Log()
    advance(state, rng or Stacked(), log)
    return state, log.done()


def act(state: CrisisState, nation: str, action: Any, rng: random.Random | None = None) -> list:
    """Carry out one action in place (the core's copy is not needed in a scenario)."""
    seat = state.players[nation].seat
    assert GAME.may_act(state, seat), f"{nation} owes no decision: {GAME.prompts(state)}"
    events = GAME.play(
        state, seat, GAME.parse_action(action) if isinstance(action, dict) else action, rng or Stacked()
    )
    state.step += 1
    return events


def names(card_ids: list[str]) -> list[str]:
    cards = load_content().cards
    return [cards[c].name for c in card_ids]
