"""The rulebook's worked examples (a six-player game), reproduced as scenarios.

Delegate values, card effects and Favour values are our reconstructed content
(engine/content/schonbrunn), chosen so that every example below comes out as printed.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.schonbrunn import GAME
from engine.schonbrunn.actions import (
    Activate,
    Assign,
    Commit,
    Favour,
    Head,
    Keep,
    Minister,
    Move,
    Pass,
    Plot,
    Sign,
    Spend,
    Target,
    TieBreak,
)
from engine.schonbrunn.phases import recovery
from engine.schonbrunn.phases.end import aid_points, end_points, ranking
from engine.schonbrunn.pieces import influence
from engine.schonbrunn.view_types import Delegation

from .helpers import act, adjust, commit, give, place, table, top

SIX = ["GB", "AUT", "RUS", "PRU", "FRA", "ESP"]
ORDER = ["GB", "PRU", "ESP", "AUT", "RUS", "FRA"]


def _hierarchy(state):
    state.master = "AUT"
    for seat, value in [("GB", 0), ("AUT", 1), ("RUS", 2), ("PRU", 0), ("FRA", 3), ("ESP", 1)]:
        state, _ = act(state, seat, Commit(delegate=value))
    state, _ = act(state, "AUT", TieBreak(order=["GB", "PRU"]))
    state, _ = act(state, "AUT", TieBreak(order=["ESP", "AUT"]))
    return state


def test_hierarchy_example():
    """Phase 1: "Great Britain plays 0, Austria 1, Russia 2, Prussia 0, France 3 and Spain 1 ...
    Austria, the Master of Ceremonies, decides that the red player occupies position 1 ...
    gives position 3 to Spain ... The Hierarchy order for this round is: Great Britain,
    Prussia, Spain, Austria, Russia and France." Then Treaties are signed and Receptions spent."""
    s = table(SIX)
    give(s, "ESP", "free_city_of_krakow")
    give(s, "RUS", "union_of_genoa_with_sardinia")
    give(s, "FRA", "restoration_of_the_swiss_confederation")
    s.master = "AUT"
    for seat, value in [("GB", 0), ("AUT", 1), ("RUS", 2), ("PRU", 0), ("FRA", 3)]:
        s, public = act(s, seat, Commit(delegate=value))
        assert public == [f"{GAME.seat_label(s, seat)} has committed a Delegate."]  # no value shown
    s, public = act(s, "ESP", Commit(delegate=1))
    assert "Great Britain 0, Austria 1, Russia 2, Prussia 0, France 3, Spain 1" in public[1]
    assert (s.stage, s.queue) == ("tiebreak", ["AUT"])  # the first tie: GB and Prussia at 0
    # the tie-break prompt names the tied nations
    prompt = GAME.prompts(s)[0].text
    assert "Great Britain and Prussia are tied with Influence 0" in prompt
    with pytest.raises(IllegalAction, match="tied nations"):
        act(s, "AUT", TieBreak(order=["GB", "AUT"]))
    s, _ = act(s, "AUT", TieBreak(order=["GB", "PRU"]))
    assert s.queue == ["AUT"]  # the second tie: Austria and Spain at 1
    assert "Austria and Spain are tied with Influence 1" in GAME.prompts(s)[0].text
    s, _ = act(s, "AUT", TieBreak(order=["ESP", "AUT"]))
    assert s.hierarchy == ORDER
    assert s.master == "GB"  # the token passes to position 1
    supplies = {seat: sum(d.place == "supply" for d in s.delegates if d.owner == seat) for seat in SIX}
    assert supplies == {"GB": 7, "AUT": 6, "RUS": 6, "PRU": 6, "FRA": 6, "ESP": 6}

    # Signing, in Hierarchy order: only the players holding Treaties are asked.
    assert (s.stage, s.queue[0]) == ("sign", "ESP")
    s, _ = act(s, "ESP", Sign(treaties=["free_city_of_krakow"]))
    s, _ = act(s, "RUS", Sign(treaties=["union_of_genoa_with_sardinia"]))
    s, _ = act(s, "FRA", Sign(treaties=["restoration_of_the_swiss_confederation"]))
    assert s.players["ESP"].signed == ("free_city_of_krakow",)

    # Receptions: Great Britain and Prussia committed 0 and cannot spend any.
    assert (s.stage, s.queue[0]) == ("receptions", "ESP")
    s, _ = act(s, "ESP", Spend(receptions=0))
    s, _ = act(s, "AUT", Spend(receptions=1))
    s, _ = act(s, "RUS", Spend(receptions=0))  # could have spent up to 2
    with pytest.raises(IllegalAction, match="between 0 and 3"):
        act(s, "FRA", Spend(receptions=4))
    s, _ = act(s, "FRA", Spend(receptions=2))
    assert {seat: s.players[seat].prestige for seat in SIX} == {
        "GB": 0,
        "AUT": 1,
        "RUS": 0,
        "PRU": 0,
        "FRA": 2,
        "ESP": 0,
    }
    assert s.players["FRA"].receptions == 3


def _turn(s, seat, down, head, up, last):
    for value, o in [*down, (None, None), *up, last]:
        if value is None:
            s, _ = act(s, seat, Head(target=head))
        else:
            s, _ = act(s, seat, Assign(delegate=value, objective=o))
    return s


def test_assignments_example_and_delegation_head_example():
    """Phase 2: "the piles each contain five cards, so the grey token of Objective V ... is
    revealed. Great Britain, as Master of Ceremonies, then chooses to reveal the Political
    Favour of Objective II." Then "Great Britain assigns three face-down ... Austria assigns its
    white pawn in front of Great Britain's screen; thanks to ... Klemens Wenzel it does not spend
    a Reception ... Russia assigns its Delegation Head to the Objective I area, spending 1
    Reception". Spain "reveals the Aid Popular Uprising to activate its signed Treaty Free City
    of Kraków"."""
    s = table(SIX)
    give(s, "ESP", "free_city_of_krakow", "signed")
    give(s, "ESP", "popular_uprising")
    s = _hierarchy(s)
    while s.stage in ("sign", "receptions"):
        s, _ = act(s, s.queue[0], GAME.default_action(s, s.queue[0]))
    assert s.favours_up == ["V"]
    assert (s.stage, s.queue) == ("favour", ["GB"])
    s, public = act(s, "GB", Favour(objective="II"))
    assert s.favours_up == ["V", "II"] and "Objective II" in public[0]

    assert s.stage == "assign" and s.queue[0] == "GB" and s.assign_left == 3  # GB: three face down
    s = _turn(
        s, "GB", [(2, "II"), (4, "II"), (3, "V")], "III", [(1, "V"), (1, "IIII"), (1, "IIII")], (5, "IIII")
    )
    assert s.players["GB"].receptions == 4
    s = _turn(s, "PRU", [(1, "I"), (4, "IIII")], "ESP", [(1, "V"), (2, "I"), (3, "V")], (5, "I"))
    assert (s.players["PRU"].receptions, s.players["ESP"].receptions) == (4, 6)
    # Spain activates Kraków on its turn by revealing the Aid, then assigns both to I.
    s, public = act(s, "ESP", Activate(treaty="free_city_of_krakow", pay="popular_uprising", objective="I"))
    assert "Popular Uprising" in public[0]
    assert s.players["ESP"].shown_aids == ("popular_uprising",)
    s = _turn(s, "ESP", [(2, "I"), (2, "I")], None, [(3, "I"), (0, "IIII"), (1, "IIII")], (7, "IIII"))
    s = _turn(s, "AUT", [(3, "III"), (5, "V")], "GB", [(0, "III"), (2, "V"), (1, "I")], (4, "III"))
    assert s.players["GB"].receptions == 4 and s.players["AUT"].receptions == 5  # Klemens Wenzel: free
    s = _turn(s, "RUS", [(4, "I"), (1, "II")], "I", [(0, "I"), (3, "I"), (1, "I")], (5, "I"))
    assert s.players["RUS"].receptions == 6  # 7 at the start (the Tsar's court); 1 to the common reserve
    s, _ = act(s, "FRA", Assign(delegate=2, objective="III"))
    s, _ = act(s, "FRA", Assign(delegate=1, objective="III"))
    with pytest.raises(IllegalAction, match="Another Delegation Head"):
        act(s, "FRA", Head(target="I"))  # only one Delegation Head per place
    s, _ = act(s, "FRA", Head(target=None))
    with pytest.raises(IllegalAction, match="no Delegate of Influence 3"):
        act(s, "FRA", Assign(delegate=3, objective="V"))  # committed in the Hierarchy
    s, public = act(s, "FRA", Assign(delegate=4, objective="V"))
    assert public == ["France assigns a 4 face up to V."]
    # Nobody may look at face-down Delegates, not even their owner.
    mine = GAME.view(s, "GB")
    assert mine.me is not None and mine.me.face_down is None
    assert "face_down" not in GAME.view_dict(mine)["me"]
    assert mine.objectives["II"].pieces["Great Britain"] == Delegation(
        face_up=(), face_down=2, minister=False, head=False, markers=()
    )


def _congress_position(last_round=False):
    """The board of the Congress example, just before the last Foreign Minister decision."""
    s = table(SIX)
    if last_round:  # no Recovery follows, so the board stays as the Congress left it
        s.round = s.rounds
    s.hierarchy, s.master, s.stage = list(ORDER), "GB", "minister"
    for seat, value in [("GB", 0), ("AUT", 1), ("RUS", 2), ("PRU", 0), ("FRA", 3), ("ESP", 1)]:
        commit(s, seat, value)
    for o, card_id in [
        ("I", "annexation_of_territories"),
        ("II", "naples"),
        ("III", "border_fortification"),
        ("IIII", "border_restoration_1792"),
        ("V", "naval_blockade"),
        ("PoB", "holy_alliance"),
    ]:
        top(s, o, card_id)
    place(s, "RUS", "I", [0, 1, 3, 4, 5])
    place(s, "RUS", "II", [1])
    place(s, "ESP", "I", [7, 2, 2, 3], face_up=True)
    place(s, "ESP", "IIII", [0, 1])
    place(s, "PRU", "I", [5, 2])
    place(s, "PRU", "IIII", [1, 4])
    place(s, "PRU", "V", [1, 3])
    place(s, "GB", "II", [2, 4, 1])
    place(s, "GB", "V", [3])
    place(s, "GB", "IIII", [1, 5])
    place(s, "GB", "I", [1])
    place(s, "AUT", "I", [1])
    place(s, "AUT", "III", [4, 0])  # its 3 was removed by France's Plot
    place(s, "AUT", "V", [2, 5])
    place(s, "FRA", "III", [1])  # its 2 was removed by Austria's Plot
    place(s, "FRA", "V", [0, 1, 4])
    place(s, "FRA", "IIII", [5])
    adjust(s, "RUS", head="I")
    adjust(s, "GB", head="III")
    adjust(s, "AUT", head="GB")
    adjust(s, "PRU", head="ESP")
    adjust(s, "PRU", minister="IIII")
    adjust(s, "FRA", minister="III")
    give(s, "RUS", "union_of_genoa_with_sardinia", "signed")
    give(s, "FRA", "restoration_of_the_swiss_confederation", "signed")
    give(s, "FRA", "donation")
    give(s, "ESP", "free_city_of_krakow", "signed")
    give(s, "ESP", "popular_uprising")
    s.favours = {"I": 3, "II": 1, "III": 2, "IIII": 4, "V": 0}
    s.favours_up = ["V", "II"]
    s.queue = ["FRA"]
    return s


def _to_congress(s):
    s, public = act(s, "FRA", Minister(objective=None))  # already assigned in III: nothing to do
    return s, public


def test_congress_treaties_and_reparations_example():
    """The Phase 5 example, checked step by step below; later examples go on from its state."""
    congress_treaties_and_reparations_example()


def congress_treaties_and_reparations_example(last_round=False):
    """Phase 5: "Russia activates its Treaty Union of Genoa with Sardinia (priority 7) ... to
    Objective I without an Aid. France activates Restoration of the Swiss Confederation
    (priority 8), distributing two '-1' markers to the Austrian delegation in Objective III and
    one '-1' marker to the Prussian delegation in Objective IIII. Russia then collects Annexation
    of Territories in Objective I with a total Influence of 14, against Spain, which, despite the
    tie in Influence, loses the tie-break ... Russia gains the 5 of the Indemnity it collected,
    to which it adds 1 and 1 thanks to its Delegate in Objective I. ... Great Britain, with
    Influence 7, collects the Ally Naples ...; France, with Influence 3, collects the Aid Border
    Fortification ...; Prussia, with Influence 6, collects the Treaty Border Restoration 1792 ...;
    Austria, with Influence 7, collects the Aid Naval Blockade in Objective V."""
    s = _congress_position(last_round)
    s.queue = ["FRA"]
    s.stage = "minister"
    adjust(s, "FRA", minister=None)  # France decides its Foreign Minister last
    s, _ = act(s, "FRA", Minister(objective="III"))
    assert s.stage == "activate" and s.treaty_queue == [
        "union_of_genoa_with_sardinia",
        "restoration_of_the_swiss_confederation",
    ]
    assert s.queue == ["RUS"]  # priority 7 first
    s, _ = act(s, "RUS", Activate(treaty="union_of_genoa_with_sardinia", pay="minister", objective="I"))
    assert influence(s, "RUS", "I") == 14 and influence(s, "ESP", "I") == 14
    rus_before = s.players["RUS"]  # frozen: the step replaces it
    targets = [
        Target(nation="AUT", objective="III"),
        Target(nation="AUT", objective="III"),
        Target(nation="PRU", objective="IIII"),
    ]
    s, public = act(
        s, "FRA", Activate(treaty="restoration_of_the_swiss_confederation", pay="donation", targets=targets)
    )
    awards = next(text for text in public if "collects" in text)
    assert "Russia collects Annexation of Territories (+5 Prestige) in I with 14" in awards
    assert "Great Britain collects Naples in II with 7" in awards
    assert "France collects Border Fortification in III with 3" in awards
    assert "Prussia collects Border Restoration 1792" in awards and "in IIII with 6" in awards
    assert "Austria collects Naval Blockade in V with 7" in awards
    rus = s.players["RUS"]
    assert rus.prestige - rus_before.prestige == 5 + 1  # the Indemnity and the Delegation Head
    assert "annexation_of_territories" in rus.screen
    return s


def test_congress_principle_of_balance_and_political_favour_example():
    """Phase 5: "Spain has a total Influence of 14 in Objective I, without collecting the
    Reparation ... the yellow player collects the Treaty Holy Alliance from the top of the
    Principle of Balance pile (without removing its markers from the board). Spain's 14 and
    Prussia's 7 both exceed the value of the Political Favour of Objective I, which is 3, so
    Spain and Prussia each receive 1 Reception; ... only Spain gains 3 Prestige points ... In
    Objective II no player received the bonus, since only Russia still had markers there, with
    an Influence value of 1 ... In Objective V, although three players received the bonus, none
    of them gains Prestige points, since the value printed on the grey token is zero."""
    s = congress_treaties_and_reparations_example(last_round=True)
    esp = s.players["ESP"]
    assert "holy_alliance" in esp.screen
    assert sum(d.place == "I" for d in s.delegates if d.owner == "ESP") == 4  # still on the board
    awards = s.last_awards
    assert "Spain collects Holy Alliance by the Principle of Balance" in awards
    assert "Favour I (3): 1 Reception to Prussia, Spain; Spain +3 Prestige" in awards
    assert not any(a.startswith("Favour II ") for a in awards)
    assert "Favour V (0): 1 Reception to Great Britain, Prussia, France; no Prestige at a Favour of 0" in awards
    assert esp.prestige - end_points(s, "ESP")[0] == 3 and esp.receptions == 5 + 1


def test_recovery_example():
    """Phase 6: "Russia and Spain choose not to keep their Treaty and discard it ... France,
    instead, chooses to discard the Aid Border Fortification ... to keep the Treaty Restoration
    of the Swiss Confederation ... the Ally Naples, which Great Britain collected ... is discarded
    to receive the relevant marker and 1 (since it has no Aid to reveal that would earn 2
    additional)."""
    s = congress_treaties_and_reparations_example()
    assert s.stage == "keep" and s.queue[0] == "ESP"  # Russia holds no Aid: nothing to decide
    assert all(d.place == "supply" for d in s.delegates)  # every component recovered
    s, _ = act(s, "ESP", Keep())
    with pytest.raises(IllegalAction, match="one different Aid for each"):
        act(s, "FRA", Keep(treaties=["restoration_of_the_swiss_confederation"], aids=[]))
    s, _ = act(
        s, "FRA", Keep(treaties=["restoration_of_the_swiss_confederation"], aids=["border_fortification"])
    )
    fra, rus, esp, gb = (s.players[x] for x in ("FRA", "RUS", "ESP", "GB"))
    assert "restoration_of_the_swiss_confederation" in fra.screen and fra.signed == ()
    assert "border_fortification" in fra.under
    assert "union_of_genoa_with_sardinia" in rus.under and "free_city_of_krakow" in esp.under
    assert gb.ally_markers == (1,) and "naples" in gb.under
    assert s.round == 2 and s.stage == "commit"


def test_ally_markers_are_played_once_and_then_discarded():
    """The publisher's FAQ (schonbrunn-facts.md §6): "are Ally markers played once and then
    discarded?" "Yes": Naples's marker serves Great Britain's 0s in round 2 and goes at that
    round's Recovery. The table option `lasting_allies` keeps the rulebook's "in later rounds"."""
    s = congress_treaties_and_reparations_example()
    s, _ = act(s, "ESP", Keep())
    s, _ = act(
        s, "FRA", Keep(treaties=["restoration_of_the_swiss_confederation"], aids=["border_fortification"])
    )
    assert s.players["GB"].ally_markers == (1,) and s.round == 2
    events = []
    recovery.recover(s, events)  # round 2's Recovery
    assert s.players["GB"].ally_markers == ()
    assert "Great Britain's Ally markers (1) are used up and discarded." in [e.text for e in events]
    lasting = table(SIX, lasting_allies=True)
    adjust(lasting, "GB", ally_markers=[1])
    recovery.recover(lasting, [])
    assert lasting.players["GB"].ally_markers == (1,)


def test_principle_of_balance_with_no_total_above_zero_goes_first_in_reverse_hierarchy():
    """Phase 5: the Principle of Balance goes to "the highest total Influence in a single
    Objective where they did not collect a Reparation"; when nobody is above zero it goes,
    as an Objective where every total is zero does, to the first in reverse Hierarchy."""
    from engine.schonbrunn.phases.congress import resolve_congress
    from engine.schonbrunn.state import Marker

    s = table(["GB", "AUT", "RUS"])
    s.hierarchy = ["GB", "AUT", "RUS"]
    place(s, "GB", "I", [5], face_up=True)  # Great Britain collects I
    place(s, "AUT", "II", [2], face_up=True)  # Austria collects II
    place(s, "GB", "II", [1], face_up=True)  # Great Britain's 1 stays in II, with two '-1'
    s.markers = [Marker(owner="GB", objective="II", value=-1, source="t") for _ in range(2)]
    resolve_congress(s, [])
    assert any(line.endswith("by the Principle of Balance") for line in s.last_awards)
    pob = next(line for line in s.last_awards if line.endswith("by the Principle of Balance"))
    assert pob.startswith("Russia collects"), pob  # not Great Britain with -1


def test_annexation_of_territories_counts_only_the_ally_cards_under_the_nation_card():
    """Annexation of Territories: "End of the game: 1 Prestige for each Ally card under your
    Nation card" (Allies exchanged for markers go under it, Phase 6); Allies still behind the
    screen (won in the last round, or Portugal and Poland) do not count."""
    s = table(["GB", "AUT", "RUS"])
    give(s, "RUS", "annexation_of_territories")
    give(s, "RUS", "naples", where="under")
    give(s, "RUS", "portugal")  # behind the screen
    points, parts = end_points(s, "RUS")
    assert "Annexation of Territories +1" in parts


def test_plot_example():
    """Phase 3: "Prussia plots against Spain, spending 1 Reception ... It reveals the 7 of Spain:
    the 1 Reception spent ... is not enough ... the yellow player wants to plot against a green
    Delegate assigned to Objective I ... but cannot, because the Russian Delegation Head prevents
    it ... Austria spends 3 against France, reveals the blue 2 and removes it ... France reacts
    by spending 2 against a white Delegate in Objective III ... the Austrian 3 ... target hit!"""
    s = table(SIX)
    s.hierarchy, s.master, s.stage, s.queue = list(ORDER), "GB", "plot", list(ORDER)
    place(s, "ESP", "IIII", [7])
    place(s, "RUS", "I", [3])
    place(s, "FRA", "III", [2])
    place(s, "AUT", "III", [3, 4])
    adjust(s, "RUS", head="I")
    s, _ = act(s, "GB", Pass())
    s, public = act(s, "PRU", Plot(nation="Spain", objective="IIII", receptions=1))
    assert "reveals a 7: it stays, face up" in public[0]
    seven = next(d for d in s.delegates if d.owner == "ESP" and d.value == 7)
    assert (seven.place, seven.face_up) == ("IIII", True)
    assert s.players["PRU"].receptions == 4
    with pytest.raises(IllegalAction, match="Nesselrode protects"):
        act(s, "ESP", Plot(nation="RUS", objective="I", receptions=2))
    s, _ = act(s, "ESP", Pass())
    s, public = act(s, "AUT", Plot(nation="FRA", objective="III", receptions=3))
    assert "reveals a 2: removed behind its screen" in public[0]
    s, _ = act(s, "RUS", Pass())
    s, public = act(s, "FRA", Plot(nation="AUT", objective="III", receptions=2, index=1))
    assert "reveals a 3: removed" in public[0]
    assert [d.value for d in s.delegates if d.owner == "AUT" and d.place == "III"] == [4]
    assert s.stage != "plot"


@pytest.mark.parametrize(
    ("receptions", "influence_", "removed"),
    [(1, 1, True), (1, 2, False), (2, 3, True), (2, 4, False), (3, 5, True), (3, 7, False), (4, 7, True)],
)
def test_plot_thresholds(receptions, influence_, removed):
    """Phase 3: 1 Reception removes Influence 1 or less, 2 up to 3, 3 up to 5, 4 up to 7."""
    s = table(SIX)
    s.hierarchy, s.stage, s.queue = list(ORDER), "plot", ["GB"]
    value = 7 if influence_ == 7 else influence_
    owner = "ESP" if value == 7 else "AUT"
    place(s, owner, "II", [value])
    s, public = act(s, "GB", Plot(nation=owner, objective="II", receptions=receptions))
    assert ("removed behind its screen" in public[0]) is removed


def test_plot_counts_ally_markers_on_a_zero():
    """Phase 3: "a Delegate with Influence 0 always adds the Influence value that may be provided
    by the Ally markers the player owns"."""
    s = table(["GB", "AUT", "RUS"])
    s.hierarchy, s.stage, s.queue = ["GB", "AUT", "RUS"], "plot", ["GB"]
    place(s, "RUS", "II", [1])  # so that the game stops at Russia's Foreign Minister
    adjust(s, "AUT", ally_markers=[1, 2])
    place(s, "AUT", "I", [0])
    s, public = act(s, "GB", Plot(nation="AUT", objective="I", receptions=1))
    assert "it stays" in public[0]  # a 0 worth 3 resists a 1-Reception Plot


def test_chancellery_example():
    """Phase 4: "Prussia chooses to move the Spanish 7 (now face-up thanks to its previous Plot)
    to Objective I, the only other Objective in which the yellow player has assigned other
    Delegates. Austria, on the other hand, moves the red 1 from Objective V to Objective II."
    Then "Prussia assigns its Foreign Minister ... in Objective IIII by +2"."""
    s = table(SIX)
    s.hierarchy, s.master, s.stage, s.queue = list(ORDER), "GB", "move", ["PRU", "AUT"]
    adjust(s, "PRU", head="ESP")
    adjust(s, "AUT", head="GB")
    place(s, "ESP", "IIII", [7], face_up=True)
    place(s, "ESP", "I", [2, 2])
    place(s, "GB", "V", [1], face_up=True)
    place(s, "GB", "V", [3])
    place(s, "GB", "II", [2, 4])
    place(s, "PRU", "IIII", [1, 4])
    with pytest.raises(IllegalAction, match="Spain has Delegates: I"):
        act(s, "PRU", Move(objective="IIII", delegate=7, to="V"))
    s, _ = act(s, "PRU", Move(objective="IIII", delegate=7, to="I"))
    s, _ = act(s, "AUT", Move(objective="V", delegate=1, to="II"))
    assert sorted(d.value for d in s.delegates if d.owner == "GB" and d.place == "II") == [1, 2, 4]
    assert s.stage == "minister" and s.queue[0] == "GB"
    before = influence(s, "PRU", "IIII")
    s, _ = act(s, "GB", Minister())
    s, _ = act(s, "PRU", Minister(objective="IIII"))
    assert influence(s, "PRU", "IIII") == before + 2


def test_chancellery_removes_when_no_other_objective():
    """Phase 4: "if this is not possible, the chosen face-up Delegate must be removed"."""
    s = table(["GB", "AUT", "RUS"])
    s.hierarchy, s.stage, s.queue = ["GB", "AUT", "RUS"], "move", ["AUT"]
    adjust(s, "AUT", head="GB")
    place(s, "GB", "II", [3], face_up=True)
    with pytest.raises(IllegalAction, match="must be removed"):
        act(s, "AUT", Move(objective="II", delegate=3, to="I"))
    s, _ = act(s, "AUT", Move(objective="II", delegate=3, to=None))
    assert all(d.place == "supply" for d in s.delegates if d.owner == "GB")


def test_end_of_game_tie_break_example():
    """End of the Game: "Great Britain and Prussia each have 23 Prestige points, ahead of Russia
    and Austria with 22, France with 21 and Spain with only 19. Great Britain is declared the
    winner because in the last round it occupied position 6 in the Hierarchy, while Prussia
    occupied only position 3. ... Austria takes third place over Russia thanks to its position
    5 against Russia's position 2."""
    s = table(SIX)
    s.hierarchy = ["FRA", "RUS", "PRU", "ESP", "AUT", "GB"]
    for seat, p in {"GB": 23, "PRU": 23, "RUS": 22, "AUT": 22, "FRA": 21, "ESP": 19}.items():
        adjust(s, seat, prestige=p)
    assert ranking(s) == ["GB", "PRU", "AUT", "RUS", "FRA", "ESP"]
    s.stage = "over"
    assert GAME.outcome(s).winners == ["GB"]


def test_aids_example():
    """End of the Game: "Austria has the Aid Naval Blockade, the Aid Financial Loan and ... the
    Treaty Free Navigation of the Seas (which it counts as an Aid ...). This gives it 7 points
    ... with the combination that earned it 7 it could have added 4 more for a 'pair' ... Spain
    has the Aids Donation and Corruption (both of the same symbol), which earn it 4"."""
    s = table(SIX)
    for c in ("naval_blockade", "financial_loan", "free_navigation_of_the_seas"):
        give(s, "AUT", c)
    give(s, "ESP", "donation")
    give(s, "ESP", "corruption")
    assert end_points(s, "AUT")[0] == 7
    assert end_points(s, "ESP")[0] == 4
    give(s, "AUT", "popular_uprising")  # "another Aid" makes a pair with the free symbol
    assert end_points(s, "AUT")[0] == 7 + 4


@pytest.mark.parametrize(
    ("symbols", "wild", "points"),
    [
        ([], 0, 0),
        (["naval"], 0, 0),
        (["naval", "naval"], 0, 4),
        (["naval"] * 3, 0, 8),
        (["naval", "military", "commercial"], 0, 7),
        (["naval", "military", "commercial", "naval"], 0, 11),
        (["naval", "military"], 1, 7),
        ([], 2, 4),
    ],
)
def test_aid_sets(symbols, wild, points):
    """End of the Game: 7 for three different symbols; 4 for each matching Aid beyond the first."""
    assert aid_points(symbols, wild) == points
