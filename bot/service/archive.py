"""The archive: a finished game recorded for the server, apart from its table.

When a game's last action is saved (`Play.step` sees the outcome), `archive_finished`
writes the game to the store's `finished_games` and `finished_seats`: server, channel,
game, dates, the final ranking (the game's `outcome`: ranks, scores, shared places) and,
per seat, who played it by how many decisions, how many an automatic player made, and the
deadlines missed. The rows name no table row, so the archive outlives the channel and the
next table in it. The ratings the game changes are written in the same transaction
(bot/service/ratings.py).

What a decision is, read from the action log and the seat history: every action except
one with no real choice (logged with a "forced" event). It is the member's who held the
seat then (the seat history), the automatic player's while the seat was automatic, and a
missed deadline when the deadline acted for a member (no user on the action), or when a
deadline handed the seat to the automatic player. The answer time of a decision is the
time from the table's previous move to it (the decision may have been owed a little
longer in a phase of simultaneous orders).

An abandoned game is archived too (`archive_abandoned`), apart from the finished ones: one
row per member seated when it was abandoned, so a profile counts it after the channel's
next table replaced its row. It has no ranking, so it moves no rating and is nobody's win;
a table abandoned before its game started is no game and is not archived (docs/rulings.md,
Platform).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..store import ActionRow, SeatHistoryRow, Store
from ..store.community_rows import AbandonedSeat, FinishedGame, FinishedSeat
from ..store.forgetting import FORGOTTEN, anonymous_id
from .ratings import rate_game

if TYPE_CHECKING:
    from engine.core import Outcome

    from .loaded import LoadedTable

__all__ = ["AUTOMATIC_ID", "AUTOMATIC_NAME", "archive_abandoned", "archive_finished", "finished_record", "tally"]

log = logging.getLogger(__name__)

AUTOMATIC_ID = -1  # the automatic player's row at a seat
AUTOMATIC_NAME = "the automatic player"


@dataclass
class _Tally:
    """One seat's decisions, by member."""

    decisions: dict[int, int] = field(default_factory=dict)
    missed: dict[int, int] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)
    automatic: int = 0
    total: int = 0

    def add(self, what: dict, uid: int, n: float = 1) -> None:
        what[uid] = what.get(uid, 0) + n


def tally(
    actions: Sequence[ActionRow], history: Sequence[SeatHistoryRow], forced: set[int]
) -> tuple[dict[str, _Tally], dict[int, str]]:
    """Per seat, who made how many of its decisions; and each member's latest name."""
    by_seat: dict[str, list[SeatHistoryRow]] = {}
    names: dict[int, str] = {}
    for h in history:
        by_seat.setdefault(h.seat, []).append(h)
        if not h.automatic or h.user_id > 0:
            names[h.user_id] = h.name
    seats: dict[str, _Tally] = {seat: _Tally() for seat in by_seat}
    for rows in by_seat.values():  # a deadline that handed a member's seat to the automatic player
        for h in rows:
            if h.reason == "deadline" and h.user_id > 0:
                seats[h.seat].add(seats[h.seat].missed, h.user_id)
                seats[h.seat].total += 1
    previous = min((h.at for h in history), default=actions[0].at if actions else 0.0)
    for a in actions:
        if a.idx in forced:
            previous = a.at
            continue
        t = seats.setdefault(a.seat, _Tally())
        holder = _holder(by_seat.get(a.seat, []), a.idx)
        t.total += 1
        if holder is None or holder.automatic:
            t.automatic += 1
        elif a.user_id is None:
            t.add(t.missed, holder.user_id)
        else:
            t.add(t.decisions, a.user_id)
            t.add(t.seconds, a.user_id, max(0.0, a.at - previous))
        previous = a.at
    return seats, names


def _holder(rows: list[SeatHistoryRow], idx: int) -> SeatHistoryRow | None:
    """Who held the seat at action `idx`: the last history row from that step or before."""
    found = None
    for h in rows:
        if h.from_step <= idx:
            found = h
    return found


def finished_record(
    t: LoadedTable,
    outcome: Outcome,
    actions: Sequence[ActionRow],
    history: Sequence[SeatHistoryRow],
    forced: set[int],
    now: float,
) -> tuple[FinishedGame, list[FinishedSeat]]:
    """The archive's rows for the finished table `t`, which ended with `outcome`."""
    seats, names = tally(actions, history, forced)
    for s in t.seats:
        names.setdefault(s.user_id, s.name)
    # members forgotten while the game ran (named "a former member" already): archived under
    # ids that name nobody, so no rating or profile is theirs again
    anonymous = {uid: anonymous_id() for uid in t.row.meta.get(FORGOTTEN, ())}
    game = FinishedGame(
        guild_id=t.row.guild_id or 0,  # 0: a table outside a server (the console)
        channel_id=t.row.channel_id,
        game=t.game.id,
        created_at=t.row.created_at,
        finished_at=now,
        outcome=outcome.model_dump(mode="json"),
        reason=outcome.reason,
        rated=bool(t.row.meta.get("rated", True)),
        message_id=t.row.status_message_id,
    )
    rows: list[FinishedSeat] = []
    for st in outcome.standings:
        tl = seats.get(st.seat, _Tally())
        # every member who held the seat, even one who made none of its decisions
        held = {h.user_id for h in history if h.seat == st.seat and h.user_id > 0}
        members = set(tl.decisions) | set(tl.missed) | held
        mostly_automatic = tl.automatic * 2 > tl.total
        for uid in sorted(members):
            mine = tl.decisions.get(uid, 0) + tl.missed.get(uid, 0)
            share = mine / tl.total if tl.total else 1 / len(members)
            won = share if st.rank == 1 and not mostly_automatic else 0.0
            rows.append(
                FinishedSeat(
                    st.seat, t.label(st.seat), anonymous.get(uid, uid), names.get(uid, "a member"), st.rank, st.score,
                    tl.decisions.get(uid, 0), tl.missed.get(uid, 0), tl.total, tl.automatic, won,
                    tl.seconds.get(uid, 0.0),
                )
            )
        if tl.automatic:
            rows.append(
                FinishedSeat(
                    st.seat, t.label(st.seat), AUTOMATIC_ID, AUTOMATIC_NAME, st.rank, st.score, tl.automatic,
                    0, tl.total, tl.automatic, automatic=True,
                )
            )
    return game, rows


async def archive_finished(store: Store, t: LoadedTable, now: float) -> None:
    """Record the finished table `t` and update the ratings it counts for. Never raises:
    the game is saved already, and `python -m bot ratings --rebuild` archives what a
    failure here left out."""
    try:
        await _archive(store, t, now)
    except Exception:
        log.exception("could not archive the finished game in channel %s", t.row.channel_id)


async def _archive(store: Store, t: LoadedTable, now: float) -> int | None:
    if t.state is None or (outcome := t.game.outcome(t.state)) is None:
        return None
    if await store.community.finished_recorded(t.row.channel_id, t.row.created_at):
        return None
    channel_id = t.row.channel_id
    actions = await store.get_actions(channel_id)
    history = await store.get_seat_history(channel_id)
    forced = {
        e.action_idx
        for e in await store.get_all_events(channel_id)
        if e.kind == "forced" and e.action_idx is not None
    }
    game, seats = finished_record(t, outcome, actions, history, forced, now)
    front = await store.get_front(channel_id)  # the status message, in the front end's row
    if front is not None and front.table_created == t.row.created_at:
        game.message_id = front.status_message_id
    members = sorted({s.user_id for s in seats if s.user_id > 0})
    before = await store.community.get_ratings(game.guild_id or 0, game.game, members)
    ratings = rate_game(game, seats, before)
    game.counted = bool(ratings)
    return await store.community.record_finished(game, seats, ratings)


async def archive_missing(store: Store, tables: Sequence[LoadedTable], now: float) -> int:
    """Archive the finished tables among `tables` that are not yet (a failure at the end of
    the game, or games that finished before the archive existed); how many were added."""
    added = 0
    for t in tables:
        if t.row.status == "finished" and await _archive(store, t, t.row.updated_at or now) is not None:
            added += 1
    return added


async def archive_abandoned(store: Store, t: LoadedTable, now: float) -> None:
    """Record the abandoned table `t` for its members' profiles, if its game had started.
    Never raises: the abandon is saved already, and a profile then counts one game fewer."""
    if t.row.seed is None and t.state is None:
        return  # abandoned in the lobby: no game was played
    seats = [
        AbandonedSeat(t.row.guild_id or 0, t.row.channel_id, t.row.created_at, t.game.id, s.user_id, now)
        for s in t.seats
        # a member, even one whose seat is played automatically now; not one who was forgotten
        if s.user_id > 0 and s.user_id not in t.row.meta.get(FORGOTTEN, ())
    ]
    if not seats:
        return
    try:
        await store.community.record_abandoned(seats)
    except Exception:
        log.exception("could not archive the abandoned game in channel %s", t.row.channel_id)
