"""`python -m bot migrate`: an SQLite community moved to PostgreSQL, row for row, and proved."""

from __future__ import annotations

import asyncio
import io
import random

from bot.__main__ import main
from bot.service.outbox import Outbox, Post, outbox_row
from bot.service.tables import TableService
from bot.store import ActionRow, EventRow, NoticeRow, open_store
from bot.store.community_rows import AbandonedSeat, FinishedGame, FinishedSeat, LobbyEntry, RatingRow
from bot.store.front_rows import LiveNotice
from engine import games

CRISIS, ORIGINS, LOBBY = 10, 11, 12


async def _community(path) -> None:
    """Two running games with moves, a substitute, preferences and a closed DM; and a lobby."""
    store = await open_store(path)
    service = TableService(store, clock=lambda: 1_800_000_000.0)
    try:
        for channel, game, players in ((CRISIS, "crisis1914", 3), (ORIGINS, "origins", 4)):
            await service.lobby.create(channel, 9, game, 1, "anna")
            for uid in range(2, players + 1):
                await service.lobby.join(channel, uid, f"player{uid}")
            await service.lobby.start(channel, 1, seed=channel)
            g = games.get(game)
            for i in range(12):  # a few of the automatic player's moves, typed as members would
                state = g.load_state((await store.get_table(channel)).state)
                prompt = g.prompts(state)[0]
                user = next(s.user_id for s in await store.get_seats(channel) if s.seat == prompt.seat)
                await service.act(channel, user, g.bot_action(state, prompt.seat, random.Random(i)))
        await service.controls.substitute(CRISIS, 1, "s2", 77, "zoe")
        await service.lobby.create(LOBBY, 9, "origins", 5, "eve")
        await service.notifications.set_notify(2, mode="mention", timezone="Europe/Vienna", quiet_hours="22-07")
        await store.set_dm_closed(3, True, 1_800_000_000.0)
        await store.set_heartbeat(1_800_000_000.0)
        await _server_rows(store)
    finally:
        await store.close()


async def _server_rows(store) -> None:
    """The server's games and what is still to be said: one row or more of each table."""
    game = FinishedGame(9, 40, "origins", 1.0, 2.0, {"reason": "r", "standings": []}, "r", True, True, 555)
    seats = [FinishedSeat("s1", "France", 1, "anna", 1, 12.0, 30, 1, 30, 0, 1.0, 60.0)]
    await store.community.record_finished(game, seats, [RatingRow(9, "origins", 1, "anna", 27.0, 7.5, 4.5, 1, 1.0)])
    await store.community.set_hidden(2, True, 1.0)
    await store.community.set_watch(9, "origins", 3, True)
    await store.community.set_lobby(9, 99, 1.0)
    await store.community.set_lobby_entry(LobbyEntry(LOBBY, 5.0, 9, 99, 1234, True))
    await store.community.record_abandoned([AbandonedSeat(9, 41, 3.0, "crisis1914", 2, 4.0)])
    out = Outbox(CRISIS, posts=[Post(to="channel", kind="notice", text="still to be said")])
    await store.add_outbox([outbox_row(out, 1_800_000_000.0)])
    await store.outbox_done([], [NoticeRow(CRISIS, 2, 1_800_000_060.0, '{"texts": ["Your turn."]}')])
    await store.put_live_notice(LiveNotice(CRISIS, 3, 500, 501, "Your turn.", "s3", decided=True))


async def _everything(database) -> dict:
    store = await open_store(database)
    try:
        out = {}
        for channel in (CRISIS, ORIGINS, LOBBY):
            out[channel] = (
                await store.get_table(channel),
                await store.get_seats(channel),
                await store.get_actions(channel),
                await store.get_all_events(channel),
                await store.get_deadlines(channel),
                await store.get_seat_history(channel),
            )
        out["prefs"] = [await store.get_notify(u) for u in (1, 2, 3)]
        out["dm"] = [await store.is_dm_closed(u) for u in (1, 2, 3)]
        out["beat"] = await store.get_heartbeat()
        out["archive"] = await store.community.finished_in_order()
        out["ratings"] = await store.community.leaderboard(9, "origins", 0, 10)
        out["members"] = (await store.community.is_hidden(2), await store.community.watchers(9, "origins"), await store.community.get_lobby(9))
        out["sign-ups"] = (await store.community.get_lobby_entry(LOBBY), await store.community.member_abandoned_games(2))
        out["to say"] = (await store.outbox_waiting(), await store.turn_notices())
        out["notices sent"] = await store.get_live_notices(CRISIS)
        return out
    finally:
        await store.close()


def test_migrate_copies_every_row_and_every_game_replays_on_the_copy(tmp_path, postgres_server):
    source = tmp_path / "community.sqlite3"
    asyncio.run(_community(source))
    target = postgres_server.new_database()
    out = io.StringIO()
    assert main(["migrate", "--from", str(source), "--to", target], stdout=out) == 0
    assert "Every started game replays on the copy (2 games): OK." in out.getvalue()
    before, after = asyncio.run(_everything(source)), asyncio.run(_everything(target))
    assert after == before
    assert len(after[CRISIS][2]) == 12 and after[CRISIS][5]  # moves and a substitute were copied
    assert after["archive"] and after["ratings"][1] == 1 and after["to say"][1]  # and the rest
    assert after["notices sent"][0].decided  # SQLite's 1 is PostgreSQL's true


def test_events_written_after_the_move_come_after_the_copied_ones(tmp_path, postgres_server):
    source = tmp_path / "community.sqlite3"
    asyncio.run(_community(source))
    target = postgres_server.new_database()
    assert main(["migrate", "--from", str(source), "--to", target], stdout=io.StringIO()) == 0

    async def write_one_more():
        store = await open_store(target)
        try:
            table = await store.get_table(ORIGINS)
            await store.save(
                table,
                table.version,
                actions=[ActionRow(ORIGINS, 999, "s1", 1, "{}", 0.0)],
                events=[EventRow(ORIGINS, 999, None, "note", "after the move", 0.0)],
            )
            return [e.text for e in await store.get_all_events(ORIGINS)]
        finally:
            await store.close()

    assert asyncio.run(write_one_more())[-1] == "after the move"


def test_a_target_that_holds_tables_is_refused_unless_replace_is_given(tmp_path, postgres_server, capsys):
    source = tmp_path / "community.sqlite3"
    asyncio.run(_community(source))
    target = postgres_server.new_database()
    assert main(["migrate", "--from", str(source), "--to", target], stdout=io.StringIO()) == 0
    assert main(["migrate", "--from", str(source), "--to", target], stdout=io.StringIO()) == 2
    assert "the target database is not empty (3 tables" in capsys.readouterr().err
    assert main(["migrate", "--from", str(source), "--to", target, "--replace"], stdout=io.StringIO()) == 0
    assert asyncio.run(_everything(target)) == asyncio.run(_everything(source))


def test_migrate_refuses_a_missing_file_and_a_target_that_is_not_postgresql(tmp_path, capsys):
    assert main(["migrate", "--from", str(tmp_path / "none.sqlite3"), "--to", "postgresql://x@127.0.0.1:1/x"]) == 2
    assert "no such SQLite database" in capsys.readouterr().err
    assert main(["migrate", "--from", str(tmp_path / "a.sqlite3"), "--to", str(tmp_path / "b.sqlite3")]) == 2
    assert "--to must be a postgresql:// URL" in capsys.readouterr().err


def test_every_table_of_the_schema_is_copied(tmp_path):
    """A table added by a later migration and left out of the copy fails here."""
    import sqlite3

    from bot.tools.migrate import COPIED

    async def made() -> None:  # every migration run
        await (await open_store(tmp_path / "empty.sqlite3")).close()

    asyncio.run(made())
    with sqlite3.connect(tmp_path / "empty.sqlite3") as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names - {"schema_version", "heartbeat", "sqlite_sequence"} == set(COPIED)
