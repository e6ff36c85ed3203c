"""Every Crisis: 1914 card, played from Hand, does what its text says: one row per card in
card_effects.toml, keyed by the card's id and carrying its text (`texts.card_text`, the card
as the game prints it from its content entry), checked against the engine.

The parameters come from the content files, so a new card without a row, a card whose
text is not its row's, and a row with no card all fail. Each row's expectations are written
out in the file (what the text gives), never computed here from the card.

The position (`_position`), the same for every card: the card's statesman at their first
turn of the Play Step, in the smallest game that seats their nation, Week 1 unless the row
names another. Their Hand is the card and two cards of their deck that go to the Recycled
Discards; their Tableau holds one Assertion worth 5 DP (the Score marker on 5), two Momentum
cards and one Consensus card (0 DP each), all from their own deck; Prestige 3, Belligerence
0, every Tension die in their City Box at 2, the player-board tracks at their start. The card is played without a
Belligerence action (one that forces it takes it), and then with its alternative effect
("or") in the same position where it has one. The Week is then played out (everyone passes,
no Congress) to see where the Refresh Step puts the card.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.crisis1914 import GAME
from engine.crisis1914.actions import Discard, Pass, Play, Reduce, Resolve
from engine.crisis1914.cards import assertions, card, limit
from engine.crisis1914.content import load_content
from engine.crisis1914.game import NATION_ORDER
from engine.crisis1914.state import CrisisState, Played
from engine.crisis1914.texts import card_text

from .helpers import SEATS, act

ROWS_FILE = Path(__file__).with_name("card_effects.toml")
CARDS_CHECKED = 120  # one row per card: 5 decks of 24 (Components)
ALTERNATIVES_CHECKED = 24  # the 9 Caution and 15 Diplomatic Back-Channel cards' "or" effects

BASE_SCORE = 5  # the Assertion on the Tableau
BASE_PRESTIGE = 3
BASE_TENSION = 2

# What a row's `play` or `alternative` table may say, and what a key left out means: the
# card does not do it.
EFFECT_DEFAULTS: dict[str, Any] = {
    "dp": None,  # required: the DP the card counts on the Tableau (doubled by Belligerence)
    "second": None,  # where the second Score marker ends; left out: no second marker
    "draws": 0,  # cards taken from the top of the Draw Pile into the Hand
    "reclaims": False,  # the Assertion (5 DP) goes back into the Hand, its DP off the Score
    "tension": BASE_TENSION,  # the Target Nation's die in the card's City Box
    "belligerence": 0,  # the Belligerence Level Track
    "prestige": BASE_PRESTIGE,
    "counter": {},  # player-board tracks that moved, with where they end
    "discard": None,  # {nation, count}: who owes a discard from Hand now
    "momentum": False,  # the Momentum marker is placed (the card is the third Momentum card)
    "assertion": False,  # the card counts as an Assertion (toward 4 for the doubling)
    "extra_cards": 0,  # how far the card limit of 7 rises
    "lost": False,  # the statesman loses at once (General Mobilization)
}
ROW_KEYS = {"id", "name", "text", "week", "pile", "play", "alternative"}


def _rows() -> dict[str, dict[str, Any]]:
    with ROWS_FILE.open("rb") as f:
        rows = tomllib.load(f)["cards"]
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        assert set(row) <= ROW_KEYS, f"{row.get('id')}: unknown keys {set(row) - ROW_KEYS}"
        for kind in ("play", "alternative"):
            if kind in row:
                unknown = set(row[kind]) - set(EFFECT_DEFAULTS)
                assert not unknown, f"{row['id']} {kind}: unknown keys {unknown}"
                assert "dp" in row[kind], f"{row['id']} {kind}: no dp"
        assert row["id"] not in out, f"two rows for {row['id']}"
        out[row["id"]] = row
    return out


ROWS = _rows()
CARD_IDS = list(load_content().cards)
WITH_ALTERNATIVE = [cid for cid, c in load_content().cards.items() if c.alternative is not None]


def test_the_table_has_one_row_per_card_with_its_text():
    """No card without a row, no row without a card, each row's text the card's own."""
    cards = load_content().cards
    assert sorted(ROWS) == sorted(cards), (
        f"cards without a row: {sorted(set(cards) - set(ROWS))}; rows without a card: "
        f"{sorted(set(ROWS) - set(cards))}"
    )
    for cid, row in ROWS.items():
        c = cards[cid]
        assert (row["name"], row["text"]) == (c.name, card_text(c)), f"{cid}: the card's text changed"
        assert ("alternative" in row) == (c.alternative is not None), f"{cid}: alternative row"
    assert len(ROWS) == CARDS_CHECKED
    assert sum("alternative" in row for row in ROWS.values()) == ALTERNATIVES_CHECKED


# -- the position ---------------------------------------------------------------------------
def _base_tableau(nation: str, card_id: str) -> list[Played]:
    """Two Momentum cards (not Consensus or National Interests, so the card limit stays 7),
    one Assertion worth 5 DP, one Consensus card, all 0 DP but the Assertion. The Assertion
    is not a Momentum card where the deck allows (a card that takes it back would otherwise
    take a Momentum card off the Tableau too); where it cannot be (beside Russia's
    Dobrorolsky, the deck's other Assertions all carry Momentum), it is one of the two."""
    content = load_content()
    aside = {s.card for s in content.nations[nation].set_aside}
    deck = [c for c in content.decks[nation].cards if c.id != card_id and c.id not in aside]
    momentum = [c for c in deck if c.momentum and c.type not in ("consensus", "national_interests")]
    momentum.sort(key=lambda c: c.type == "assertion")  # stable: non-Assertions first
    assertion = next((c for c in deck if c.type == "assertion" and not c.momentum), None)
    if assertion is None:
        assertion = next(c for c in momentum if c.type == "assertion")
        two = [momentum[0], assertion]
    else:
        two = momentum[:2]
    consensus = next(c for c in deck if c.type == "consensus" and not c.momentum)
    base = [Played(card=assertion.id, dp=BASE_SCORE)]
    base += [Played(card=c.id, dp=0) for c in two if c is not assertion]
    base.append(Played(card=consensus.id, dp=0))
    assert len({t.card for t in base}) == len(base) == (4 if assertion not in two else 3)
    return base


def _plain_cards(nation: str, used: set[str], count: int) -> list[str]:
    content = load_content()
    aside = {s.card for s in content.nations[nation].set_aside}
    plain = [
        c.id
        for c in content.decks[nation].cards
        if c.id not in used | aside and c.discard == "recycled" and c.permanent_if is None
    ]
    return plain[:count]


def _position(card_id: str, week: int) -> CrisisState:
    content = load_content()
    nation = card(card_id).nation
    players = max(2, NATION_ORDER.index(nation) + 1)
    state = GAME.setup(SEATS[:players], GAME.Options(congress=False), seed=1)
    while state.pending or state.actor != nation:  # the First Draw's choices; the others pass
        if state.pending:
            act(state, state.pending[0].nation, Resolve())
        else:
            act(state, state.actor, Pass())
    p = state.players[nation]
    base = _base_tableau(nation, card_id)
    used = {card_id, *(t.card for t in base)}
    hand = [card_id, *_plain_cards(nation, used, 2)]
    used |= set(hand)
    aside = [s.card for s in content.nations[nation].set_aside if s.card not in used]
    p.hand, p.tableau, p.set_aside = hand, base, aside
    p.draw = [c.id for c in content.decks[nation].cards if c.id not in used and c.id not in aside]
    p.recycled, p.returned, p.permanent, p.waiting = [], [], [], []
    p.score, p.second, p.known, p.prestige = BASE_SCORE, None, 0, BASE_PRESTIGE
    p.counters = {k: v.start for k, v in content.nations[nation].counters.items()}
    p.belligerence, p.momentum = 0, False
    state.tension[nation] = {box: BASE_TENSION for box in state.tension[nation]}
    state.week = week
    assert GAME.invariants(state) == [], GAME.invariants(state)
    return state


def _finish_week(state: CrisisState) -> None:
    """Owed discards are made, everyone passes, the Score Step's -1 goes to the Target box."""
    while state.phase not in ("refresh", "over"):
        if state.pending:
            owed = state.pending[0]
            hand = state.players[owed.nation].hand
            answer = {"discard": Discard(cards=hand[: owed.count]), "reduce": Reduce()}.get(
                owed.kind, Resolve()
            )
            act(state, owed.nation, answer)
        else:
            act(state, state.actor, Pass())


# -- the check ------------------------------------------------------------------------------
def _check(card_id: str, kind: str) -> CrisisState:
    row = ROWS.get(card_id)
    if row is None:
        pytest.fail(f"{card_id} has no row in {ROWS_FILE.name}")
    assert row["text"] == card_text(card(card_id)), f"{card_id}: the card's text is not its row's"
    want = {**EFFECT_DEFAULTS, **row[kind]}
    content = load_content()
    nation = card(card_id).nation
    target = content.nations[nation].boxes[0]
    state = _position(card_id, row.get("week", 1))
    p = state.players[nation]
    hand_before, top = list(p.hand), p.draw[0]
    reclaimable = next(t.card for t in p.tableau if t.dp == BASE_SCORE)
    limit_before, assertions_before = limit(p), assertions(p)

    act(state, nation, Play(card=card_id, alternative=kind == "alternative"))

    bell = want["belligerence"] > 0
    assert p.tableau[-1] == Played(card=card_id, dp=want["dp"], belligerence=bell)
    assert p.score == BASE_SCORE + want["dp"] - (BASE_SCORE if want["reclaims"] else 0)
    assert p.second == want["second"]
    hand = [c for c in hand_before if c != card_id] + [top] * want["draws"]
    hand += [reclaimable] if want["reclaims"] else []
    assert Counter(p.hand) == Counter(hand)
    boxes = {box: BASE_TENSION for box in state.tension[nation]}
    assert state.tension[nation] == {**boxes, target: want["tension"]}
    assert p.belligerence == want["belligerence"]
    assert p.prestige == want["prestige"]
    starts = {k: v.start for k, v in content.nations[nation].counters.items()}
    assert p.counters == {**starts, **want["counter"]}
    owed = [(x.nation, x.count) for x in state.pending if x.kind == "discard"]
    expected_owed = [(want["discard"]["nation"], want["discard"]["count"])] if want["discard"] else []
    assert owed == expected_owed
    assert p.momentum == want["momentum"]
    assert assertions(p) - assertions_before == int(want["assertion"]) - int(want["reclaims"])
    assert limit(p) - limit_before == want["extra_cards"]
    assert (p.lost is not None) == want["lost"]
    assert GAME.invariants(state) == []
    return state


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_card_effect(card_id):
    """The card played as it comes; then the Week ends and the Refresh Step puts it on the
    pile its discard icon says (a General Mobilization card ends the game instead)."""
    state = _check(card_id, "play")
    row = ROWS[card_id]
    p = state.players[card(card_id).nation]
    _finish_week(state)
    if row["play"].get("lost", False):
        assert "pile" not in row
        assert state.phase == "over" and GAME.outcome(state) is not None
        return
    assert state.phase == "refresh"
    piles = {"recycled": p.recycled, "permanent": p.permanent, "return": p.draw}
    assert card_id in piles[row["pile"]], f"{card_id} is not in the {row['pile']} pile"
    assert all(card_id not in pile for name, pile in piles.items() if name != row["pile"])


@pytest.mark.parametrize("card_id", WITH_ALTERNATIVE)
def test_card_alternative_effect(card_id):
    """The card played with its "or" effect, in the same position."""
    if "alternative" not in ROWS.get(card_id, {}):
        pytest.fail(f"{card_id} has an alternative effect but its row has no `alternative` table")
    _check(card_id, "alternative")
