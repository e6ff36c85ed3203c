"""The community's part of the store, as a contract of its own (docs/architecture.md §4):
finished games, ratings, members' records, the table directory, members' settings and
data, watches, the lobby channel and its entries, abandoned games.

Each backend's store builds one and keeps it as `store.community` (sqlite_community.py,
postgres_community.py), handing it the way that backend reads and writes; the rows and
the queries both share are in community_rows.py. Its callers are bot/service/community.py,
archive.py, ratings.py and signups.py.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from .community_rows import (
    AbandonedSeat,
    DirectoryRow,
    FinishedGame,
    FinishedSeat,
    LobbyEntry,
    RatingRow,
)
from .review_rows import ReviewRow

__all__ = ["CommunityStore"]


class CommunityStore(ABC):
    # -- finished games and ratings ------------------------------------------------------
    @abstractmethod
    async def finished_recorded(self, channel_id: int, created_at: float) -> bool:
        """Whether the table created at `created_at` in the channel is in the archive."""

    @abstractmethod
    async def record_finished(
        self, game: FinishedGame, seats: Sequence[FinishedSeat], ratings: Sequence[RatingRow]
    ) -> int | None:
        """Archive a finished game with its seats and write the ratings it changed, in one
        transaction; None (and nothing written) if the table is archived already."""

    @abstractmethod
    async def get_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRow]: ...

    @abstractmethod
    async def finished_games(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[FinishedGame]:
        """The server's finished games, newest first (a member's only, with `user_id`)."""

    @abstractmethod
    async def finished_channels(self, guild_id: int, game: str | None = None) -> list[int]:
        """The channels the server's finished games (of `game`) were played in."""

    @abstractmethod
    async def finished_game(self, guild_id: int, game_id: int) -> FinishedGame | None: ...

    @abstractmethod
    async def finished_seats(self, game_ids: Sequence[int]) -> list[FinishedSeat]: ...

    @abstractmethod
    async def finished_in_order(self, guild_id: int | None = None) -> list[tuple[FinishedGame, list[FinishedSeat]]]:
        """Every finished game with its seats (of one server, with `guild_id`), in the order
        they finished: rebuilding ratings, and what a reader may see of a server's games
        (bot/service/audience.py)."""

    @abstractmethod
    async def replace_ratings(self, rows: Sequence[RatingRow]) -> None:
        """Every rating replaced by `rows` in one transaction (members' hidden kept)."""

    @abstractmethod
    async def leaderboard(
        self, guild_id: int, game: str, offset: int, limit: int
    ) -> tuple[list[RatingRow], int]:
        """A page of the server's ratings of `game`, best conservative estimate first, with
        how many there are; members who hid their profile left out."""

    # -- members -------------------------------------------------------------------------
    @abstractmethod
    async def member_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]: ...

    @abstractmethod
    async def member_record(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        """Per game and nation the member played in the server's finished games: games, wins,
        decisions, missed deadlines, the summed answer time."""

    @abstractmethod
    async def member_abandoned(self, guild_id: int, user_id: int) -> dict[str, int]:
        """Abandoned tables of the server the member sat at, by game (those still on record)."""

    @abstractmethod
    async def directory(self, guild_id: int, game: str | None = None) -> list[DirectoryRow]:
        """The server's lobby, running and paused tables."""

    @abstractmethod
    async def set_hidden(self, user_id: int, hidden: bool, at: float) -> None: ...

    @abstractmethod
    async def is_hidden(self, user_id: int) -> bool: ...

    @abstractmethod
    async def member_data(self, user_id: int) -> dict[str, Any]:
        """Every community row about the member (finished seats, ratings, settings, watches)."""

    @abstractmethod
    async def forget_member(self, user_id: int, former: str) -> list[int]:
        """The member's finished seats named `former` under an id of their own that names
        nobody, their ratings, community settings, watches, notification and delivery
        preferences deleted; at every table that names them, their seats and seat histories
        named `former` and their name replaced in its meta, a closed table's rows under an id
        that names nobody, and the posts and turn notices waiting to be said without their
        name (bot/store/forgetting.py). Returns the channels of the tables it changed, whose
        version it moved on.

        Kept here though it reaches past the community (seat histories, notification and
        delivery preferences, turn notices): all of it is one transaction, on the same
        connection the rest of the store writes through."""

    # -- watches and the lobby channel ---------------------------------------------------
    @abstractmethod
    async def set_watch(self, guild_id: int, game: str, user_id: int, on: bool) -> None: ...

    @abstractmethod
    async def watchers(self, guild_id: int, game: str) -> list[int]: ...

    @abstractmethod
    async def set_lobby(self, guild_id: int, channel_id: int | None, at: float) -> None: ...

    @abstractmethod
    async def get_lobby(self, guild_id: int) -> int | None: ...

    # -- sign-ups and abandoned games (migration 0005) -----------------------------------
    @abstractmethod
    async def get_lobby_entry(self, channel_id: int) -> LobbyEntry | None: ...

    @abstractmethod
    async def set_lobby_entry(self, entry: LobbyEntry) -> None:
        """Keep the table's lobby entry, replacing the one of the channel's previous table."""

    @abstractmethod
    async def delete_lobby_entry(self, channel_id: int) -> None: ...

    @abstractmethod
    async def record_abandoned(self, seats: Sequence[AbandonedSeat]) -> None:
        """Archive the members' seats of an abandoned game (a second write of one is ignored)."""

    @abstractmethod
    async def member_abandoned_games(self, user_id: int) -> list[AbandonedSeat]: ...

    @abstractmethod
    async def forget_abandoned(self, user_id: int) -> None: ...

    @abstractmethod
    async def servers_with_tables(self) -> list[int]:
        """Every server with a lobby, running or paused table."""

    # -- finished games' reviews (bot/service/reviews.py) ----------------------------------
    @abstractmethod
    async def save_reviews(self, rows: Sequence[ReviewRow]) -> None:
        """Write each seat's review of a finished game, replacing the one kept."""

    @abstractmethod
    async def get_reviews(self, channel_id: int, created_at: float) -> list[ReviewRow]:
        """Every seat's review of the game the channel held from `created_at`."""

    @abstractmethod
    async def pending_reviews(self) -> list[ReviewRow]:
        """The reviews still being computed, oldest first (a restart carries them on)."""
