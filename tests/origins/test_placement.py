"""§4 and Phase 4: secret simultaneous placement sheets."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.origins import GAME
from engine.origins.placement import parse_sheet
from engine.origins.state import Sheet

from .helpers import finish_bidding, new_game, position, submit_all


def _placing(players=5, seed=2, last=False):
    state = finish_bidding(new_game(players, seed))
    state.last_turn = last
    return state


def _set(state, seat, kind, country, embassy, amount):
    return GAME.apply(state, seat, {"kind": kind, "country": country, "embassy": embassy, "amount": amount})


def test_every_seat_is_prompted_at_once_in_secret():
    state = _placing()
    prompts = GAME.prompts(state)
    assert {p.seat for p in prompts} == set(state.seats)
    assert all(p.simultaneous for p in prompts)


def test_at_most_five_per_embassy_even_at_home():
    state = _placing()
    seat = state.holders["GER"]
    with pytest.raises(IllegalAction, match="at most 5 PFs in each embassy"):
        _set(state, seat, "place", "GER", "SER", 6)
    with pytest.raises(IllegalAction, match="at most 5 PFs in each embassy"):
        _set(state, seat, "place", "GER", "GER", 6)
    state, events = _set(state, seat, "place", "GER", "SER", 5)
    assert events[0].audience == seat and "SER 5" in events[0].text  # the sheet is shown back


def test_ten_per_embassy_in_the_last_turn():
    """Phase 2: 'each country may place 10 PFs maximum instead of 5 PFs in each Embassy'."""
    state = _placing(last=True)
    seat = state.holders["GER"]
    state, _ = _set(state, seat, "place", "GER", "SER", 10)
    with pytest.raises(IllegalAction, match="at most 10"):
        _set(state, seat, "place", "GER", "ROM", 11)


def test_placements_come_from_income_and_the_own_embassy_only():
    state = _placing()
    position(state, {"GER": {"GER": 3}, "SER": {"GER": 8}})
    seat = state.holders["GER"]
    sheet = {"place": {"ROM": 5, "BUL": 5, "GRE": 5, "FE": 5}}  # 20 > 16 income + 3 at home
    with pytest.raises(IllegalAction, match="has 19 PFs to place"):
        GAME.apply(state, seat, {"kind": "submit", "sheets": {"GER": sheet}})
    sheet = {"place": {"ROM": 5, "BUL": 5, "GRE": 5, "FE": 4}}
    state, _ = submit_all(state, {"GER": sheet})
    assert state.at("GER", "GER") == 0 and state.at("SER", "GER") == 8
    assert [state.at(e, "GER") for e in ("ROM", "BUL", "GRE", "FE")] == [5, 5, 5, 4]


def test_unplaced_income_goes_home_up_to_five_and_the_rest_is_eliminated():
    state = _placing()
    state, _ = submit_all(state, {"GER": {"place": {"SER": 5}}})
    # Germany: 16 income, 5 placed, 5 of the remaining 11 go home, 6 are lost
    assert state.at("SER", "GER") == 5 and state.at("GER", "GER") == 5
    assert state.ledger["GER"].eliminated == 6
    # an empty sheet: 10 home for Russia would be 5 home and 5 lost
    assert state.at("RUS", "RUS") == 5 and state.ledger["RUS"].eliminated == 5
    assert GAME.invariants(state) == []


def test_ten_new_pfs_home_in_the_last_turn():
    state = _placing(last=True)
    state, _ = submit_all(state)
    assert state.at("GER", "GER") == 10 and state.ledger["GER"].eliminated == 6


def test_a_country_may_eliminate_up_to_five_of_its_own_pfs_per_embassy():
    """Phase 4 'Eliminating own's PFs'."""
    state = _placing()
    position(state, {"SER": {"RUS": 12}, "ROM": {"RUS": 3}})
    seat = state.holders["RUS"]
    with pytest.raises(IllegalAction, match="at most 5"):
        _set(state, seat, "remove", "RUS", "SER", 6)
    with pytest.raises(IllegalAction, match="at most 3"):
        _set(state, seat, "remove", "RUS", "ROM", 4)
    with pytest.raises(IllegalAction, match="at most 0"):
        _set(state, seat, "remove", "RUS", "BUL", 1)
    state, _ = submit_all(state, {"RUS": {"remove": {"SER": 5, "ROM": 3}}})
    assert state.at("SER", "RUS") == 7 and state.at("ROM", "RUS") == 0
    assert "RUS" not in state.treaties.get("SER", [])  # treaty rights go below 10 (§8)


def test_sheets_are_secret_until_all_are_in_then_revealed_together():
    state = _placing()
    ger = state.holders["GER"]
    state, events = _set(state, ger, "place", "GER", "SER", 5)
    assert all(e.audience == ger for e in events)
    assert "sheet: Serbia 5" in GAME.describe(GAME.view(state, ger))  # in full
    public = GAME.view(state, None)
    assert public.you is None and "SER" not in public.board
    other = next(s for s in state.seats if s != ger)
    assert "SER 5" not in str(GAME.view(state, other))
    state, events = GAME.apply(state, ger, {"kind": "submit"})
    assert [e.text for e in events] == ["Germany has handed in its sheet."]
    assert GAME.view(state, None).submitted == ("GER",)
    rest = [s for s in state.seats if s != ger]
    for seat in rest[:-1]:
        state, _ = GAME.apply(state, seat, {"kind": "submit"})
        assert state.at("SER", "GER") == 0  # nothing happens before the last sheet
    state, events = GAME.apply(state, rest[-1], {"kind": "submit"})
    reveal = next(e for e in events if e.kind == "sheets_revealed")
    assert reveal.public and reveal.reveals and "Germany: Serbia 5" in reveal.text
    assert state.at("SER", "GER") == 5
    public = GAME.view(state, None)
    assert public.last_sheets is not None and public.last_sheets["GER"] == "SER 5"
    assert public.board["SER"] == {"GER": 5}


def test_a_sheet_cannot_be_changed_after_it_is_handed_in():
    state = _placing()
    seat = state.holders["UK"]
    state, _ = GAME.apply(state, seat, {"kind": "submit"})
    with pytest.raises(IllegalAction, match="owe no decision"):
        _set(state, seat, "place", "UK", "FE", 3)


def test_a_missed_deadline_hands_in_the_sheet_as_written():
    """The default order hands in the draft as it stands (it used to
    throw it away and hand in an empty sheet); a seat that wrote nothing hands in an empty one."""
    state = _placing()
    seat = state.holders["UK"]
    state, _ = _set(state, seat, "place", "UK", "FE", 3)
    default = GAME.default_action(state, seat)
    state, _ = GAME.apply(state, seat, default)
    for other in state.seats:
        if other != seat:
            state, _ = GAME.apply(state, other, GAME.default_action(state, other))
    assert state.at("FE", "UK") == 3  # the empty sheet left it at 0
    last_sheets = GAME.view(state, None).last_sheets
    assert last_sheets is not None and last_sheets["UK"] == "FE 3"


def test_one_line_sheet():
    assert parse_sheet("SER 5, ROM 3, FE 2") == Sheet(place={"SER": 5, "ROM": 3, "FE": 2})
    assert parse_sheet("serbia 5; Far East 2, -GER 2, AH -1") == Sheet(
        place={"SER": 5, "FE": 2}, remove={"GER": 2, "AH": 1}
    )
    assert parse_sheet("Austria-Hungary 4") == Sheet(place={"AH": 4})
    assert parse_sheet("  ") == Sheet()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("SRB 5", "No embassy called 'SRB'"),
        ("SER five", "write an embassy and a number"),
        ("5", "write an embassy and a number"),
        ("SER 5, SER 2", "written twice"),
    ],
)
def test_one_line_sheet_errors(line, message):
    with pytest.raises(IllegalAction, match=message):
        parse_sheet(line)


def test_one_line_sheet_replaces_the_draft_and_is_checked():
    state = _placing()
    seat = state.holders["FRA"]
    state, events = GAME.apply(
        state, seat, {"kind": "sheet", "country": "FRA", "text": "RUS 5, UK 5, -FRA 0"}
    )
    assert state.drafts["FRA"].place == {"RUS": 5, "UK": 5}
    assert "RUS 5, UK 5" in events[0].text
    with pytest.raises(IllegalAction, match="at most 5"):
        GAME.apply(state, seat, {"kind": "sheet", "country": "FRA", "text": "RUS 6"})


def test_an_entry_over_the_cap_is_refused_when_written_and_the_draft_is_kept():
    """Phase 4 caps new PFs at 5 (10 in the last turn) per embassy. The digital sheet refuses
    an entry over the cap when it is written, however it is written (one entry, a sheet
    line, sheets handed in at once), says what to write instead and keeps the draft as it
    was (docs/rulings.md, Origins 12)."""
    state = _placing()
    seat = state.holders["GER"]
    state, _ = _set(state, seat, "place", "GER", "SER", 3)
    tries = [
        {"kind": "place", "country": "GER", "embassy": "SER", "amount": 8},
        {"kind": "sheet", "country": "GER", "text": "SER 8, ROM 2"},
        {"kind": "submit", "sheets": {"GER": {"place": {"SER": 8}}}},
    ]
    for action in tries:
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, seat, action)
        message = str(refused.value)
        assert "at most 5 PFs in each embassy this turn, not 8 in Serbia" in message
        assert "Write 5 or less there" in message and "go home (up to 5" in message
        assert state.drafts["GER"] == Sheet(place={"SER": 3}) and seat not in state.submitted


def _by_the_text(income: int, written: dict[str, int], cap: int) -> tuple[dict[str, int], int, int]:
    """Phase 4 as printed, for a sheet paid from this turn's income: each embassy receives at
    most the cap; PFs not assigned and PFs assigned in excess go home up to the cap; the rest
    is eliminated. Returns (placed, home, eliminated)."""
    placed = {e: min(n, cap) for e, n in written.items()}
    excess = sum(n - placed[e] for e, n in written.items())
    going_home = income - sum(written.values()) + excess
    return placed, min(going_home, cap), going_home - min(going_home, cap)


@pytest.mark.parametrize(
    ("last", "written"),
    [
        (False, {"SER": 8}),
        (False, {"SER": 7, "ROM": 6}),
        (False, {"SER": 16}),
        (False, {"SER": 6, "ROM": 5, "BUL": 5}),
        (True, {"SER": 14}),
        (True, {"SER": 12, "FE": 4}),
    ],
)
def test_writing_an_over_cap_entry_at_the_cap_has_the_rulebooks_effect(last, written):
    """What a refused player does, writing the cap and leaving the rest unplaced, places and
    sends home (or eliminates) exactly what Phase 4 does with the entry written over the cap:
    refusing at entry costs nothing the rulebook would have given."""
    state = _placing(last=last)
    if last:
        state.turn = 9  # a last turn is July 1914 at the earliest
    cap = 10 if last else 5
    income = state.unplaced["GER"]
    assert sum(written.values()) <= income  # the sheets are paid from this turn's income
    placed, home, eliminated = _by_the_text(income, written, cap)
    seat = state.holders["GER"]
    line = ", ".join(f"{e} {n}" for e, n in placed.items())
    state, events = GAME.apply(state, seat, {"kind": "sheet", "country": "GER", "text": line})
    goes = "goes" if home == 1 else "go"
    assert f"{home} {goes} home, {eliminated} eliminated" in events[0].text  # the echo says where the rest goes
    state, _ = submit_all(state, {"GER": state.drafts["GER"].model_dump()})
    assert {e: state.at(e, "GER") for e in placed} == placed
    assert state.at("GER", "GER") == home and state.ledger["GER"].eliminated == eliminated
    assert GAME.invariants(state) == []
