"""The community's rows in the SQLite store's database (docs/architecture.md §4): finished
games, ratings, members, the table directory, watches, the lobby channel, sign-ups and
abandoned games; community.py's contract on the SQLite store's connection.

It reads and writes on the SQLite store's one connection, through what that store hands
it: `run` (SqliteStore._run) runs a function on the connection's thread, one hop however
many statements it holds; `transaction` (SqliteStore._transaction) wraps statements in
BEGIN IMMEDIATE … COMMIT, rolled back if any fails. Each write below is one such
transaction of its own, as the store's other writes outside a save are; none goes through
the group commit, which is for saves and the outbox rows said (sqlite.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from . import community_rows as community  # the community's rows and the queries both backends share
from . import forgetting, front_rows, review_rows
from .community import CommunityStore

__all__ = ["SqliteCommunityStore"]


class SqliteCommunityStore(CommunityStore):
    """`store.community` of an SqliteStore."""

    def __init__(
        self,
        run: Callable[[Callable[[sqlite3.Connection], Any]], Awaitable[Any]],
        transaction: Callable[[sqlite3.Connection, Callable[[], Any]], Any],
    ):
        self._run = run
        self._transaction = transaction

    async def _fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return await self._run(lambda c: c.execute(sql, params).fetchall())

    # -- finished games and ratings ------------------------------------------------------
    async def finished_recorded(self, channel_id: int, created_at: float) -> bool:
        rows = await self._fetch(
            "SELECT 1 FROM finished_games WHERE channel_id=? AND created_at=?", (channel_id, created_at)
        )
        return bool(rows)

    async def record_finished(
        self,
        game: community.FinishedGame,
        seats: Sequence[community.FinishedSeat],
        ratings: Sequence[community.RatingRow],
    ) -> int | None:
        def write(conn: sqlite3.Connection) -> int | None:
            cur = conn.execute(
                "INSERT INTO finished_games (guild_id, channel_id, game, created_at, finished_at, outcome, "
                "reason, rated, counted, message_id) VALUES (?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (channel_id, created_at) DO NOTHING",
                (
                    game.guild_id,
                    game.channel_id,
                    game.game,
                    game.created_at,
                    game.finished_at,
                    json.dumps(game.outcome),
                    game.reason,
                    int(game.rated),
                    int(game.counted),
                    game.message_id,
                ),
            )
            if cur.rowcount != 1:
                return None
            game_id = cur.lastrowid
            conn.executemany(
                f"INSERT INTO finished_seats (guild_id, {community.FINISHED_SEAT_COLUMNS.replace('game_id, ', 'game, game_id, ')}) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(game.guild_id, game.game, game_id, *community.seat_values(s)) for s in seats],
            )
            self._upsert_ratings(conn, ratings)
            return game_id

        return await self._run(lambda conn: self._transaction(conn, lambda: write(conn)))

    @staticmethod
    def _upsert_ratings(conn: sqlite3.Connection, ratings: Sequence[community.RatingRow]) -> None:
        conn.executemany(
            f"INSERT INTO ratings ({community.RATING_COLUMNS}, hidden) VALUES (?,?,?,?,?,?,?,?,?,"
            "COALESCE((SELECT hidden FROM community_members WHERE user_id=?), 0)) "
            "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name=excluded.name, mu=excluded.mu, "
            "sigma=excluded.sigma, ordinal=excluded.ordinal, games=excluded.games, wins=excluded.wins",
            [(*community.rating_values(r), r.user_id) for r in ratings],
        )

    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, community.RatingRow]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self._fetch(
            f"SELECT {community.RATING_COLUMNS} FROM ratings WHERE guild_id=? AND game=? AND user_id IN ({marks})",
            (guild_id, game, *user_ids),
        )
        return {r[2]: community.rating_row(r) for r in rows}

    async def finished_games(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[community.FinishedGame]:
        rows = await self._fetch(*community.history_query(guild_id, game, user_id, limit, offset))
        return [community.finished_game_row(r) for r in rows]

    async def finished_channels(self, guild_id: int, game: str | None = None) -> list[int]:
        return [r[0] for r in await self._fetch(*community.finished_channels_query(guild_id, game))]

    async def finished_game(self, guild_id: int, game_id: int) -> community.FinishedGame | None:
        rows = await self._fetch(
            f"SELECT {community.FINISHED_COLUMNS} FROM finished_games WHERE id=? AND guild_id=?",
            (game_id, guild_id),
        )
        return community.finished_game_row(rows[0]) if rows else None

    async def finished_seats(self, game_ids: Sequence[int]) -> list[community.FinishedSeat]:
        if not game_ids:
            return []
        marks = ",".join("?" * len(game_ids))
        rows = await self._fetch(
            f"SELECT {community.FINISHED_SEAT_COLUMNS} FROM finished_seats WHERE game_id IN ({marks}) "
            "ORDER BY game_id, rank, seat, user_id",
            tuple(game_ids),
        )
        return [community.finished_seat_row(r) for r in rows]

    async def finished_in_order(
        self, guild_id: int | None = None
    ) -> list[tuple[community.FinishedGame, list[community.FinishedSeat]]]:
        games_sql, seats_sql, args = community.finished_in_order_queries(guild_id)
        games = await self._fetch(games_sql, args)
        seats = await self._fetch(seats_sql, args)
        return community.group_finished(
            [community.finished_game_row(g) for g in games], [community.finished_seat_row(s) for s in seats]
        )

    async def replace_ratings(self, rows: Sequence[community.RatingRow]) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM ratings")
            self._upsert_ratings(conn, rows)

        await self._run(lambda conn: self._transaction(conn, lambda: write(conn)))

    async def leaderboard(
        self, guild_id: int, game: str, offset: int, limit: int
    ) -> tuple[list[community.RatingRow], int]:
        rows = await self._fetch(community.LEADERBOARD_SQL, (guild_id, game, 0, limit, offset))
        count = await self._fetch(community.LEADERBOARD_COUNT_SQL, (guild_id, game, 0))
        return [community.rating_row(r) for r in rows], count[0][0]

    async def member_ratings(self, guild_id: int, user_id: int) -> list[community.RatingRow]:
        return [
            community.rating_row(r)
            for r in await self._fetch(community.MEMBER_RATINGS_SQL, (user_id, guild_id))
        ]

    async def member_record(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        rows = await self._fetch(community.MEMBER_RECORD_SQL, (user_id, guild_id))
        return [community.member_record_row(r) for r in rows]

    async def member_abandoned(self, guild_id: int, user_id: int) -> dict[str, int]:
        return {r[0]: r[1] for r in await self._fetch(community.MEMBER_ABANDONED_SQL, (user_id, guild_id))}

    async def directory(self, guild_id: int, game: str | None = None) -> list[community.DirectoryRow]:
        if game:
            rows = await self._fetch(community.DIRECTORY_GAME_SQL, (guild_id, game))
        else:
            rows = await self._fetch(community.DIRECTORY_SQL, (guild_id,))
        return [community.DirectoryRow(*r) for r in rows]

    async def set_hidden(self, user_id: int, hidden: bool, at: float) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO community_members (user_id, hidden, updated_at) VALUES (?,?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET hidden=excluded.hidden, updated_at=excluded.updated_at",
                (user_id, int(hidden), at),
            )
            conn.execute("UPDATE ratings SET hidden=? WHERE user_id=?", (int(hidden), user_id))

        await self._run(lambda conn: self._transaction(conn, lambda: write(conn)))

    async def is_hidden(self, user_id: int) -> bool:
        rows = await self._fetch("SELECT hidden FROM community_members WHERE user_id=?", (user_id,))
        return bool(rows and rows[0][0])

    async def member_data(self, user_id: int) -> dict[str, Any]:
        seats = await self._fetch(
            f"SELECT g.guild_id, g.channel_id, g.game, g.finished_at, {community.MEMBER_SEAT_FIELDS} FROM finished_seats s "
            "JOIN finished_games g ON g.id = s.game_id WHERE s.user_id=? ORDER BY g.finished_at",
            (user_id,),
        )
        ratings = await self._fetch(
            f"SELECT {community.RATING_COLUMNS} FROM ratings WHERE user_id=?", (user_id,)
        )
        watches = await self._fetch("SELECT guild_id, game FROM watches WHERE user_id=?", (user_id,))
        return community.member_data_of(seats, ratings, watches, await self.is_hidden(user_id))

    async def forget_member(self, user_id: int, former: str) -> list[int]:
        """One transaction, the tables' rows it reaches (seats, seat histories, action logs,
        meta, posts waiting, notification and delivery preferences, turn notices waiting
        and sent) with the community's (CommunityStore.forget_member; what is written:
        forgetting.py)."""

        def write(conn: sqlite3.Connection) -> list[int]:
            names = [r[0] for r in conn.execute(forgetting.NAMES_SQL, (user_id,) * 4)]
            pattern = forgetting.spoken(names, former)
            tables = conn.execute(forgetting.TABLES_SQL, (user_id,) * 3).fetchall()
            for sql, params in forgetting.table_statements(tables, user_id, former, pattern):
                conn.execute(sql, params)
            outbox = conn.execute(forgetting.OUTBOX_SQL).fetchall()
            for body, key in forgetting.bodies_rewritten(outbox, pattern, former):
                conn.execute("UPDATE outbox SET body=? WHERE id=?", (body, *key))
            notices = conn.execute(forgetting.NOTICES_SQL).fetchall()
            for body, key in forgetting.bodies_rewritten(notices, pattern, former):
                conn.execute("UPDATE turn_notices SET body=? WHERE channel_id=? AND user_id=?", (body, *key))
            fronts = conn.execute(front_rows.FRONT_SQL).fetchall()  # the summaries' headings
            for body, key in forgetting.bodies_rewritten(fronts, pattern, former):
                conn.execute("UPDATE front_messages SET summary=? WHERE channel_id=?", (body, *key))
            sent = conn.execute(front_rows.NOTICE_TEXTS_SQL).fetchall()  # the others' notices may name them
            for text, key in forgetting.texts_rewritten(sent, pattern, former):
                conn.execute("UPDATE front_notices SET text=? WHERE channel_id=? AND user_id=?", (text, *key))
            # each seat a fresh id of its own below the automatic player's -1: nobody, and no
            # two of the former member's games linked
            conn.execute(
                "UPDATE finished_seats SET user_id = -2 - (abs(random()) % 281474976710656), name=? "
                "WHERE user_id=?",
                (former, user_id),
            )
            conn.execute("UPDATE seat_history SET name=? WHERE user_id=?", (former, user_id))
            for table in (
                "ratings",
                "community_members",
                "watches",
                "notify_prefs",
                "deliveries",
                "turn_notices",
                "front_notices",
            ):
                conn.execute(f"DELETE FROM {table} WHERE user_id=?", (user_id,))
            return [t[0] for t in tables]

        return await self._run(lambda conn: self._transaction(conn, lambda: write(conn)))

    async def set_watch(self, guild_id: int, game: str, user_id: int, on: bool) -> None:
        if on:
            sql = "INSERT INTO watches (guild_id, game, user_id) VALUES (?,?,?) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM watches WHERE guild_id=? AND game=? AND user_id=?"
        await self._run(
            lambda conn: self._transaction(conn, lambda: conn.execute(sql, (guild_id, game, user_id)))
        )

    async def watchers(self, guild_id: int, game: str) -> list[int]:
        rows = await self._fetch(
            "SELECT user_id FROM watches WHERE guild_id=? AND game=? ORDER BY user_id", (guild_id, game)
        )
        return [r[0] for r in rows]

    async def set_lobby(self, guild_id: int, channel_id: int | None, at: float) -> None:
        sql = (
            "INSERT INTO community_servers (guild_id, lobby_channel, updated_at) VALUES (?,?,?) "
            "ON CONFLICT (guild_id) DO UPDATE SET lobby_channel=excluded.lobby_channel, updated_at=excluded.updated_at"
        )
        await self._run(
            lambda conn: self._transaction(conn, lambda: conn.execute(sql, (guild_id, channel_id, at)))
        )

    async def get_lobby(self, guild_id: int) -> int | None:
        rows = await self._fetch("SELECT lobby_channel FROM community_servers WHERE guild_id=?", (guild_id,))
        return rows[0][0] if rows else None

    # -- sign-ups and abandoned games (migration 0005) ----------------------------------
    async def get_lobby_entry(self, channel_id: int) -> community.LobbyEntry | None:
        rows = await self._fetch(community.GET_LOBBY_ENTRY_SQL, (channel_id,))
        return community.lobby_entry_row(rows[0]) if rows else None

    async def set_lobby_entry(self, entry: community.LobbyEntry) -> None:
        values = community.lobby_entry_values(entry)
        await self._run(
            lambda c: self._transaction(c, lambda: c.execute(community.SET_LOBBY_ENTRY_SQL, values))
        )

    async def delete_lobby_entry(self, channel_id: int) -> None:
        sql = community.DELETE_LOBBY_ENTRY_SQL
        await self._run(lambda c: self._transaction(c, lambda: c.execute(sql, (channel_id,))))

    async def record_abandoned(self, seats: Sequence[community.AbandonedSeat]) -> None:
        rows = [community.abandoned_values(s) for s in seats]
        sql = community.RECORD_ABANDONED_SQL
        await self._run(lambda c: self._transaction(c, lambda: c.executemany(sql, rows)))

    async def member_abandoned_games(self, user_id: int) -> list[community.AbandonedSeat]:
        rows = await self._fetch(community.MEMBER_ABANDONED_GAMES_SQL, (user_id,))
        return [community.AbandonedSeat(*r) for r in rows]

    async def forget_abandoned(self, user_id: int) -> None:
        sql = community.FORGET_ABANDONED_SQL
        await self._run(lambda c: self._transaction(c, lambda: c.execute(sql, (user_id,))))

    async def servers_with_tables(self) -> list[int]:
        return [r[0] for r in await self._fetch(community.SERVERS_WITH_TABLES_SQL)]

    # -- finished games' reviews ---------------------------------------------------------
    async def save_reviews(self, rows: Sequence[review_rows.ReviewRow]) -> None:
        values = [review_rows.review_values(r) for r in rows]
        sql = review_rows.SAVE_SQL
        await self._run(lambda c: self._transaction(c, lambda: c.executemany(sql, values)))

    async def get_reviews(self, channel_id: int, created_at: float) -> list[review_rows.ReviewRow]:
        rows = await self._fetch(review_rows.GET_SQL, (channel_id, created_at))
        return [review_rows.review_row(r) for r in rows]

    async def pending_reviews(self) -> list[review_rows.ReviewRow]:
        return [review_rows.review_row(r) for r in await self._fetch(review_rows.PENDING_SQL)]
