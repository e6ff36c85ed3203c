"""The community's rows and queries, shared by both backends (docs/architecture.md §4):
finished games, ratings, members, the table directory, sign-ups and abandoned games
(bot/service/community.py, archive.py, ratings.py, signups.py). The contract that
reads and writes them is CommunityStore, in community.py."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# -- the community: finished games, ratings, members (bot/service/community.py) ------------


@dataclass
class FinishedGame:
    """A finished game as the server's archive keeps it, apart from its table's row."""

    guild_id: int | None
    channel_id: int
    game: str
    created_at: float
    finished_at: float
    outcome: dict[str, Any]  # the game's Outcome as JSON: reason, standings (seat, rank, score)
    reason: str = ""
    rated: bool = True
    counted: bool = False  # the ratings were updated from it
    message_id: int | None = None
    id: int | None = None  # given by the store


@dataclass
class FinishedSeat:
    """One member's (or the automatic player's) part in one seat of a finished game."""

    seat: str
    label: str
    user_id: int
    name: str
    rank: int
    score: float
    decisions: int = 0
    missed: int = 0
    seat_decisions: int = 0
    seat_automatic: int = 0
    win: float = 0.0
    answer_seconds: float = 0.0
    automatic: bool = False
    game_id: int | None = None


@dataclass
class RatingRow:
    guild_id: int
    game: str
    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int = 0
    wins: float = 0.0


@dataclass
class DirectoryRow:
    """A table of a server, as the directory first lists it (details are read per page)."""

    channel_id: int
    game: str
    status: str
    seated: int



# -- the community's queries, shared by both backends -------------------------------------
# Written with `?` placeholders (PostgreSQL's store numbers them). Each reads an index of
# migration 0003; tests/community/test_indexes.py checks the plans on both databases.

FINISHED_COLUMNS = "id, guild_id, channel_id, game, created_at, finished_at, outcome, reason, rated, counted, message_id"
FINISHED_SEAT_COLUMNS = (
    "game_id, seat, label, user_id, name, rank, score, decisions, missed, seat_decisions, "
    "seat_automatic, win, answer_seconds, automatic"
)
RATING_COLUMNS = "guild_id, game, user_id, name, mu, sigma, ordinal, games, wins"

LEADERBOARD_SQL = (
    f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND hidden = ? "
    "ORDER BY ordinal DESC, user_id DESC LIMIT ? OFFSET ?"
)
LEADERBOARD_COUNT_SQL = "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND hidden = ?"
DIRECTORY_SQL = (
    "SELECT t.channel_id, t.game, t.status, (SELECT COUNT(*) FROM seats s WHERE s.channel_id = t.channel_id) "
    "FROM tables t WHERE t.guild_id = ? AND t.status IN ('lobby', 'running', 'paused')"
)
DIRECTORY_GAME_SQL = DIRECTORY_SQL + " AND t.game = ?"
HISTORY_SQL = f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE guild_id = ? ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?"
HISTORY_GAME_SQL = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE guild_id = ? AND game = ? "
    "ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?"
)
HISTORY_MEMBER_SQL = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE id IN (SELECT game_id FROM finished_seats "
    "WHERE user_id = ? AND guild_id = ?) ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?"
)
HISTORY_MEMBER_GAME_SQL = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE id IN (SELECT game_id FROM finished_seats "
    "WHERE user_id = ? AND guild_id = ? AND game = ?) ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?"
)
MEMBER_RECORD_SQL = (
    "SELECT game, label, COUNT(DISTINCT game_id), SUM(win), SUM(decisions), SUM(missed), SUM(answer_seconds) "
    "FROM finished_seats WHERE user_id = ? AND guild_id = ? GROUP BY game, label ORDER BY game, label"
)
MEMBER_RATINGS_SQL = f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? AND guild_id = ? ORDER BY game"
MEMBER_ABANDONED_SQL = (  # the archive of abandoned games (migration 0005)
    "SELECT game, COUNT(*) FROM abandoned_seats WHERE user_id = ? AND guild_id = ? GROUP BY game"
)


def history_query(
    guild_id: int, game: str | None, user_id: int | None, limit: int, offset: int
) -> tuple[str, tuple[Any, ...]]:
    """The finished-games query for these filters, and its parameters in its order: user_id
    and guild_id (or guild_id), the game if given, then limit and offset."""
    if user_id is not None:
        sql = HISTORY_MEMBER_GAME_SQL if game else HISTORY_MEMBER_SQL
    else:
        sql = HISTORY_GAME_SQL if game else HISTORY_SQL
    member = (user_id,) if user_id is not None else ()
    return sql, (*member, guild_id, *((game,) if game else ()), limit, offset)


def finished_channels_query(guild_id: int, game: str | None) -> tuple[str, tuple[Any, ...]]:
    """The channels a server's finished games (of `game`) were played in, and the parameters."""
    sql = "SELECT DISTINCT channel_id FROM finished_games WHERE guild_id = ?"
    return (sql + " AND game = ?", (guild_id, game)) if game else (sql, (guild_id,))


def finished_in_order_queries(guild_id: int | None) -> tuple[str, str, tuple[Any, ...]]:
    """The finished games in the order they finished and their seats (of one server, with
    `guild_id`; a server's seats found by their games: finished_by_guild, then the seats'
    primary key), and the parameters both take."""
    games = f"SELECT {FINISHED_COLUMNS} FROM finished_games"
    seats = f"SELECT {FINISHED_SEAT_COLUMNS} FROM finished_seats"
    if guild_id is not None:
        games += " WHERE guild_id = ?"
        seats += " WHERE game_id IN (SELECT id FROM finished_games WHERE guild_id = ?)"
    args = (guild_id,) if guild_id is not None else ()
    return games + " ORDER BY finished_at, id", seats + " ORDER BY game_id, seat, user_id", args


def finished_game_row(values: Sequence[Any]) -> FinishedGame:
    """A FinishedGame from a row selected as FINISHED_COLUMNS."""
    gid, guild, channel, game, created, finished, outcome, reason, rated, counted, message = values
    return FinishedGame(
        guild, channel, game, created, finished, json.loads(outcome), reason, bool(rated), bool(counted),
        message, gid,
    )


def finished_seat_row(values: Sequence[Any]) -> FinishedSeat:
    """A FinishedSeat from a row selected as FINISHED_SEAT_COLUMNS."""
    game_id, seat, label, uid, name, rank, score, dec, missed, seat_dec, seat_auto, win, secs, auto = values
    return FinishedSeat(
        seat, label, uid, name, rank, score, dec, missed, seat_dec, seat_auto, win, secs, bool(auto), game_id
    )


def rating_row(values: Sequence[Any]) -> RatingRow:
    """A RatingRow from a row selected as RATING_COLUMNS."""
    return RatingRow(*values)


def seat_values(s: FinishedSeat) -> tuple[Any, ...]:
    """A FinishedSeat's values after its game_id, in FINISHED_SEAT_COLUMNS' order."""
    return (
        s.seat, s.label, s.user_id, s.name, s.rank, s.score, s.decisions, s.missed, s.seat_decisions,
        s.seat_automatic, s.win, s.answer_seconds, s.automatic,
    )


def rating_values(r: RatingRow) -> tuple[Any, ...]:
    """A RatingRow's values in RATING_COLUMNS' order."""
    return (r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.ordinal, r.games, r.wins)


def group_finished(
    games: Sequence[FinishedGame], seats: Sequence[FinishedSeat]
) -> list[tuple[FinishedGame, list[FinishedSeat]]]:
    """Each game with its seats, in the games' order."""
    by_game: dict[int | None, list[FinishedSeat]] = {}
    for s in seats:
        by_game.setdefault(s.game_id, []).append(s)
    return [(g, by_game.get(g.id, [])) for g in games]


def member_record_row(values: Sequence[Any]) -> dict[str, Any]:
    """A row of MEMBER_RECORD_SQL as a dict."""
    game, label, games, wins, decisions, missed, seconds = values
    return {
        "game": game, "label": label, "games": games, "wins": float(wins or 0),
        "decisions": int(decisions or 0), "missed": int(missed or 0), "answer_seconds": float(seconds or 0),
    }


# What /community mydata gives of each finished seat, after the game's server, channel, game and date.
MEMBER_SEAT_FIELDS = "s.seat, s.label, s.name, s.rank, s.score, s.decisions, s.missed, s.win, s.answer_seconds"


def member_data_of(
    seats: Sequence[Sequence[Any]], ratings: Sequence[Sequence[Any]], watches: Sequence[Sequence[Any]], hidden: bool
) -> dict[str, Any]:
    """The community's rows about a member as plain JSON values."""
    seat_keys = ("server", "channel", "game", "finished_at", *(f.split(".")[1] for f in MEMBER_SEAT_FIELDS.split(", ")))
    return {
        "finished_games": [dict(zip(seat_keys, row, strict=True)) for row in seats],
        "ratings": [
            {k: v for k, v in rating_row(r).__dict__.items() if k != "user_id"} for r in ratings
        ],
        "watches": [{"server": g, "game": game} for g, game in watches],
        "hidden_from_leaderboards": hidden,
    }


# -- sign-ups and abandoned games (migration 0005), shared by both backends ---------------


@dataclass
class LobbyEntry:
    """A lobby table's entry in its server's lobby channel (bot/discord/announcements.py)."""

    channel_id: int  # the table's channel
    created_at: float  # the table's creation: a channel's next table is a new entry
    guild_id: int | None
    lobby_channel: int | None = None  # where the entry was posted; None: not posted
    message_id: int | None = None
    told: bool = False  # the game's watchers were told of the table


@dataclass
class AbandonedSeat:
    """A member's seat at a game abandoned after its start: counted in their profile."""

    guild_id: int  # 0: a table outside a server (the console)
    channel_id: int
    created_at: float
    game: str
    user_id: int
    abandoned_at: float


LOBBY_ENTRY_COLUMNS = "channel_id, created_at, guild_id, lobby_channel, message_id, told"
ABANDONED_COLUMNS = "guild_id, channel_id, created_at, game, user_id, abandoned_at"
GET_LOBBY_ENTRY_SQL = f"SELECT {LOBBY_ENTRY_COLUMNS} FROM lobby_entries WHERE channel_id = ?"
SET_LOBBY_ENTRY_SQL = (
    f"INSERT INTO lobby_entries ({LOBBY_ENTRY_COLUMNS}) VALUES (?,?,?,?,?,?) ON CONFLICT (channel_id) DO UPDATE "
    "SET created_at=excluded.created_at, guild_id=excluded.guild_id, lobby_channel=excluded.lobby_channel, "
    "message_id=excluded.message_id, told=excluded.told"
)
DELETE_LOBBY_ENTRY_SQL = "DELETE FROM lobby_entries WHERE channel_id = ?"
RECORD_ABANDONED_SQL = f"INSERT INTO abandoned_seats ({ABANDONED_COLUMNS}) VALUES (?,?,?,?,?,?) ON CONFLICT DO NOTHING"
MEMBER_ABANDONED_GAMES_SQL = f"SELECT {ABANDONED_COLUMNS} FROM abandoned_seats WHERE user_id = ? ORDER BY abandoned_at"
FORGET_ABANDONED_SQL = "DELETE FROM abandoned_seats WHERE user_id = ?"
SERVERS_WITH_TABLES_SQL = (
    "SELECT DISTINCT guild_id FROM tables WHERE guild_id IS NOT NULL AND status IN ('lobby', 'running', 'paused')"
)


def lobby_entry_row(values: Sequence[Any]) -> LobbyEntry:
    channel_id, created_at, guild_id, lobby_channel, message_id, told = values
    return LobbyEntry(channel_id, created_at, guild_id, lobby_channel, message_id, bool(told))


def lobby_entry_values(e: LobbyEntry) -> tuple[Any, ...]:
    return (e.channel_id, e.created_at, e.guild_id, e.lobby_channel, e.message_id, e.told)


def abandoned_values(s: AbandonedSeat) -> tuple[Any, ...]:
    return (s.guild_id, s.channel_id, s.created_at, s.game, s.user_id, s.abandoned_at)
