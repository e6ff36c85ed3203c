"""What the bot still has to say, kept until it is said (docs/reliability.md, "Every post an
acknowledged action asks for is delivered").

An action's posts (its turn notices, events, standings, thread changes) are stored as an
outbox row in the same transaction as the action's save (`TableAccess.save(outbox=…)`), and
anything an answer adds after its last save is stored before the front end delivers it
(`keep`). The front end deletes the rows once delivered (`done`). A delivery that fails
leaves its rows for later (`failed`): retried with a growing wait, never sooner than Discord's
rate limit asks; a process that died leaves them too. `due` hands the rows that wait back,
each channel's rows together and in the order they were made (one outbox, folded as
`Outbox.merge` folds an answer's steps), so a channel's messages keep their order, and a
status change stored twice is shown once. A turn notice for a decision already taken by
then is dropped.

Rows a process is delivering are leased to it (`next_try_at` moved on by `LEASE`), so where
several processes share the database (PostgreSQL) only one delivers a row; a process that
dies leaves its lease to run out.

Turn notices waiting for their grace before their DM are rows of their own (`NoticeRow`):
the front end keeps them as it takes them from a delivered row, and drops them when sent or
moot.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..store import NoticeRow, OutboxRow, Store
from .outbox import LEASE, Outbox, Post, outbox_row

if TYPE_CHECKING:
    from .loaded import TableAccess
    from .shown import Shown

__all__ = ["Deliveries", "Redelivery", "retry_wait"]

log = logging.getLogger(__name__)

WAITS = (5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0)  # seconds before attempt 2, 3, … (then 600)
GIVE_UP = 7 * 86400.0  # a row undeliverable for a week is dropped, and said so in the log
STALE_KINDS = ("prompt", "reminder")  # posts about a decision: moot once it is taken


def retry_wait(attempts: int, retry_after: float | None = None) -> float:
    """Seconds before the next attempt after `attempts` failed ones; at least what a rate
    limit asked for."""
    wait = WAITS[min(max(attempts, 1), len(WAITS)) - 1]
    return max(wait, retry_after or 0.0)


@dataclass
class Redelivery:
    """A channel's waiting rows, in order, as the outboxes to say again: consecutive rows
    folded into one (their status shown once), except a row that opens or closes a phase
    thread, which is said alone, so the threads open and close as they did at the table."""

    channel_id: int
    parts: list[tuple[list[int], Outbox]]  # (row ids, their outbox), oldest first
    attempts: int  # how often its oldest row failed

    @property
    def ids(self) -> list[int]:
        return [i for ids, _ in self.parts for i in ids]


def _threads_change(out: Outbox) -> bool:
    return bool(out.open_thread or out.close_thread)


def _about_a_decision(out: Outbox) -> bool:
    return any(p.kind in STALE_KINDS for p in out.posts)


def _current(posts: list[Post], owing: set[str] | None) -> list[Post]:
    """The posts without turn notices and reminders for decisions no longer owed (all of
    them when the table cannot be read: better a notice too many than one too few)."""
    if owing is None:
        return posts
    return [p for p in posts if p.kind not in STALE_KINDS or p.seat is None or p.seat in owing]


def _unanswered(row: OutboxRow) -> Outbox:
    """A stored row as an outbox, without the private lines its member's answer showed."""
    out = Outbox.from_body(row.channel_id, row.body)
    if row.answered is not None:
        out.posts = [p for p in out.posts if not (p.to == "seat" and p.user_id == row.answered)]
    return out


class Deliveries:
    """The outbox rows and turn notices of every table.

    Owns: the `outbox` and `turn_notices` rows. It never changes a table: what a table says
    is decided by the part that saved it."""

    def __init__(self, store: Store, access: TableAccess, clock: Callable[[], float]) -> None:
        self.store = store
        self.access = access  # read only: which decisions are still owed, for stale notices
        self.clock = clock
        # what the status shows of a table as stored now (Posts.shown_now); set by TableService
        self.showing: Callable[[int], Awaitable[Shown | None]] | None = None

    async def keep(self, out: Outbox) -> None:
        """Store what `out` holds that no save stored (lines added after an answer's last
        save), before it is delivered; with what the status shows, where its status
        changed after the last save that wrote that (`shown`)."""
        if out.status_source is not None and self._stale(out):
            await self._show_now(out)
        row = outbox_row(out, self.clock())
        if row is not None:
            await self.store.add_outbox([row])
            out.mark_kept(row.id)

    def _stale(self, out: Outbox) -> bool:
        """No save wrote what `out` shows, or the table was saved again since by a save
        that wrote it into no outbox (a seat changed hands, a vote counted). A later
        action's save does not make it stale: that action's delivery shows the newer."""
        if out.shown is None:
            return True
        cached = self.access.cache.get(out.channel_id)
        return cached is not None and cached.row.version > out.shown.version and not cached.showed

    async def _show_now(self, out: Outbox) -> None:
        if self.showing is None:
            return
        try:
            shown = await self.showing(out.channel_id)
        except Exception:  # the front end says what it can without it (the status as text)
            log.warning("could not read what the status of table %s shows", out.channel_id, exc_info=True)
            return
        if shown is not None:
            out.shown, out.kept_shown = shown, False

    async def done(self, ids: Sequence[int], notices: Sequence[NoticeRow] = ()) -> None:
        """Delivered: the rows go, the turn notices they leave waiting are kept."""
        if ids or notices:
            await self.store.outbox_done(list(ids), notices)

    async def failed(
        self, ids: Sequence[int], attempts: int, retry_after: float | None = None, answered: int | None = None
    ) -> float:
        """The delivery failed (the `attempts`-th time): the rows wait; returns the wait.
        `answered`: the member whose answer showed them their own lines (not said again)."""
        wait = retry_wait(attempts, retry_after)
        if ids:
            await self.store.outbox_retry(list(ids), self.clock() + wait, answered)
        return wait

    async def release(self, ids: Sequence[int], answered: int | None = None) -> None:
        """Rows not delivered now, to be delivered behind older ones of their channel.
        `answered`: the member whose answer showed them their own lines (not said again)."""
        if ids:
            await self.store.outbox_retry(list(ids), self.clock(), answered)

    async def due(self, *, everything: bool = False) -> list[Redelivery]:
        """The waiting rows whose time has come, claimed, one outbox per channel.
        `everything`: all of them (a process alone on its database, starting up)."""
        rows = await self.store.claim_outbox(self.clock(), LEASE, everything=everything)
        by_channel: dict[int, list[OutboxRow]] = defaultdict(list)
        for row in rows:
            by_channel[row.channel_id].append(row)
        found = []
        for channel_id, mine in by_channel.items():
            mine.sort(key=lambda r: r.id)
            if self.clock() - mine[0].created_at > GIVE_UP:
                log.error("dropping %d posts for channel %s undelivered for a week", len(mine), channel_id)
                await self.done([r.id for r in mine])
                continue
            parts: list[tuple[list[int], Outbox]] = []
            for row in mine:
                out = _unanswered(row)
                if parts and not _threads_change(out) and not _threads_change(parts[-1][1]):
                    parts[-1][0].append(row.id)
                    parts[-1][1].merge(out)
                else:
                    parts.append(([row.id], out))
            owing = await self._owing(channel_id, parts) if any(_about_a_decision(o) for _, o in parts) else None
            for _, out in parts:
                out.posts = _current(out.posts, owing)
                if out.status_source is not None and out.shown is None:
                    await self._show_now(out)  # a row an older bot stored: the status as it is now
            # the wait grows with the failures of the oldest row: the ones behind it failed with it
            found.append(Redelivery(channel_id, parts, mine[0].attempts))
        return found

    async def _owing(self, channel_id: int, parts: list[tuple[list[int], Outbox]]) -> set[str] | None:
        """Who owes a decision, as the last waiting row's save wrote it (a channel's newer
        posts wait behind these), else as the table says now."""
        shown = parts[-1][1].shown
        if shown is not None:
            return set(shown.owing)
        return await self.owing(channel_id)

    async def owing(self, channel_id: int) -> set[str] | None:
        """The seats that owe a decision at the table now (None: the table cannot be read)."""
        try:
            table = await self.access.load(channel_id)
        except Exception:
            return None
        return {p.seat for p in table.prompts} if table.row.status == "running" else set()

    async def still_owes(self, channel_id: int, user_id: int) -> bool:
        """Whether the member holds a seat that owes a decision at the table now."""
        owing = await self.owing(channel_id)
        if not owing:
            return False
        seat = (await self.access.load(channel_id)).seat_of(user_id)
        return seat is not None and seat.seat in owing

    async def waiting(self) -> tuple[int, float | None, set[int], float | None]:
        """How many rows wait, the oldest one's age in seconds, their channels and when
        the soonest may be tried again."""
        count, oldest, channels, soonest = await self.store.outbox_waiting()
        return count, (self.clock() - oldest if oldest is not None else None), channels, soonest

    async def notices(self) -> list[NoticeRow]:
        return await self.store.turn_notices()

    async def drop_notices(self, keys: Sequence[tuple[int, int]]) -> None:
        await self.store.drop_turn_notices(list(keys))
