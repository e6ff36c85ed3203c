"""Nations, Objectives and Treaties as players type them into `/schonbrunn` commands (the
console's `as alice /schonbrunn choose nation:Germany` builds the same way): no accents, any
case, a prefix or a word of the name, the Nations' common names (England for Great Britain,
Germany for Prussia); and a name that could be two Nations is refused naming both."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, matches_seat
from engine.schonbrunn import GAME
from engine.schonbrunn.actions import Activate, Bid, Choose, Commit, Head, Plot, Sign, TieBreak
from engine.schonbrunn.pieces import nation_alternatives, seat_of

from .helpers import act, adjust, give, place, table

COMMANDS = {c.name: c for c in GAME.commands}
SIX = ["GB", "AUT", "RUS", "PRU", "FRA", "ESP"]


def _build(state, seat, name, **options):
    return COMMANDS[name].build(state, seat, options)


def _auction():
    """Four players (Great Britain, Austria, Russia, Prussia) at the Auction's choosing: a
    chooses first, then d, c and b."""
    s = GAME.setup(["a", "b", "c", "d"], GAME.Options(auction=True), seed=5)
    s.master = "c"
    for seat, bid in [("a", 3), ("b", 1), ("c", 2), ("d", 3)]:
        s, _ = GAME.apply(s, seat, Bid(receptions=bid))
    assert s.choose_order == ["a", "d", "c", "b"] and s.nations_left == ["GB", "AUT", "RUS", "PRU"]
    return s


def test_the_auction_takes_a_nation_by_its_common_name():
    s = _auction()
    assert _build(s, "a", "choose", nation="Germany") == Choose(nation="PRU")
    s, _ = GAME.apply(s, "a", _build(s, "a", "choose", nation="Germany"))
    assert s.players["a"].nation == "PRU"
    assert _build(s, "d", "choose", nation="england") == Choose(nation="GB")
    s, _ = GAME.apply(s, "d", Choose(nation="United Kingdom"))  # the rules read names too
    assert s.players["d"].nation == "GB"
    s, _ = GAME.apply(s, "c", _build(s, "c", "choose", nation="Russian Empire"))
    assert s.players["c"].nation == "RUS"
    s, _ = GAME.apply(s, "b", _build(s, "b", "choose", nation="Austria-Hungary"))
    assert s.players["b"].nation == "AUT"


def test_a_nation_already_taken_or_named_twice_over_is_refused():
    s = _auction()
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, "a", _build(s, "a", "choose", nation="Empire"))
    assert str(refused.value) == "`Empire` could be Austria or Russia: type more of the name."
    s, _ = GAME.apply(s, "a", _build(s, "a", "choose", nation="Prussia"))
    with pytest.raises(IllegalAction, match="^Choose one of: Great Britain, Austria, Russia.$"):
        GAME.apply(s, "d", _build(s, "d", "choose", nation="Germany"))
    six = table(SIX)
    with pytest.raises(IllegalAction, match="`E` could be Great Britain or Spain: type more"):
        seat_of(six, "E")  # England, España


def test_a_tie_is_broken_and_a_treaty_signed_by_names_as_typed():
    s = table(SIX)
    give(s, "ESP", "free_city_of_krakow")
    s.master = "AUT"
    for seat, value in [("GB", 0), ("AUT", 1), ("RUS", 2), ("PRU", 0), ("FRA", 3), ("ESP", 1)]:
        s, _ = act(s, seat, Commit(delegate=value))
    first = _build(s, "AUT", "tiebreak", order="England, Germany")
    assert first == TieBreak(order=["GB", "PRU"])
    s, _ = act(s, "AUT", first)
    s, _ = act(s, "AUT", _build(s, "AUT", "tiebreak", order="spain, Austrian Empire"))
    assert s.hierarchy == ["GB", "PRU", "ESP", "AUT", "RUS", "FRA"]
    assert (s.stage, s.queue[0]) == ("sign", "ESP")
    sign = _build(s, "ESP", "sign", treaties="Krakow")  # Free City of Kraków
    assert sign == Sign(treaties=["free_city_of_krakow"])
    s, _ = act(s, "ESP", sign)
    assert s.players["ESP"].signed == ("free_city_of_krakow",)


def test_a_standing_order_names_its_treaty_without_the_accent():
    s = table(["GB", "AUT", "RUS"])
    give(s, "GB", "free_city_of_krakow")
    s.round, s.stage, s.queue = 1, "sign", ["GB"]
    assert GAME.standing_scope(s, "GB", "sign free city of krakow") is not None
    assert GAME.standing_action(s, "GB", "sign Free City of Krakow") == Sign(treaties=["free_city_of_krakow"])


def test_a_plot_a_head_and_markers_name_nations_and_objectives_as_typed():
    s = table(SIX)
    s.hierarchy, s.stage, s.queue = ["GB", "PRU", "ESP", "AUT", "RUS", "FRA"], "plot", ["ESP"]
    place(s, "RUS", "II", [4])
    place(s, "ESP", "I", [7])
    plot = _build(s, "ESP", "plot", nation="Russian Empire", objective="Objective 2", receptions="2")
    assert plot == Plot(nation="RUS", objective="II", receptions=2, index=1)
    s, public = act(s, "ESP", plot)
    assert public[0].startswith("Spain plots against Russia in II with 2 Receptions")

    s = table(["GB", "AUT", "RUS", "PRU", "FRA", "ESP"])
    s.stage, s.queue, s.assign_step = "assign", ["FRA"], "head"
    assert _build(s, "FRA", "head", target="England") == Head(target="GB")
    assert _build(s, "FRA", "head", target="IV") == Head(target="IIII")
    assert _build(s, "FRA", "head", target="objective iiii") == Head(target="IIII")
    assert _build(s, "FRA", "head", target="Treaties") == Head(target="IIII")  # its name (Setup)
    assert _build(s, "FRA", "head", target="legit") == Head(target="V")
    s, _ = act(s, "FRA", _build(s, "FRA", "head", target="germany"))
    assert s.players["FRA"].head == "PRU"

    s = table(["GB", "AUT", "RUS"])
    adjust(s, "RUS", signed=["union_of_genoa_with_sardinia"])
    built = _build(s, "RUS", "activate", treaty="union of genoa", pay="Foreign Minister", objective="i")
    assert built == Activate(treaty="union_of_genoa_with_sardinia", pay="minister", objective="I")
    built = _build(
        s,
        "RUS",
        "activate",
        treaty="Genoa",
        pay="minister",
        targets="England:ii, Austria-Hungary:Objective 3",
    )
    assert [(t.nation, t.objective) for t in built.targets] == [("GB", "II"), ("AUT", "III")]


def test_no_objective_is_read_as_a_nation():
    """A Head's target is an Objective or a Nation: no Nation's name, common name or word of
    one may start like an Objective's number, or `I` would stand before a screen."""
    s = table(SIX)
    for objective in s.objectives:
        assert seat_of(s, objective) is None
        assert seat_of(s, f"Objective {objective}") is None


def test_a_join_preference_names_a_nation_by_its_common_name():
    state = GAME.setup(["p1", "p2", "p3", "p4", "p5", "p6"], GAME.Options(), seed=3)
    labels = {s: GAME.seat_label(state, s) for s in state.seats}
    alternatives = nation_alternatives()
    holder = {state.players[s].nation: s for s in state.seats}

    def named(typed: str) -> list[str]:
        return [s for s, label in labels.items() if matches_seat(typed, s, label, alternatives)]

    assert named("England") == [holder["GB"]] and named("UK") == [holder["GB"]]
    assert named("Germany") == [holder["PRU"]] and named("Austria-Hungary") == [holder["AUT"]]
    assert named("Espana") == [holder["ESP"]] and named("Narnia") == []
