"""Ratings: a multiplayer rating per server and game, from each finished game's ranking.

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation for
games of many players): every seat is a team, ranked by the game's final ranking, seats
that share a place tied. A seat's team is the members who played it, each weighted by
their share of its decisions; the part an automatic player (or a former member) took is
a stand-in at the starting rating that learns nothing. A member's figure on the
leaderboard is the conservative estimate (`ordinal`, mu - 3 sigma).

A game counts only if it finished (an abandoned game never reaches the archive), its
table was rated (`/community rated`, default yes) and at least two of its seats were
mostly played by members: beating automatic players alone moves no rating
(docs/rulings.md, Platform: results and ratings).

`rate_game` is a pure function of the ratings before the game and the game's archived
seats, so replaying every finished game in order (`rebuild`, `python -m bot ratings
--rebuild`) gives exactly the ratings the updates gave.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from ..store import Store
from ..store.community_rows import FinishedGame, FinishedSeat, RatingRow

__all__ = ["MODEL", "counts", "member_shares", "rate_game", "rebuild", "replay"]

MODEL = PlackettLuce()


def member_shares(seats: Sequence[FinishedSeat]) -> dict[str, dict[int, float]]:
    """Seat -> member -> their share of the seat's decisions (members only; automatic
    players and former members left out). A member who played two seats of one game
    counts at the seat where their share was largest."""
    best: dict[int, tuple[float, str]] = {}
    for s in seats:
        share = _share(s, seats)
        if s.user_id > 0 and not s.automatic and share > 0 and share > best.get(s.user_id, (0.0, ""))[0]:
            best[s.user_id] = (share, s.seat)
    out: dict[str, dict[int, float]] = {}
    for uid, (share, seat) in best.items():
        out.setdefault(seat, {})[uid] = share
    return out


def _share(s: FinishedSeat, seats: Sequence[FinishedSeat]) -> float:
    """A row's share of its seat's decisions; a seat with none is shared equally by its members."""
    if s.seat_decisions > 0:
        return (s.decisions + s.missed) / s.seat_decisions
    members = [x for x in seats if x.seat == s.seat and not x.automatic]
    return 1 / len(members) if members and not s.automatic else 0.0


def counts(game: FinishedGame, seats: Sequence[FinishedSeat]) -> bool:
    """Whether the game moves ratings: rated, and two or more seats mostly played by members."""
    if not game.rated:
        return False
    shares = member_shares(seats)
    return sum(1 for members in shares.values() if sum(members.values()) > 0.5) >= 2


def rate_game(
    game: FinishedGame, seats: Sequence[FinishedSeat], before: dict[int, RatingRow]
) -> list[RatingRow]:
    """The members' ratings after `game`, from `before` (members without one start at the
    model's default); [] when the game does not count."""
    if not counts(game, seats):
        return []
    shares = member_shares(seats)
    rank_of = {s.seat: s.rank for s in seats}
    names = {s.user_id: s.name for s in seats}
    wins: dict[int, float] = {}
    for s in seats:
        if s.user_id > 0 and not s.automatic:
            wins[s.user_id] = wins.get(s.user_id, 0.0) + s.win
    teams, weights, order = [], [], []
    ranks: list[float] = []  # the model reads a rank as any number (our ranks are whole)
    for seat in sorted(rank_of):
        members = shares.get(seat, {})
        team = [_rating(before.get(uid)) for uid in members]
        weight = list(members.values())
        rest = 1.0 - sum(weight)
        if rest > 1e-9 or not team:  # an automatic player's or a former member's part
            team.append(MODEL.rating())
            weight.append(rest if team[:-1] else 1.0)
        teams.append(team)
        weights.append(weight)
        ranks.append(rank_of[seat])
        order.append(list(members))
    rated = MODEL.rate(teams, ranks=ranks, weights=weights)
    out = []
    for uids, new_team in zip(order, rated, strict=True):
        for uid, r in zip(uids, new_team, strict=False):
            old = before.get(uid)
            out.append(
                RatingRow(
                    game.guild_id or 0, game.game, uid, names[uid], r.mu, r.sigma, r.ordinal(),
                    (old.games if old else 0) + 1, (old.wins if old else 0.0) + wins.get(uid, 0.0),
                )
            )
    return sorted(out, key=lambda r: r.user_id)


def _rating(row: RatingRow | None):
    return MODEL.rating() if row is None else MODEL.rating(mu=row.mu, sigma=row.sigma)


def replay(games: Sequence[tuple[FinishedGame, Sequence[FinishedSeat]]]) -> list[RatingRow]:
    """Every rating from the finished games in the order given (the order they finished)."""
    boards: dict[tuple[int, str], dict[int, RatingRow]] = {}
    for game, seats in games:
        board = boards.setdefault((game.guild_id or 0, game.game), {})
        for row in rate_game(game, seats, board):
            board[row.user_id] = row
    return sorted((r for board in boards.values() for r in board.values()), key=lambda r: (r.guild_id, r.game, r.user_id))


async def rebuild(store: Store) -> int:
    """Recompute every rating from the finished games in order and replace the stored ones;
    returns how many ratings there are now."""
    rows = replay(await store.community.finished_in_order())
    await store.community.replace_ratings(rows)
    return len(rows)
