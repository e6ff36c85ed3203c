"""Who may see what of a server's games: one rule, read in one place (docs/architecture.md §3).

The rule: a member sees a table, a finished game or an abandoned seat of a server only if
they may open, now, the channel it was played in. A channel that has been deleted can be
opened by nobody, so its games are listed for nobody. Ratings follow the games: a reader
who may open every channel of a game's finished tables reads the server's stored ratings;
one who may not reads ratings recomputed from the games they may see alone, so a game in
a channel they cannot open moves nothing they read (docs/rulings.md, Platform: who sees
the server's games).

Which channels a member may open is the front end's to say (Discord's permissions, read
by `bot/discord/context.py`; the console opens every channel): it hands a `Reader`.
Every community read of the server's games goes through `Seen`, which asks the store for
the rows and gives back only those the reader may see; `Community` reaches the store's
read methods through it alone (tests/community/test_visibility.py checks both the rule,
on generated servers, and that no other read path exists).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..store.community import CommunityStore
from ..store.community_rows import DirectoryRow, FinishedGame, FinishedSeat, RatingRow, group_finished
from .ratings import replay

__all__ = ["EVERY_CHANNEL", "Reader", "Seen"]

Played = tuple[FinishedGame, list[FinishedSeat]]
EVERY_ROW = 2**62  # a limit no server's leaderboard reaches


def _as_listed(s: FinishedSeat) -> tuple[int, str, int]:
    return s.rank, s.seat, s.user_id


def _every_channel(channel_id: int) -> bool:
    return True


@dataclass(frozen=True)
class Reader:
    """Who reads (None: nobody in particular, the console's operator) and which channels
    of the server they may open."""

    user_id: int | None
    may_open: Callable[[int], bool] = _every_channel

    def sees(self, channel_id: int) -> bool:
        """The rule: what was played in a channel is seen by those who may open it."""
        return bool(self.may_open(channel_id))


EVERY_CHANNEL = Reader(None)  # the console: one operator who opens every table's channel


class Seen:
    """One server's games as one reader may see them. Made per request.

    A reader who may open every channel the server's games were played in reads the
    store's own queries (pages, sums and ratings in SQL); one who may not reads them worked
    out here from the games they may see alone. Both paths answer alike for the same
    games (tests/community/test_visibility.py compares them on generated servers)."""

    def __init__(self, store: CommunityStore, guild_id: int, reader: Reader) -> None:
        self._store = store
        self.guild_id = guild_id
        self.reader = reader
        self._all: list[Played] | None = None
        self._hidden: dict[str | None, bool] = {}

    async def _some_hidden(self, game: str | None = None) -> bool:
        """Whether a finished game (of `game`) of the server was played where the reader may
        not look: then the store's sums and pages would count it."""
        if game not in self._hidden:
            channels = await self._store.finished_channels(self.guild_id, game)
            self._hidden[game] = not all(self.reader.sees(c) for c in channels)
        return self._hidden[game]

    async def _finished(self, game: str | None = None) -> list[Played]:
        """The finished games the reader may see, in the order they finished."""
        if self._all is None:
            self._all = [
                (g, s)
                for g, s in await self._store.finished_in_order(self.guild_id)
                if self.reader.sees(g.channel_id)
            ]
        return [(g, s) for g, s in self._all if game in (None, g.game)]

    async def history(
        self, *, game: str | None = None, user_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[list[Played], bool]:
        """A page of the finished games the reader may see, newest first (only a member's,
        with `user_id`), and whether more follow."""
        if await self._some_hidden(game):
            rows = [
                (g, sorted(s, key=_as_listed))  # the store's order: best rank first
                for g, s in await self._finished(game)
                if user_id is None or any(x.user_id == user_id for x in s)
            ]
            rows.sort(key=lambda gs: (gs[0].finished_at, gs[0].id or 0), reverse=True)
            return rows[offset : offset + limit], len(rows) > offset + limit
        games = await self._store.finished_games(
            self.guild_id, game=game, user_id=user_id, offset=offset, limit=limit + 1
        )
        seats = await self._store.finished_seats([g.id for g in games[:limit] if g.id is not None])
        return group_finished(games[:limit], seats), len(games) > limit

    async def one(self, game_id: int) -> Played | None:
        """One finished game of the server by its number, if the reader may see it."""
        g = await self._store.finished_game(self.guild_id, game_id)
        if g is None or not self.reader.sees(g.channel_id):
            return None
        return g, await self._store.finished_seats([game_id])

    async def ratings(
        self, game: str, offset: int = 0, limit: int = EVERY_ROW
    ) -> tuple[list[RatingRow], int]:
        """A page of the ratings of `game` the reader reads, best first, members who hid
        their profile left out, and how many there are: the stored ones, or those of the
        games the reader may see alone."""
        if not await self._some_hidden(game):
            return await self._store.leaderboard(self.guild_id, game, offset, limit)
        shown, _ = await self._store.leaderboard(self.guild_id, game, 0, EVERY_ROW)
        listed = {r.user_id for r in shown}
        rows = [r for r in replay(await self._finished(game)) if r.user_id in listed]
        rows.sort(key=lambda r: (-r.ordinal, -r.user_id))
        return rows[offset : offset + limit], len(rows)

    async def member_ratings(self, user_id: int) -> list[RatingRow]:
        """A member's ratings, per game, as the reader reads them."""
        if not await self._some_hidden():
            return await self._store.member_ratings(self.guild_id, user_id)
        return [r for r in replay(await self._finished()) if r.user_id == user_id]

    async def member_record(self, user_id: int) -> list[dict[str, Any]]:
        """Per game and nation, the member's seats in the finished games the reader may see:
        games, wins, decisions, missed deadlines, the summed answer time."""
        if not await self._some_hidden():
            return await self._store.member_record(self.guild_id, user_id)
        totals: dict[tuple[str, str], dict[str, Any]] = {}
        for g, seats in await self._finished():
            for s in (s for s in seats if s.user_id == user_id):
                row = totals.setdefault(
                    (g.game, s.label),
                    {"ids": set(), "wins": 0.0, "decisions": 0, "missed": 0, "answer_seconds": 0.0},
                )
                row["ids"].add(g.id)
                row["wins"] += s.win
                row["decisions"] += s.decisions
                row["missed"] += s.missed
                row["answer_seconds"] += s.answer_seconds
        return [
            {"game": game, "label": label, "games": len(row.pop("ids")), **row}
            for (game, label), row in sorted(totals.items())
        ]

    async def member_abandoned(self, user_id: int) -> dict[str, int]:
        """The server's abandoned tables the member sat at that the reader may see, by game."""
        counts: dict[str, int] = {}
        for a in await self._store.member_abandoned_games(user_id):
            if a.guild_id == self.guild_id and self.reader.sees(a.channel_id):
                counts[a.game] = counts.get(a.game, 0) + 1
        return counts

    async def tables(self, game: str | None = None) -> list[DirectoryRow]:
        """The server's lobby, running and paused tables the reader may see."""
        return [r for r in await self._store.directory(self.guild_id, game) if self.reader.sees(r.channel_id)]
