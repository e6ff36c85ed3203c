"""Poland's end-of-game count and the Principle of Balance when nobody is above zero
(docs/rulings.md, Schönbrunn 18 and 34)."""

from __future__ import annotations

import random

from engine.schonbrunn import GAME
from engine.schonbrunn.actions import Minister
from engine.schonbrunn.sketch import Sketch
from engine.schonbrunn.state import Marker

from .helpers import act, give, place, table, top

FIVE = ["GB", "AUT", "RUS", "PRU", "FRA"]
SWISS = "restoration_of_the_swiss_confederation"


def _last_round_with_poland_at_v(extra_screen=()):
    """Five players, the last round: France wins Poland in Objective V holding Saxony behind
    its screen (won earlier in the last round) and Bavaria under its Nation card."""
    s = table(FIVE)
    s.round = s.rounds
    s.hierarchy, s.master = ["FRA", "GB", "AUT", "RUS", "PRU"], "FRA"  # Prussia takes the empty Objectives
    top(s, "V", "poland")
    place(s, "FRA", "V", [5], face_up=True)
    give(s, "FRA", "saxony")
    give(s, "FRA", "bavaria", "under")
    for c in extra_screen:
        give(s, "FRA", c)
    s.stage, s.queue = "minister", ["FRA"]
    s, public = act(s, "FRA", Minister(objective=None))
    assert "France collects Poland in V with 5" in "\n".join(public)
    assert s.stage == "over"
    return s.players["FRA"]


def test_poland_counts_every_ally_collected():
    """Poland: "2 Prestige for each Ally card you collected (Poland included)": Poland and
    Saxony behind the screen and Bavaria under the Nation card are three Allies, +6."""
    fra = _last_round_with_poland_at_v()
    assert fra.end_detail == "Poland +6"
    assert ("end of the game (Poland +6)", 6) in fra.prestige_items


def test_annexation_of_territories_still_counts_only_the_ally_cards_under_the_nation_card():
    """Annexation of Territories: "1 Prestige for each Ally card under your Nation card": in
    the same position only Bavaria counts for it, while Poland still counts all three."""
    fra = _last_round_with_poland_at_v(extra_screen=["annexation_of_territories"])
    assert fra.end_detail == "Annexation of Territories +1, Poland +6"


def _congress(s):
    """Russia's Foreign Minister decision, the last of the Chancellery, then the Congress."""
    top(s, "PoB", "holy_alliance")
    s.stage, s.queue = "minister", ["RUS"]
    sketch = Sketch(s, random.Random(1))
    sketch.congress()
    s, _ = act(s, "RUS", Minister(objective=None))
    # the strong player's sketch of the Congress gives the Principle of Balance alike
    for i, seat in enumerate(s.seats):
        assert ("holy_alliance" in sketch.held[i]) == ("holy_alliance" in s.players[seat].screen), seat
    return s


def _balance_line(s):
    return next(line for line in s.last_awards if "by the Principle of Balance" in line)


def test_principle_of_balance_never_goes_to_a_delegation_below_zero():
    """Great Britain has 0 left in Objective I, Russia -1 in Objective II (a '-1' marker of
    the Restoration of the Swiss Confederation on its 0): nobody is above zero. Russia is
    first in reverse Hierarchy but below zero, so it is passed over: Great Britain, next in
    reverse Hierarchy and at zero, collects the card."""
    s = table(["GB", "AUT", "RUS"])
    s.hierarchy, s.master = ["AUT", "GB", "RUS"], "AUT"
    place(s, "AUT", "I", [3], face_up=True)  # Austria collects I
    place(s, "GB", "I", [0], face_up=True)  # Great Britain's 0 stays in I
    place(s, "AUT", "II", [2], face_up=True)  # Austria collects II
    place(s, "RUS", "II", [0], face_up=True)  # Russia's 0 stays in II, with a '-1'
    s.markers = [Marker(owner="RUS", objective="II", value=-1, source=SWISS)]
    s = _congress(s)
    assert _balance_line(s) == "Great Britain collects Holy Alliance by the Principle of Balance"
    assert "holy_alliance" not in s.players["RUS"].screen


def test_principle_of_balance_with_no_delegate_left_goes_first_in_reverse_hierarchy():
    """Every delegation collected the Reparation where its Delegates stood, so nobody has
    Influence left anywhere: as when every total in an Objective is zero, the card goes to
    the first player in reverse Hierarchy, Russia (last in the Hierarchy)."""
    s = table(["GB", "AUT", "RUS"])
    s.hierarchy, s.master = ["GB", "AUT", "RUS"], "GB"
    place(s, "GB", "I", [3], face_up=True)
    place(s, "AUT", "II", [3], face_up=True)
    place(s, "RUS", "III", [3], face_up=True)
    s = _congress(s)
    assert not any(d.place in s.objectives for d in s.delegates)
    assert _balance_line(s) == "Russia collects Holy Alliance by the Principle of Balance"


def test_principle_of_balance_with_every_delegation_below_zero_leaves_the_game():
    """Each delegation keeps a 0 with a '-1' on it (no card of the game leads there: the
    Restoration's '-1' markers never go to its owner's delegation): nobody is rewarded, and the
    card leaves the game face up, so the piles still count the rounds."""
    s = table(["GB", "AUT", "RUS"])
    s.hierarchy, s.master = ["GB", "AUT", "RUS"], "GB"
    spots = (("GB", "I"), ("AUT", "II"), ("RUS", "III"))
    for seat, objective in spots:
        place(s, seat, objective, [0], face_up=True)
    s.markers = [Marker(owner=seat, objective=objective, value=-1, source=SWISS) for seat, objective in spots]
    s = _congress(s)
    assert _balance_line(s) == (
        "Nobody collects Holy Alliance by the Principle of Balance: every delegation is below zero. "
        "It is removed from the game."
    )
    assert "holy_alliance" in s.box
    assert not any("holy_alliance" in p.screen for p in s.players.values())
    assert GAME.invariants(s) == []
