"""Every query the directory, the leaderboards, the history and the profiles make reads an
index, on SQLite and on PostgreSQL (their query plans, over a filled archive)."""

from __future__ import annotations

import pytest

from bot.store import community_rows as base
from bot.store.community_rows import FinishedGame, FinishedSeat, RatingRow
from bot.store.postgres_community import numbered

GUILD = 9
QUERIES = {
    "leaderboard": (base.LEADERBOARD_SQL, (GUILD, "envoys", False, 10, 0)),
    "leaderboard count": (base.LEADERBOARD_COUNT_SQL, (GUILD, "envoys", False)),
    "directory": (base.DIRECTORY_SQL, (GUILD,)),
    "directory of a game": (base.DIRECTORY_GAME_SQL, (GUILD, "envoys")),
    "history": (base.HISTORY_SQL, (GUILD, 10, 0)),
    "history of a game": (base.HISTORY_GAME_SQL, (GUILD, "envoys", 10, 0)),
    "history of a member": (base.HISTORY_MEMBER_SQL, (3, GUILD, 10, 0)),
    "history of a member's game": (base.HISTORY_MEMBER_GAME_SQL, (3, GUILD, "envoys", 10, 0)),
    "profile record": (base.MEMBER_RECORD_SQL, (3, GUILD)),
    "profile ratings": (base.MEMBER_RATINGS_SQL, (3, GUILD)),
    "profile abandoned": (base.MEMBER_ABANDONED_SQL, (3, GUILD)),
    "a member's abandoned games": (base.MEMBER_ABANDONED_GAMES_SQL, (3,)),
    "a lobby entry": (base.GET_LOBBY_ENTRY_SQL, (1000,)),
}
# read in the index's order, a page at a time, never sorted whole
IN_ORDER = {"leaderboard", "history", "history of a game"}


async def _fill(store) -> None:
    """200 finished games on two servers, 20 members rated."""
    for n in range(200):
        guild = GUILD if n % 2 else GUILD + 1
        game = FinishedGame(guild, 1000 + n, "envoys", float(n), float(n + 1), {"standings": []}, "over")
        seats = [FinishedSeat(f"s{i}", f"S{i}", (n + i) % 20 + 1, "m", i, 0.0, 3, 0, 3) for i in (1, 2)]
        ratings = [RatingRow(guild, "envoys", s.user_id, "m", 25.0, 8.0, float(n), 1, 0.0) for s in seats]
        await store.community.record_finished(game, seats, ratings)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(QUERIES))
async def test_the_communitys_queries_read_an_index(store, name):
    await _fill(store)
    sql, params = QUERIES[name]
    if hasattr(store, "_run"):  # SQLite
        await store._run(lambda c: c.execute("ANALYZE"))
        rows = await store._fetch("EXPLAIN QUERY PLAN " + sql, params)
        steps = [r[3] for r in rows]
        assert not any(s.startswith("SCAN") for s in steps), steps
        assert any("INDEX" in s or "PRIMARY KEY" in s for s in steps), steps
        if name in IN_ORDER:
            assert not any("TEMP B-TREE" in s for s in steps), steps
    else:  # PostgreSQL
        async with store._pool.acquire() as conn, conn.transaction():
            # a table this small is cheaper to scan or sort: price both out, so the plan shows
            # whether an index can answer the query (in its order, for IN_ORDER)
            await conn.execute("SET LOCAL enable_seqscan = off")
            await conn.execute("SET LOCAL enable_sort = off")
            await conn.execute("ANALYZE")
            plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + numbered(sql), *params))
        assert "Seq Scan" not in plan, plan
        assert "Index" in plan, plan
        if name in IN_ORDER:
            assert "Sort" not in plan, plan
