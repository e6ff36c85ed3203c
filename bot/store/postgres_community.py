"""The community's rows in the PostgreSQL store's database (docs/architecture.md §4):
finished games, ratings, members, the table directory, watches, the lobby channel,
sign-ups and abandoned games; community.py's contract over the PostgreSQL store's pool.

Reads take any pooled connection; a write of several statements is one transaction on one
connection, as the store's own are (postgres.py). The queries both backends share
(community_rows.py) are written with SQLite's `?`; `numbered` turns them into PostgreSQL's
`$1, $2, …`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import asyncpg

from . import community_rows as community  # the community's rows and the queries both backends share
from . import forgetting, front_rows, review_rows
from .community import CommunityStore

__all__ = ["PostgresCommunityStore", "numbered"]


class PostgresCommunityStore(CommunityStore):
    """`store.community` of a PostgresStore."""

    def __init__(self, pool: asyncpg.Pool):
        self._pool = pool

    # -- finished games and ratings ------------------------------------------------------
    async def finished_recorded(self, channel_id: int, created_at: float) -> bool:
        found = await self._pool.fetchval(
            "SELECT 1 FROM finished_games WHERE channel_id=$1 AND created_at=$2", channel_id, created_at
        )
        return found is not None

    async def record_finished(
        self,
        game: community.FinishedGame,
        seats: Sequence[community.FinishedSeat],
        ratings: Sequence[community.RatingRow],
    ) -> int | None:
        columns = community.FINISHED_SEAT_COLUMNS.replace("game_id, ", "game, game_id, ")
        async with self._pool.acquire() as conn, conn.transaction():
            game_id = await conn.fetchval(
                "INSERT INTO finished_games (guild_id, channel_id, game, created_at, finished_at, outcome, "
                "reason, rated, counted, message_id) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) "
                "ON CONFLICT (channel_id, created_at) DO NOTHING RETURNING id",
                game.guild_id,
                game.channel_id,
                game.game,
                game.created_at,
                game.finished_at,
                json.dumps(game.outcome),
                game.reason,
                game.rated,
                game.counted,
                game.message_id,
            )
            if game_id is None:
                return None
            await conn.executemany(
                f"INSERT INTO finished_seats (guild_id, {columns}) VALUES ({_marks(16)})",
                [(game.guild_id, game.game, game_id, *community.seat_values(s)) for s in seats],
            )
            await self._upsert_ratings(conn, ratings)
            return game_id

    @staticmethod
    async def _upsert_ratings(conn: asyncpg.Connection, ratings: Sequence[community.RatingRow]) -> None:
        if not ratings:
            return
        await conn.executemany(
            f"INSERT INTO ratings ({community.RATING_COLUMNS}, hidden) VALUES ({_marks(9)}, "
            "COALESCE((SELECT hidden FROM community_members WHERE user_id=$3), FALSE)) "
            "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name=excluded.name, mu=excluded.mu, "
            "sigma=excluded.sigma, ordinal=excluded.ordinal, games=excluded.games, wins=excluded.wins",
            [community.rating_values(r) for r in ratings],
        )

    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, community.RatingRow]:
        rows = await self._pool.fetch(
            f"SELECT {community.RATING_COLUMNS} FROM ratings WHERE guild_id=$1 AND game=$2 "
            "AND user_id = ANY($3::bigint[])",
            guild_id,
            game,
            list(user_ids),
        )
        return {r["user_id"]: community.rating_row(r) for r in rows}

    async def finished_games(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[community.FinishedGame]:
        sql, params = community.history_query(guild_id, game, user_id, limit, offset)
        rows = await self._pool.fetch(numbered(sql), *params)
        return [community.finished_game_row(r) for r in rows]

    async def finished_channels(self, guild_id: int, game: str | None = None) -> list[int]:
        sql, args = community.finished_channels_query(guild_id, game)
        return [r[0] for r in await self._pool.fetch(numbered(sql), *args)]

    async def finished_game(self, guild_id: int, game_id: int) -> community.FinishedGame | None:
        r = await self._pool.fetchrow(
            f"SELECT {community.FINISHED_COLUMNS} FROM finished_games WHERE id=$1 AND guild_id=$2",
            game_id,
            guild_id,
        )
        return community.finished_game_row(r) if r is not None else None

    async def finished_seats(self, game_ids: Sequence[int]) -> list[community.FinishedSeat]:
        rows = await self._pool.fetch(
            f"SELECT {community.FINISHED_SEAT_COLUMNS} FROM finished_seats WHERE game_id = ANY($1::bigint[]) "
            "ORDER BY game_id, rank, seat, user_id",
            list(game_ids),
        )
        return [community.finished_seat_row(r) for r in rows]

    async def finished_in_order(
        self, guild_id: int | None = None
    ) -> list[tuple[community.FinishedGame, list[community.FinishedSeat]]]:
        games_sql, seats_sql, args = community.finished_in_order_queries(guild_id)
        games = await self._pool.fetch(numbered(games_sql), *args)
        seats = await self._pool.fetch(numbered(seats_sql), *args)
        return community.group_finished(
            [community.finished_game_row(g) for g in games], [community.finished_seat_row(s) for s in seats]
        )

    async def replace_ratings(self, rows: Sequence[community.RatingRow]) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("DELETE FROM ratings")
            await self._upsert_ratings(conn, rows)

    async def leaderboard(
        self, guild_id: int, game: str, offset: int, limit: int
    ) -> tuple[list[community.RatingRow], int]:
        rows = await self._pool.fetch(
            numbered(community.LEADERBOARD_SQL), guild_id, game, False, limit, offset
        )
        count = await self._pool.fetchval(numbered(community.LEADERBOARD_COUNT_SQL), guild_id, game, False)
        return [community.rating_row(r) for r in rows], count

    async def member_ratings(self, guild_id: int, user_id: int) -> list[community.RatingRow]:
        rows = await self._pool.fetch(numbered(community.MEMBER_RATINGS_SQL), user_id, guild_id)
        return [community.rating_row(r) for r in rows]

    async def member_record(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        rows = await self._pool.fetch(numbered(community.MEMBER_RECORD_SQL), user_id, guild_id)
        return [community.member_record_row(r) for r in rows]

    async def member_abandoned(self, guild_id: int, user_id: int) -> dict[str, int]:
        rows = await self._pool.fetch(numbered(community.MEMBER_ABANDONED_SQL), user_id, guild_id)
        return {r[0]: r[1] for r in rows}

    async def directory(self, guild_id: int, game: str | None = None) -> list[community.DirectoryRow]:
        if game:
            rows = await self._pool.fetch(numbered(community.DIRECTORY_GAME_SQL), guild_id, game)
        else:
            rows = await self._pool.fetch(numbered(community.DIRECTORY_SQL), guild_id)
        return [community.DirectoryRow(*r) for r in rows]

    async def set_hidden(self, user_id: int, hidden: bool, at: float) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO community_members (user_id, hidden, updated_at) VALUES ($1,$2,$3) "
                "ON CONFLICT (user_id) DO UPDATE SET hidden=excluded.hidden, updated_at=excluded.updated_at",
                user_id,
                hidden,
                at,
            )
            await conn.execute("UPDATE ratings SET hidden=$1 WHERE user_id=$2", hidden, user_id)

    async def is_hidden(self, user_id: int) -> bool:
        return bool(
            await self._pool.fetchval("SELECT hidden FROM community_members WHERE user_id=$1", user_id)
        )

    async def member_data(self, user_id: int) -> dict[str, Any]:
        seats = await self._pool.fetch(
            f"SELECT g.guild_id, g.channel_id, g.game, g.finished_at, {community.MEMBER_SEAT_FIELDS} "
            "FROM finished_seats s JOIN finished_games g ON g.id = s.game_id WHERE s.user_id=$1 ORDER BY g.finished_at",
            user_id,
        )
        ratings = await self._pool.fetch(
            f"SELECT {community.RATING_COLUMNS} FROM ratings WHERE user_id=$1", user_id
        )
        watches = await self._pool.fetch("SELECT guild_id, game FROM watches WHERE user_id=$1", user_id)
        return community.member_data_of(
            [tuple(r) for r in seats],
            [tuple(r) for r in ratings],
            [tuple(r) for r in watches],
            await self.is_hidden(user_id),
        )

    async def forget_member(self, user_id: int, former: str) -> list[int]:
        """One transaction, the tables' rows it reaches (seats, seat histories, action logs,
        meta, posts waiting, notification and delivery preferences, turn notices waiting
        and sent) with the community's (CommunityStore.forget_member; what is written:
        forgetting.py)."""
        async with self._pool.acquire() as conn, conn.transaction():
            names = [r[0] for r in await conn.fetch(numbered(forgetting.NAMES_SQL), *(user_id,) * 4)]
            pattern = forgetting.spoken(names, former)
            # locked: a save between the read of a table's meta and its rewrite would be lost
            tables = await conn.fetch(numbered(forgetting.TABLES_SQL) + " FOR UPDATE", *(user_id,) * 3)
            for sql, params in forgetting.table_statements(tables, user_id, former, pattern):
                await conn.execute(numbered(sql), *params)
            outbox = await conn.fetch(forgetting.OUTBOX_SQL)
            for body, key in forgetting.bodies_rewritten(outbox, pattern, former):
                await conn.execute("UPDATE outbox SET body=$1 WHERE id=$2", body, *key)
            notices = await conn.fetch(forgetting.NOTICES_SQL)
            for body, key in forgetting.bodies_rewritten(notices, pattern, former):
                await conn.execute(
                    "UPDATE turn_notices SET body=$1 WHERE channel_id=$2 AND user_id=$3", body, *key
                )
            fronts = await conn.fetch(front_rows.FRONT_SQL)  # the summaries' headings
            for body, key in forgetting.bodies_rewritten(fronts, pattern, former):
                await conn.execute("UPDATE front_messages SET summary=$1 WHERE channel_id=$2", body, *key)
            sent = await conn.fetch(front_rows.NOTICE_TEXTS_SQL)  # the others' notices may name them
            for text, key in forgetting.texts_rewritten(sent, pattern, former):
                await conn.execute("UPDATE front_notices SET text=$1 WHERE channel_id=$2 AND user_id=$3", text, *key)
            # each seat a fresh id of its own below the automatic player's -1 (see the SQLite store)
            await conn.execute(
                "UPDATE finished_seats SET user_id = -2 - floor(random() * 281474976710656)::bigint, name=$1 "
                "WHERE user_id=$2",
                former,
                user_id,
            )
            await conn.execute("UPDATE seat_history SET name=$1 WHERE user_id=$2", former, user_id)
            for table in (
                "ratings",
                "community_members",
                "watches",
                "notify_prefs",
                "deliveries",
                "turn_notices",
                "front_notices",
            ):
                await conn.execute(f"DELETE FROM {table} WHERE user_id=$1", user_id)
        return [t[0] for t in tables]

    async def set_watch(self, guild_id: int, game: str, user_id: int, on: bool) -> None:
        if on:
            sql = "INSERT INTO watches (guild_id, game, user_id) VALUES ($1,$2,$3) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM watches WHERE guild_id=$1 AND game=$2 AND user_id=$3"
        await self._pool.execute(sql, guild_id, game, user_id)

    async def watchers(self, guild_id: int, game: str) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT user_id FROM watches WHERE guild_id=$1 AND game=$2 ORDER BY user_id", guild_id, game
        )
        return [r[0] for r in rows]

    async def set_lobby(self, guild_id: int, channel_id: int | None, at: float) -> None:
        await self._pool.execute(
            "INSERT INTO community_servers (guild_id, lobby_channel, updated_at) VALUES ($1,$2,$3) "
            "ON CONFLICT (guild_id) DO UPDATE SET lobby_channel=excluded.lobby_channel, updated_at=excluded.updated_at",
            guild_id,
            channel_id,
            at,
        )

    async def get_lobby(self, guild_id: int) -> int | None:
        return await self._pool.fetchval(
            "SELECT lobby_channel FROM community_servers WHERE guild_id=$1", guild_id
        )

    # -- sign-ups and abandoned games (migration 0005) ----------------------------------
    async def get_lobby_entry(self, channel_id: int) -> community.LobbyEntry | None:
        row = await self._pool.fetchrow(numbered(community.GET_LOBBY_ENTRY_SQL), channel_id)
        return community.lobby_entry_row(tuple(row)) if row else None

    async def set_lobby_entry(self, entry: community.LobbyEntry) -> None:
        await self._pool.execute(
            numbered(community.SET_LOBBY_ENTRY_SQL), *community.lobby_entry_values(entry)
        )

    async def delete_lobby_entry(self, channel_id: int) -> None:
        await self._pool.execute(numbered(community.DELETE_LOBBY_ENTRY_SQL), channel_id)

    async def record_abandoned(self, seats: Sequence[community.AbandonedSeat]) -> None:
        rows = [community.abandoned_values(s) for s in seats]
        if rows:
            await self._pool.executemany(numbered(community.RECORD_ABANDONED_SQL), rows)

    async def member_abandoned_games(self, user_id: int) -> list[community.AbandonedSeat]:
        rows = await self._pool.fetch(numbered(community.MEMBER_ABANDONED_GAMES_SQL), user_id)
        return [community.AbandonedSeat(*r) for r in rows]

    async def forget_abandoned(self, user_id: int) -> None:
        await self._pool.execute(numbered(community.FORGET_ABANDONED_SQL), user_id)

    async def servers_with_tables(self) -> list[int]:
        return [r[0] for r in await self._pool.fetch(community.SERVERS_WITH_TABLES_SQL)]

    # -- finished games' reviews ---------------------------------------------------------
    async def save_reviews(self, rows: Sequence[review_rows.ReviewRow]) -> None:
        values = [review_rows.review_values(r) for r in rows]
        if values:
            await self._pool.executemany(numbered(review_rows.SAVE_SQL), values)

    async def get_reviews(self, channel_id: int, created_at: float) -> list[review_rows.ReviewRow]:
        rows = await self._pool.fetch(numbered(review_rows.GET_SQL), channel_id, created_at)
        return [review_rows.review_row(tuple(r)) for r in rows]

    async def pending_reviews(self) -> list[review_rows.ReviewRow]:
        return [review_rows.review_row(tuple(r)) for r in await self._pool.fetch(review_rows.PENDING_SQL)]


def numbered(sql: str) -> str:
    """A query shared with the SQLite store, its `?` placeholders numbered for PostgreSQL."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))


def _marks(n: int) -> str:
    return ",".join(f"${i}" for i in range(1, n + 1))
