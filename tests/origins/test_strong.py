"""The strong automatic player of Origins (engine/origins/strong.py): it decides
from its own seat's view only, every decision is legal, and it beats the basic player and
the simple exploits."""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalAction
from engine.core.fast import clone
from engine.core.players import players as named_players
from engine.core.playout import play_out
from engine.core.search import Search, Strength
from engine.origins import GAME, bots, placement
from engine.origins.actions import Submit

pytestmark = pytest.mark.slow

KNOWLEDGE = GAME.knowledge()


def _states(players: int, seed: int, every: int = 1):
    """The states of a game the basic players play, every `every`-th decision."""
    state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(), seed)
    rng = random.Random(seed)
    k = 0
    while GAME.outcome(state) is None:
        seat = GAME.prompts(state)[0].seat
        if k % every == 0:
            yield state, seat
        action = bots.choose(state, seat, rng)
        GAME.play(state, seat, action, rng)
        state.step += 1
        k += 1


def _last_sheet_to_write(players: int, seed: int, turn: int):
    """A copy of a Phase 4 of `turn` where every other player has handed in its sheets
    (the basic player's) and the last seat is still to write its own."""
    for state, seat in _states(players, seed):
        if state.phase == "placement" and state.turn >= turn and len(state.submitted) == players - 1:
            return clone(state), seat
    raise AssertionError("no such Phase 4")


@pytest.mark.parametrize(("players", "seed", "turn"), [(3, 1, 2), (5, 2, 4), (7, 3, 1)])
def test_a_determinization_reads_only_the_seats_view_and_deals_the_others_sheets_afresh(players, seed, turn):
    state, seat = _last_sheet_to_write(players, seed, turn)
    other = GAME.vary_hidden(state, seat, random.Random(seed))
    other.seed = state.seed + 1  # the seed behind future dice is hidden too
    assert GAME.view(other, seat) == GAME.view(state, seat)
    assert other.drafts != state.drafts
    one, two = (KNOWLEDGE.determinize(s, seat, random.Random(4)) for s in (state, other))
    assert one == two
    assert one.seed != state.seed
    # the other players' sheets are written again from the public board; the seat's own stay
    theirs = [c for c, s in state.holders.items() if s != seat]
    assert any(one.drafts.get(c) != state.drafts.get(c) for c in theirs)
    assert all(one.drafts.get(c) == state.drafts.get(c) for c in state.countries_of(seat))
    for country in theirs:
        placement.check_sheet(one, country, one.drafts[country])


@pytest.mark.parametrize(("players", "seed", "turn"), [(3, 5, 1), (5, 6, 3), (6, 7, 2)])
def test_two_states_that_differ_only_in_the_others_sheets_give_the_same_decision(players, seed, turn):
    state, seat = _last_sheet_to_write(players, seed, turn)
    other = GAME.vary_hidden(state, seat, random.Random(seed))
    other.seed = state.seed + 1
    assert GAME.view(other, seat) == GAME.view(state, seat) and other.drafts != state.drafts
    search = Search(KNOWLEDGE, Strength(iterations=40))
    decisions = [search.decide(s, seat, random.Random(7)) for s in (state, other)]
    assert decisions[0] == decisions[1]


def _legal(state, seat, action) -> bool:
    if isinstance(action, Submit):  # Phase 4 lists only Submit: the sheets must pass the rules
        if not GAME.legal_actions(state, seat):
            return False
        try:
            for country, sheet in (action.sheets or {}).items():
                assert state.holders[country] == seat
                placement.check_sheet(state, country, sheet)
        except IllegalAction:
            return False
        return True
    return action in GAME.legal_actions(state, seat)


def test_the_candidates_are_legal_choices_and_offer_several_sheets():
    several = 0
    for players, seed in ((2, 8), (4, 9), (7, 10)):
        for state, seat in _states(players, seed, every=2):
            options = KNOWLEDGE.candidates(KNOWLEDGE.determinize(state, seat, random.Random(1)), seat)
            assert options, (state.phase, seat)
            assert all(_legal(state, seat, o) for o in options), (state.phase, options)
            several += state.phase == "placement" and len(options) >= 2
    assert several >= 10


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (7, 12)])
def test_every_decision_of_a_whole_game_of_searching_players_is_legal(players, seed):
    search = Search(KNOWLEDGE, Strength(iterations=6))
    state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(), seed)
    rng = random.Random(seed)
    decisions = 0
    while GAME.outcome(state) is None:
        seat = GAME.prompts(state)[0].seat
        action = search.decide(state, seat, rng)
        assert _legal(state, seat, action), (state.phase, action)
        state, _ = GAME.apply(state, seat, action)
        decisions += 1
    assert decisions > 50 and GAME.invariants(state) == []


def test_the_exploits_are_named_players():
    named = named_players(GAME)
    assert {"quick", "strong", "deep", "basic", "defaults", "attacker", "passive"} <= set(named)
    # the attacker attacks whenever it may, the passive player never bids nor attacks
    attacked = passive_acts = 0
    for state, seat in _states(5, 13):
        if state.phase == "attacks" and len(GAME.legal_actions(state, seat)) > 1:
            assert named["attacker"](state, seat, random.Random(1)).kind == "attack"
            assert named["passive"](state, seat, random.Random(1)).kind == "done"
            attacked += 1
        if state.phase == "bidding":
            assert named["passive"](state, seat, random.Random(1)).kind == "pass"
            passive_acts += 1
    assert attacked >= 5 and passive_acts >= 5


def _share(policy, others, players: int, games: int, base: int) -> float:
    """The policy's share of the wins, in one seat turned each game, the others `others`."""
    won = 0.0
    for g in range(games):
        seats = [f"s{i + 1}" for i in range(players)]
        me = seats[g % players]
        result = play_out(
            GAME, players, base + g, seat_policies={s: (policy if s == me else others) for s in seats}
        )
        winners = result.outcome.winners
        won += 1 / len(winners) if me in winners else 0.0
    return won / games


def test_a_tables_strong_seat_plays_the_best_measured_origins_player(strong_automatic_seats):
    """Until the search beats the basic player in the ladder (docs/balance/origins.md,
    the strength ladder), a table's "strong" and "quick" Origins seats play the best measured player,
    one the players know by name; "basic" stays basic."""
    from bot.service.automatic import BEST_FOR, name_for

    best = BEST_FOR["origins"]
    assert name_for(GAME, "strong") == name_for(GAME, "quick") == best
    assert best in named_players(GAME) and best not in ("random", "defaults", "attacker", "passive")
    assert name_for(GAME, "basic") == "basic"


def test_the_endgame_player_bids_only_on_the_last_turn_and_only_for_the_bottom():
    from engine.origins import planner
    from engine.origins.actions import Bid, Pass

    endgame = named_players(GAME)["endgame"]
    bids = 0
    for players, seed in ((3, 14), (5, 15), (7, 16)):
        for state, seat in _states(players, seed):
            if state.phase != "bidding":
                continue
            action = endgame(state, seat, random.Random(1))
            assert action in GAME.legal_actions(state, seat)
            if not state.last_turn or state.order[-1] in state.countries_of(seat):
                assert isinstance(action, Pass)
            elif isinstance(action, Bid):
                assert action.position == len(state.order) and action.card in state.countries_of(seat)
                assert action.amount == state.high_bid + 1 <= planner.MAX_BID
                bids += 1
    assert bids >= 2


@pytest.mark.parametrize("exploit", ["defaults", "attacker"])
def test_the_simple_exploits_stay_beaten_by_the_tables_player(exploit):
    """Deadline defaults win at most a quarter of their fair share, attacks at any odds at
    most 1.2x, against the player a table's strong seat gets (bot/service/automatic.py)."""
    from bot.service.automatic import BEST_FOR

    named = named_players(GAME)
    share = _share(named[exploit], named[BEST_FOR["origins"]], players=3, games=12, base=160)
    assert share <= (0.25 if exploit == "defaults" else 1.2) / 3


def _reserve_states(players: int, seed: int):
    """The states of a game the reserve players play (their hoards make other boards)."""
    from engine.origins import planner

    state = GAME.setup([f"s{i + 1}" for i in range(players)], GAME.Options(), seed)
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = GAME.prompts(state)[0].seat
        yield state, seat
        GAME.play(state, seat, planner.reserve_choose(state, seat, rng), rng)
        state.step += 1


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (5, 22), (7, 23)])
def test_the_reserve_player_decides_from_its_seats_view_only(players, seed):
    """Two states that differ only in what the seat cannot see (the others' sheets of this
    Phase 4 and the seed behind the dice) give the same decision from the same stream."""
    from engine.origins import planner

    checked = {"bidding": 0, "placement": 0, "attacks": 0}
    for state, seat in _reserve_states(players, seed):
        if state.phase not in checked or (state.phase == "placement" and not state.submitted):
            continue
        other = GAME.vary_hidden(state, seat, random.Random(seed))
        other.seed = state.seed + 1
        assert GAME.view(other, seat) == GAME.view(state, seat)
        if state.phase == "placement":
            assert other.drafts != state.drafts
        one, two = (planner.reserve_choose(s, seat, random.Random(7)) for s in (clone(state), other))
        assert one == two, (state.phase, state.turn)
        checked[state.phase] += 1
    assert all(n >= 3 for n in checked.values()), checked


def test_the_reserve_player_keeps_its_reserve_at_home_until_the_last_turn():
    """Before the last turn its sheets draw nothing from the own embassy and send KEEP of
    the income home (none over the home cap, so nothing is eliminated); on the last turn
    the reserve goes out at the 10-PF cap (Phase 4)."""
    from engine.origins import planner

    before = last = 0
    for players, seed in ((3, 24), (6, 25)):
        for state, seat in _reserve_states(players, seed):
            if state.phase != "placement" or seat in state.submitted:
                continue
            action = planner.reserve_choose(state, seat, random.Random(1))
            assert _legal(state, seat, action)
            for country in state.countries_of(seat):
                sheet = action.sheets[country]
                abroad = sum(n for e, n in sheet.place.items() if e != country)
                income = state.unplaced[country]
                if state.last_turn:
                    last += state.at(country, country) > 0 and abroad > income
                else:
                    assert income - placement.cap(state) <= abroad <= income - min(planner.KEEP, income)
                    before += 1
    assert before >= 20 and last >= 2


def test_the_reserve_player_beats_the_basic_player():
    """Measured at 2.3x its fair share at 3 players (docs/balance/origins.md, the strength ladder);
    in 12 games it wins at least its fair share."""
    named = named_players(GAME)
    assert _share(named["reserve"], named["basic"], players=3, games=12, base=170) >= 1 / 3
