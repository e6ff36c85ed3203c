"""The archive: a finished game is recorded with its ranking and who played each seat."""

from __future__ import annotations

from bot.service.archive import tally
from bot.store import ActionRow, SeatHistoryRow

from .conftest import ALICE, BOB, CAROL, GUILD, finish


async def test_a_finished_game_is_archived_with_its_ranking_and_every_members_decisions(service, store):
    await finish(service, 100, {ALICE: "alice", BOB: "bob"})
    t = await service.load(100)
    (game,) = await store.community.finished_games(GUILD)
    assert game.channel_id == 100 and game.game == "envoys"
    assert game.outcome == t.game.outcome(t.state).model_dump(mode="json")
    seats = await store.community.finished_seats([game.id])
    assert {s.user_id for s in seats} == {ALICE, BOB}
    actions = await store.get_actions(100)
    for s in seats:
        mine = [a for a in actions if a.user_id == s.user_id]
        assert s.decisions == len(mine) == s.seat_decisions and s.decisions > 0
        assert s.missed == 0 and s.seat_automatic == 0
        standing = next(x for x in t.game.outcome(t.state).standings if x.seat == s.seat)
        assert (s.rank, s.score) == (standing.rank, standing.score)
        assert s.win == (1.0 if s.rank == 1 else 0.0)


async def test_the_archive_outlives_the_next_table_in_the_channel(service, store):
    await finish(service, 100, {ALICE: "alice", BOB: "bob"})
    await finish(service, 100, {BOB: "bob", CAROL: "carol"}, seed=8)  # the first table's row is gone
    games = await store.community.finished_games(GUILD)
    assert [len(await store.community.finished_seats([g.id])) for g in games] == [2, 2]
    assert {s.user_id for s in await store.community.finished_seats([games[1].id])} == {ALICE, BOB}


async def test_an_abandoned_game_is_not_archived(service, store):
    await service.lobby.create(100, GUILD, "envoys", ALICE, "alice")
    await service.lobby.join(100, BOB, "bob")
    await service.lobby.start(100, ALICE, seed=3)
    await service.abandon(100, ALICE)
    assert await store.community.finished_games(GUILD) == []


def _row(idx, seat, user, at, channel=1):
    return ActionRow(channel, idx, seat, user, "{}", at)


def test_decisions_are_counted_for_whoever_held_the_seat_then():
    history = [
        SeatHistoryRow(1, "s1", 1, "alice", 0, 0.0, False, "start"),
        SeatHistoryRow(1, "s2", 2, "bob", 0, 0.0, False, "start"),
        SeatHistoryRow(1, "s2", 3, "carol", 3, 10.0, False, "substitute"),
        SeatHistoryRow(1, "s1", 1, "alice", 5, 20.0, True, "automatic"),
    ]
    actions = [
        _row(0, "s1", 1, 60.0),
        _row(1, "s2", 2, 120.0),
        _row(2, "s2", None, 200.0),  # a deadline acted for bob: missed
        _row(3, "s2", 3, 230.0),
        _row(4, "s1", None, 240.0),  # a decision without a real choice: nobody's
        _row(5, "s1", 1, 250.0),  # the automatic player, for alice
    ]
    seats, names = tally(actions, history, forced={4})
    assert seats["s1"].decisions == {1: 1} and seats["s1"].automatic == 1 and seats["s1"].total == 2
    assert seats["s2"].decisions == {2: 1, 3: 1} and seats["s2"].missed == {2: 1} and seats["s2"].total == 3
    assert seats["s1"].seconds == {1: 60.0} and seats["s2"].seconds == {2: 60.0, 3: 30.0}
    assert names == {1: "alice", 2: "bob", 3: "carol"}


async def test_a_seat_the_automatic_player_decided_is_no_members_win(service, store):
    await service.lobby.create(100, GUILD, "envoys", ALICE, "alice")
    await service.lobby.join(100, BOB, "bob")
    await service.lobby.start(100, ALICE, seed=7)
    await service.controls.set_automatic(100, ALICE, "alice", True)  # before alice decides anything
    for _ in range(200):
        service.clock.advance(60)
        if await service.auto(100) is None:
            break
    (game,) = await store.community.finished_games(GUILD)
    seats = {(s.seat, s.user_id): s for s in await store.community.finished_seats([game.id])}
    alice = next(s for (seat, uid), s in seats.items() if uid == ALICE)
    automatic = seats[(alice.seat, -1)]
    assert alice.decisions == 0 and alice.win == 0.0
    assert automatic.automatic and automatic.decisions == alice.seat_decisions == alice.seat_automatic > 0
    assert not game.counted  # only one seat was mostly a member's
