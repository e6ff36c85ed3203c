"""The two variants of the rulebook: the auction for the Nations and the simplified rules."""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalAction
from engine.schonbrunn import GAME
from engine.schonbrunn.actions import Bid, Choose


def test_auction_for_the_nations():
    """Variants, Auction: Receptions of the Preparation plus 1; secret bids (minimum 1) revealed
    together; choose in descending order of bids, ties to the nearest to the Master of Ceremonies
    counting anticlockwise; each chooser loses the amount bid by the player who chooses after them."""
    seats = ["a", "b", "c", "d"]
    s = GAME.setup(seats, GAME.Options(auction=True), seed=5)
    s.master = "c"
    assert s.stage == "bid" and all(p.receptions == 6 for p in s.players.values())
    prompts = GAME.prompts(s)
    assert {p.seat for p in prompts} == set(seats) and all(p.simultaneous for p in prompts)
    with pytest.raises(IllegalAction, match="between 1 and 6"):
        GAME.apply(s, "a", Bid(receptions=0))
    for seat, bid in [("a", 3), ("b", 1), ("c", 2), ("d", 3)]:
        s, events = GAME.apply(s, seat, Bid(receptions=bid))
        if seat != "d":
            assert [e.text for e in events if e.audience is None] == [
                f"Player {seats.index(seat) + 1} has bid."
            ]
            assert GAME.view(s, None).players[seat].bid is None  # secret until all are in
    # a and d tie at 3: from the Master c anticlockwise, b is 1 away, a 2, d 3.
    assert s.choose_order == ["a", "d", "c", "b"] and s.stage == "choose"
    s, _ = GAME.apply(s, "a", Choose(nation="Prussia"))
    with pytest.raises(IllegalAction, match="Choose one of"):
        GAME.apply(s, "d", Choose(nation="PRU"))
    s, _ = GAME.apply(s, "d", Choose(nation="GB"))
    s, _ = GAME.apply(s, "c", Choose(nation="RUS"))
    s, _ = GAME.apply(s, "b", Choose(nation="AUT"))
    # c took Russia, whose court brings 2 Receptions more (nations.toml)
    assert {x: s.players[x].receptions for x in seats} == {"a": 3, "d": 4, "c": 7, "b": 6}
    assert s.stage == "commit" and s.round == 1
    assert sum(d.owner == "d" for d in s.delegates) == 8  # Great Britain's eight Delegates


def test_simplified_rules_drop_receptions_favours_heads_and_plots():
    """Variants, Simplified rules: no Receptions, Political Favours or Delegation Heads; no Plot
    phase; five phases a round."""
    s = GAME.setup(["a", "b", "c", "d"], GAME.Options(simplified=True), seed=2)
    seen = set()
    rng = random.Random(2)
    while GAME.outcome(s) is None:
        prompt = GAME.prompts(s)[0]
        seen.add(prompt.kind)
        assert all(p.receptions == 0 for p in s.players.values())
        s, _ = GAME.apply(s, prompt.seat, GAME.bot_action(s, prompt.seat, rng))
    assert not seen & {"receptions", "favour", "head", "plot", "move"}
    assert {"commit", "assign", "minister"} <= seen
    assert s.favours == {}


def test_vary_hidden_changes_hidden_values_only():
    """The hidden-information check is only as good as `vary_hidden`: it must actually move the
    hidden Delegate values (and never a face-up one)."""
    s = GAME.setup(["a", "b", "c", "d"], GAME.Options(), seed=9)
    rng = random.Random(9)
    while not (s.stage == "plot"):
        seat = GAME.prompts(s)[0].seat
        s, _ = GAME.apply(s, seat, GAME.bot_action(s, seat, rng))
    changed = 0
    for k in range(10):
        v = GAME.vary_hidden(s, None, random.Random(k))
        for d0, d1 in zip(s.delegates, v.delegates, strict=True):
            if d0.face_up or d0.known:
                assert d0.value == d1.value
            changed += d0.value != d1.value
        mine = GAME.vary_hidden(s, "a", random.Random(k))
        for d0, d1 in zip(s.delegates, mine.delegates, strict=True):
            if d0.owner == "a" and d0.place == "supply":
                assert d0.value == d1.value  # a sees its own supply
    assert changed > 0


def test_simplified_rules_and_the_auction_cannot_be_combined():
    """Variants: the Auction hides Receptions in hand; the simplified rules have no Receptions.
    The combination is refused with the reason, before any game is set up."""
    import pydantic

    with pytest.raises(pydantic.ValidationError, match="choose simplified or auction, not both"):
        GAME.Options(simplified=True, auction=True)
    assert GAME.Options(auction=True).auction and GAME.Options(simplified=True).simplified
