"""§9: victory points from national objectives, specials, doubling and the winner."""

from __future__ import annotations

from engine.origins import GAME, content, scoring

from .helpers import new_game, position


def _objective(power, location, exclusive=False):
    """A reconstructed value, read from the content so these tests follow a
    rebalance; the rulebook's printed values stay written out below."""
    for o in content.objectives().objectives:
        if (o.power, o.location) == (power, location):
            return o.exclusive if exclusive and o.exclusive is not None else o.points
    raise KeyError((power, location))


def _special(power):
    return next(s.points for s in content.objectives().specials if s.power == power)


def _vps(pfs, players=5):
    state = position(new_game(players, 1), pfs)
    return scoring.country_vps(state)


def test_example_united_kingdom_far_east_exclusive_treaty_rights():
    """§9: 'if at the end of the game, United Kingdom is the only nation with treaty rights
    from the Far East, United Kingdom receives 5 points. If however, any other nation also
    has treaty rights from the Far East, United Kingdom receives only 2 points.'"""
    alone = _vps({"FE": {"UK": 10, "RUS": 9}})
    shared = _vps({"FE": {"UK": 10, "RUS": 10}})
    assert alone["UK"] - _vps({})["UK"] == 5
    assert shared["UK"] - _vps({})["UK"] == 2


def test_treaty_rights_score_the_national_objectives():
    vps = _vps(
        {"ITA": {"UK": 10}, "GRE": {"UK": 11}, "TUR": {"UK": 12}, "AH": {"GER": 10}, "SER": {"GER": 10}}
    )
    assert vps["UK"] == 3 + 1 + 2 + 5  # Italy, Greece, Turkey, and nobody above 14 (special)
    # Austria-Hungary; Serbia is not a German objective; the UK holds no major (special)
    assert vps["GER"] == 4 + _special("GER")


def test_the_united_kingdom_special_is_scored_last_against_every_other_total():
    """§6 Phase 6: the United Kingdom receives 5 VPs if no other nation has more than 14,
    and is the last country to determine its VPs."""
    russia_high = {"SER": {"RUS": 10}, "ROM": {"RUS": 10}, "BUL": {"RUS": 10}, "GRE": {"RUS": 10}}
    russia_high |= {"TUR": {"RUS": 10}, "FE": {"RUS": 10}}
    high = sum(_objective("RUS", loc, exclusive=True) for loc in russia_high)
    assert high > 14, "the test needs Russia above the United Kingdom's threshold"
    vps = _vps(russia_high)
    assert vps["RUS"] == high and vps["UK"] == 0
    # Russia's objectives, fewest first, until one more would pass 14: exactly at or below it
    russia_low, total = {}, 0
    for loc in sorted(russia_high, key=lambda loc: _objective("RUS", loc, exclusive=True)):
        if total + _objective("RUS", loc, exclusive=True) > 14:
            break
        russia_low[loc], total = russia_high[loc], total + _objective("RUS", loc, exclusive=True)
    vps = _vps(russia_low)
    assert vps["RUS"] == total <= 14 and vps["UK"] == 5


def test_france_scores_while_germany_has_no_treaty_rights_with_a_major_country():
    """Designer's notes: France and Germany only need to keep their enemy (Germany, the
    United Kingdom) from treaty rights with major, player-held countries."""
    base = _vps({})
    assert base["FRA"] == _special("FRA") and base["GER"] == _special("GER")
    minor = _vps({"SER": {"GER": 10}})
    assert minor["FRA"] == _special("FRA")
    major = _vps({"RUS": {"GER": 10}})
    assert major["FRA"] == 0 and major["GER"] == _special("GER") + _objective("GER", "RUS")
    uk = _vps({"FRA": {"UK": 10}})
    assert uk["GER"] == 0


def test_four_players_the_single_country_players_are_doubled():
    """§9: 'In a game where some players control two countries and others a single country
    (i.e. a 4 players game) the single players VPs are doubled.' The §1 table gives the
    single countries as the United Kingdom and Turkey."""
    state = new_game(4, 1)
    doubled = scoring.doubled_seats(state)
    assert doubled == {state.holders["UK"], state.holders["TUR"]}
    vps = dict.fromkeys(state.holders, 0) | {"UK": 6, "RUS": 4, "FRA": 3}
    scores = scoring.seat_scores(state, vps)
    assert scores[state.holders["UK"]] == 12
    assert scores[state.holders["RUS"]] == 7  # a player's countries are added, not doubled


def test_four_players_italy_doubles_the_united_kingdom_and_italy():
    """§9 with the table option four_players_italy: the single countries are the United
    Kingdom and Italy, and they are the ones doubled (Turkey is only an embassy)."""
    state = new_game(4, 1, four_players_italy=True)
    assert "TUR" not in state.holders
    assert scoring.doubled_seats(state) == {state.holders["UK"], state.holders["ITA"]}
    vps = dict.fromkeys(state.holders, 0) | {"ITA": 5, "GER": 4, "AH": 3}
    scores = scoring.seat_scores(state, vps)
    assert scores[state.holders["ITA"]] == 10 and scores[state.holders["GER"]] == 7


def test_no_doubling_when_everyone_holds_the_same_number():
    for players in (2, 3, 5, 6, 7):
        assert scoring.doubled_seats(new_game(players, 1)) == set()


def test_ties_share_the_win():
    assert scoring.ranks({"a": 9, "b": 9, "c": 4}, margin_rule=False) == {"a": 1, "b": 1, "c": 3}


def test_optional_rule_a_win_needs_three_vps_more_than_the_second():
    """§9 optional rule: otherwise there is a tie."""
    assert scoring.ranks({"a": 10, "b": 8, "c": 5}, margin_rule=True) == {"a": 1, "b": 1, "c": 3}
    assert scoring.ranks({"a": 11, "b": 8, "c": 5}, margin_rule=True) == {"a": 1, "b": 2, "c": 3}
    assert scoring.ranks({"a": 10, "b": 8, "c": 5}, margin_rule=False) == {"a": 1, "b": 2, "c": 3}


def test_outcome_reports_each_players_countries_and_the_doubling():
    state = position(new_game(4, 2), {"FE": {"UK": 10}})
    state.phase = "over"
    state.turn = 9
    state.final = scoring.country_vps(state)
    result = GAME.outcome(state)
    uk = next(s for s in result.standings if s.seat == state.holders["UK"])
    assert uk.score == 2 * state.final["UK"] and "doubled" in uk.detail
    assert result.winners == [state.holders["UK"]]


def test_margin_rule_is_a_table_option():
    state = new_game(5, 1, margin_rule=True)
    assert state.margin_rule is True


def test_figures_report_length_winners_and_final_vps():
    from engine.core.playout import play_out

    result = play_out(GAME, 5, 3)
    figures = GAME.figures(result.state)
    assert figures["turns"] == result.state.turn + 1
    assert {k for k in figures if k.startswith("vps_")} == {f"vps_{c}" for c in result.state.holders}
    winners = {c for s in result.outcome.winners for c in result.state.countries_of(s)}
    assert {k[4:] for k in figures if k.startswith("won_")} == winners
