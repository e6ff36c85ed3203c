"""Ratings: openskill's Plackett-Luce from each finished game's ranking, per server and game."""

from __future__ import annotations

import pytest

from bot.service import ratings
from bot.store.community_rows import FinishedGame, FinishedSeat, RatingRow

from .conftest import ALICE, BOB, CAROL, GUILD, finish

DAVE = 4
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}


async def _ratings(store) -> dict[int, RatingRow]:
    rows, _ = await store.community.leaderboard(GUILD, "envoys", 0, 100)
    return {r.user_id: r for r in rows}


async def test_the_winner_gains_and_the_last_loses_from_the_starting_rating(service, store):
    await finish(service, 100, {ALICE: "alice", BOB: "bob", CAROL: "carol"})
    (game,) = await store.community.finished_games(GUILD)
    seats = await store.community.finished_seats([game.id])
    best = min(s.rank for s in seats)
    worst = max(s.rank for s in seats)
    assert best < worst, "the seeded game has a winner and a loser"
    start = ratings.MODEL.rating().ordinal()
    board = await _ratings(store)
    for s in seats:
        r = board[s.user_id]
        assert r.games == 1 and r.wins == s.win
        if s.rank == best:
            assert r.ordinal > start
        if s.rank == worst:
            assert r.ordinal < start
    assert game.counted


async def test_rebuilding_gives_exactly_the_ratings_the_updates_gave(service, store):
    lineups = [(ALICE, BOB), (BOB, CAROL, DAVE), (ALICE, CAROL), (DAVE, ALICE, BOB, CAROL), (CAROL, BOB)]
    for n, lineup in enumerate(lineups):
        await finish(service, 200 + n, {uid: NAMES[uid] for uid in lineup}, seed=11 + n)
    updated = await _ratings(store)
    assert len(updated) == 4 and sum(r.games for r in updated.values()) == 13
    assert await ratings.rebuild(store) == 4
    assert await _ratings(store) == updated  # every float equal, not only close


async def test_a_table_marked_not_rated_is_archived_but_moves_no_rating(service, store):
    await finish(service, 100, {ALICE: "alice", BOB: "bob"}, rated=False)
    (game,) = await store.community.finished_games(GUILD)
    assert not game.rated and not game.counted
    assert await _ratings(store) == {}
    await ratings.rebuild(store)
    assert await _ratings(store) == {}


async def test_only_the_host_marks_a_table_not_rated_and_only_before_the_start(service):
    community = service.community
    await service.lobby.create(100, GUILD, "envoys", ALICE, "alice")
    await service.lobby.join(100, BOB, "bob")
    with pytest.raises(Exception, match="Only the host"):
        await community.set_rated(100, BOB, False)
    await service.lobby.start(100, ALICE, seed=3)
    with pytest.raises(Exception, match="before it starts"):
        await community.set_rated(100, ALICE, False)


def _seat(seat, uid, rank, decisions, seat_decisions, automatic=0, win=0.0, auto=False):
    return FinishedSeat(seat, seat.upper(), uid, NAMES.get(uid, "auto"), rank, 0.0, decisions, 0,
                        seat_decisions, automatic, win, 0.0, auto)


def test_a_seat_played_by_two_members_counts_for_each_by_their_decisions():
    game = FinishedGame(GUILD, 1, "envoys", 0.0, 1.0, {})
    seats = [
        _seat("s1", ALICE, 1, 6, 10, win=0.6),
        _seat("s1", BOB, 1, 4, 10, win=0.4),
        _seat("s2", CAROL, 2, 10, 10),
    ]
    assert ratings.member_shares(seats) == {"s1": {ALICE: 0.6, BOB: 0.4}, "s2": {CAROL: 1.0}}
    after = {r.user_id: r for r in ratings.rate_game(game, seats, {})}
    start = ratings.MODEL.rating()
    assert after[ALICE].mu - start.mu > after[BOB].mu - start.mu > 0 > after[CAROL].mu - start.mu
    assert (after[ALICE].wins, after[BOB].wins, after[CAROL].wins) == (0.6, 0.4, 0.0)


def test_a_game_with_one_seat_mostly_played_by_a_member_moves_no_rating():
    game = FinishedGame(GUILD, 1, "envoys", 0.0, 1.0, {})
    seats = [
        _seat("s1", ALICE, 1, 10, 10),
        _seat("s2", BOB, 2, 3, 10, automatic=7),
        _seat("s2", -1, 2, 7, 10, automatic=7, auto=True),
    ]
    assert not ratings.counts(game, seats)
    assert ratings.rate_game(game, seats, {}) == []


async def test_the_rebuild_command_archives_a_finished_game_the_archive_missed(service, store, database):
    import io

    from bot.tools.ratings import rebuild_ratings

    await finish(service, 100, {ALICE: "alice", BOB: "bob"})
    updated = await _ratings(store)
    (game,) = await store.community.finished_games(GUILD)
    await finish(service, 101, {ALICE: "alice", CAROL: "carol"}, seed=9)
    # as if the second game's archive write had failed: its rows and its rating changes gone
    await store.community.replace_ratings(list(updated.values()))
    if hasattr(store, "_run"):
        await store._run(lambda c: c.execute("DELETE FROM finished_games WHERE channel_id = 101"))
    else:
        await store._pool.execute("DELETE FROM finished_games WHERE channel_id = 101")
    out = io.StringIO()
    assert await rebuild_ratings(database, out) == 0
    assert "Archived 1 missing finished game; 3 ratings rebuilt from 2 finished games." in out.getvalue()
    assert {g.channel_id for g in await store.community.finished_games(GUILD)} == {100, 101}
    assert (await _ratings(store))[CAROL].games == 1


async def test_watches_and_the_lobby_channel_are_kept_per_server(service, store):
    community = service.community
    assert "Envoys (test game)" in await community.watch(GUILD, BOB, "envoys", True)
    await community.watch(GUILD, CAROL, "envoys", True)
    await community.watch(GUILD + 1, ALICE, "envoys", True)
    assert await store.community.watchers(GUILD, "envoys") == [BOB, CAROL]
    await community.watch(GUILD, BOB, "envoys", False)
    assert await store.community.watchers(GUILD, "envoys") == [CAROL]
    await community.set_lobby(GUILD, 555)
    assert await store.community.get_lobby(GUILD) == 555 and await store.community.get_lobby(GUILD + 1) is None
    await community.set_lobby(GUILD, None)
    assert await store.community.get_lobby(GUILD) is None
