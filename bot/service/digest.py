"""The daily digest: one direct message a day across all of a member's tables
(docs/architecture.md §3, the table service's parts).

A member who asks for it (`/game notify digest:08:00`) gets, once a day at that time in
their time zone, ONE direct message: for each running table where they hold a seat, the
game and its channel with a link, what they owe and by when (in their time zone), and what
happened there since they last acted (the public log, and their own private lines, since
the message reaches them alone), cut to a few lines, and their active pacts that end with
the Week, round or turn in play (a pact ends when the table passes its `until`,
bot/service/pacts.py, so the digest names those that may end before the next one). With a
digest on, turn notices and
reminders come only for decisions due before the next digest (`held_for_digest`, which
`Notifications.notice` asks); a decision due later waits for the digest.

When the next digest is due and when the last one went are stored with the member's
preferences (`NotifyPrefs.digest_due`, `digest_sent`). `Digest.tick` claims a due digest
and keeps its message as an outbox row in the same transaction (`Store.claim_digest`), so a
restart neither skips nor repeats a day's digest (a row kept but not yet said is said at
the next start, as every outbox row is), and where several processes share the database
only one of them sends it. A digest the bot was away for is sent once when it is back, and
the next comes at the chosen time at least `MIN_GAP` later.

`Digest` reads tables through `TableAccess` and never saves one.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from ..render import escape
from ..render.rich import Rich, Text, channel, member, small
from ..store import ActionRow, EventRow, NotifyPrefs
from .errors import TableError
from .outbox import Outbox, Post, outbox_row
from .pacts import pacts_of, parties_text
from .preferences import Preferences
from .signups import jump

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess

__all__ = [
    "Digest",
    "held_for_digest",
    "next_digest",
    "pacts_ending",
    "parse_digest_time",
    "clock_text",
    "local_time",
    "MIN_GAP",
]

log = logging.getLogger(__name__)

MIN_GAP = 12 * 3600.0  # a digest sent late (the bot was away) counts for the next one this close
SHOWN = 4  # log lines a table's part shows; the rest are counted
SCAN = 100  # the newest log lines read per table (more are said as "more than …")
BAD_TIME = "Give the digest time as HH:MM, e.g. 08:00 (or off to turn the digest off)."
_TIME = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")


def parse_digest_time(text: str) -> int:
    """ "08:00" or "8:00" -> minutes after midnight; a TableError in words otherwise."""
    m = _TIME.match(text)
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise TableError(BAD_TIME)
    return int(m.group(1)) * 60 + int(m.group(2))


def clock_text(minutes: int) -> str:
    """Minutes after midnight as a member reads a time of day: 480 -> "08:00"."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def next_digest(prefs: NotifyPrefs, after: float) -> float | None:
    """The first moment after `after` at the member's digest time in their time zone;
    None when they have no digest."""
    if not prefs.digest:
        return None
    minutes = parse_digest_time(prefs.digest)
    zone = ZoneInfo(prefs.timezone)
    day = datetime.fromtimestamp(after, zone).date()
    for offset in range(3):  # today, tomorrow, or (across a time change) the day after
        d = day + timedelta(days=offset)
        at = datetime(d.year, d.month, d.day, minutes // 60, minutes % 60, tzinfo=zone).timestamp()
        if at > after:
            return at
    return None  # not reached: a day has a moment at every time of day


def held_for_digest(prefs: NotifyPrefs, due: float | None, now: float) -> bool:
    """Whether a turn notice or reminder for a decision due at `due` waits for the member's
    digest: they have one, and the decision is not due before it (one without a deadline
    is never due before it)."""
    upcoming = next_digest(prefs, now)
    return upcoming is not None and (due is None or due > upcoming)


def local_time(unix: float, timezone: str) -> str:
    """A moment in the member's time zone, in words: "Tuesday 8 December, 20:00"."""
    at = datetime.fromtimestamp(unix, ZoneInfo(timezone))
    return f"{at:%A} {at.day} {at:%B}, {at:%H:%M}"


class Digest:
    """Composing each member's daily digest and sending the ones due. Reads tables through
    `access`, never saves one; changes only the member's digest bookkeeping."""

    def __init__(self, access: TableAccess, preferences: Preferences) -> None:
        self.access = access
        self.store = access.store
        self.preferences = preferences

    def clock(self) -> float:
        return self.access.clock()  # the service's clock, which the console's `wait` moves

    async def tick(self) -> list[Outbox]:
        """Send every digest due now: one outbox each, its message already kept."""
        if self.store.lost:  # nothing can be stored: a digest sent now would be sent again
            return []
        now = self.clock()
        outs = []
        for user_id in await self.store.due_digests(now):
            try:
                out = await self.send(user_id, now)
            except Exception:  # one member's broken digest must not stop the others'
                log.exception("the daily digest of a member failed")
                continue
            if out is not None:
                outs.append(out)
        return outs

    async def next_due(self) -> float | None:
        return await self.store.next_digest()

    async def send(self, user_id: int, now: float) -> Outbox | None:
        """The member's digest, if it is due: claimed with its message kept, then returned
        to be delivered (None: not due, claimed by another process, or nothing to say)."""
        prefs = await self.store.get_notify(user_id)
        if prefs.digest_due is None or prefs.digest_due > now:
            return None
        following = next_digest(prefs, now + MIN_GAP)
        out = None
        try:
            out = await self.compose(prefs, following)
        except Exception:  # the day's digest is not tried every minute: the next one will be
            log.exception("composing a daily digest failed")
        row = outbox_row(out, now) if out is not None else None
        if not await self.store.claim_digest(user_id, prefs.digest_due, following, now, row):
            return None
        if out is not None and row is not None:
            out.mark_kept(row.id)
        cached = self.preferences.cache.get(user_id)
        if cached is not None:
            self.preferences.cache[user_id] = replace(cached, digest_due=following, digest_sent=now)
        return out

    async def compose(self, prefs: NotifyPrefs, following: float | None) -> Outbox | None:
        """The digest as an outbox holding one direct message to the member (None when no
        running table of theirs has a seat of theirs)."""
        user_id = prefs.user_id
        parts: list[Text] = []
        channels: list[int] = []
        owed = 0
        for channel_id in sorted(await self.store.tables_of_user(user_id)):
            try:
                t = await self.access.load(channel_id)
            except TableError:
                continue
            me = t.seat_of(user_id)
            if t.row.status != "running" or t.state is None or me is None or me.seat is None:
                continue
            if t.human(me.seat) is None:
                continue  # automatic play holds the seat: nothing is theirs to decide
            text, count = await self._table(t, me.seat, prefs)
            parts.append(text)
            channels.append(channel_id)
            owed += count
        if not parts:
            return None
        head = f"**Your daily digest** ({prefs.digest} {prefs.timezone}), {_count(len(parts), 'table')}:"
        tail = small(
            f"Turn notices now come only for decisions due before your next digest, "
            f"{local_time(following, prefs.timezone)}. `/game notify digest:off` turns the digest off."
            if following is not None
            else "`/game notify digest:off` turns the digest off."
        )
        owing = f"you owe {_count(owed, 'decision')}" if owed else "you owe nothing right now"
        fallback = Rich.of(
            member(user_id),
            f" your daily digest could not come by direct message: {owing} at "
            f"{_count(len(parts), 'table')}; `/game mine` lists what you owe.",
        )
        out = Outbox(channel_id=channels[0])
        text = Rich.join("\n\n", [head, *parts, tail])
        out.posts.append(Post(to="seat", user_id=user_id, text=text, dm=True, kind="digest", public=fallback))
        return out

    async def _table(self, t: LoadedTable, seat: str, prefs: NotifyPrefs) -> tuple[Text, int]:
        """One table's part of the digest, and how many decisions the member owes there."""
        g = t.game
        channel_id = t.row.channel_id
        link = f" ({jump(t.row.guild_id, channel_id)})" if t.row.guild_id else ""
        lines: list[Text] = [Rich.of(f"**{g.title}** in ", channel(channel_id), f"{link}, as {t.label(seat)}:")]
        due = {d.phase: d.due_at for d in t.deadlines}
        mine = [p for p in t.prompts if p.seat == seat]
        for p in mine:
            when = f", due {local_time(due[p.phase], prefs.timezone)}" if p.phase in due else ""
            lines.append(f"- You owe {g.owed(p)}{when}.")
        if not mine:
            lines.append("- You owe nothing right now.")
        lines += await self._since(t, seat, prefs.user_id)
        lines += [f"- {line}" for line in pacts_ending(t, seat)]
        return Rich.join("\n", lines), len(mine)

    async def _since(self, t: LoadedTable, seat: str, user_id: int) -> list[str]:
        """What happened at the table since the member last acted there: the newest few
        lines of the public log and of their own private lines, the rest counted."""
        channel_id = t.row.channel_id
        actions = await self.store.get_actions(channel_id)
        last = next((a for a in reversed(actions) if a.user_id == user_id), None)
        rows = await self.store.get_events(channel_id, audience=seat, public_only=False, limit=SCAN)
        since = [e for e in rows if _after(e, last)]  # newest first
        heading = "Since your last move here:" if last is not None else "Since the game began:"
        if not since:
            return ["- Nothing has happened since your last move here."] if last is not None else []
        shown = [f"  {e.text}" for e in reversed(since[:SHOWN])]
        more = len(since) - SHOWN
        if more > 0:
            many = f"more than {more}" if len(rows) == SCAN and _after(rows[-1], last) else str(more)
            shown.insert(0, f"  … and {many} earlier (`/game log` in the channel shows them)")
        return [f"- {heading}", *shown]


def pacts_ending(t: LoadedTable, seat: str) -> list[str]:
    """The seat's active pacts that end with the Week, round or turn now in play: the table
    passing it ends them, which may come before the next digest (a period has no set end)."""
    period = t.game.period(t.state) if t.state is not None else None
    if period is None:
        return []
    return [
        f"Your pact with {parties_text(t, p['parties'], but=seat)}, “{escape(p['text'])}”, "
        f"expires at the end of {p['until_label']}, the {period.word} now in play."
        for p in pacts_of(t.row.meta)
        if p["status"] == "active" and seat in p["parties"] and p.get("until") == period.number
    ]


def _after(e: EventRow, last: ActionRow | None) -> bool:
    """Whether the log line came after the member's last action."""
    if last is None:
        return True
    if e.action_idx is not None:
        return e.action_idx > last.idx
    return e.at > last.at


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
