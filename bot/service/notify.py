"""Notification preferences: DM or mention, timezone, quiet hours, the daily digest; `/game mine`.

`Preferences` owns the members' preferences kept in memory; `Notifications` owns changing
them, whether a member's DMs are closed, `/game mine`, and how a turn notice or reminder
reaches a member (`notice`), or waits for their daily digest (bot/service/digest.py).
Preferences belong to the member, not the table, so one `/game notify` applies at every
table they sit at. Neither saves a table.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..render import escape
from ..render.rich import Rich, Text, channel, member, moment
from ..store import NotifyPrefs
from .digest import MIN_GAP, clock_text, held_for_digest, next_digest, parse_digest_time
from .errors import TableError
from .outbox import Outbox, Post, seat_post
from .preferences import Preferences

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess

_HOURS = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$")


def parse_quiet_hours(text: str) -> tuple[int, int]:
    """ "22-07" or "22:30-07:00" -> (start, end) in minutes after midnight."""
    m = _HOURS.match(text)
    if not m:
        raise TableError('Quiet hours look like "22-07" or "22:30-07:00" (or "off").')
    start = int(m.group(1)) * 60 + int(m.group(2) or 0)
    end = int(m.group(3)) * 60 + int(m.group(4) or 0)
    if start >= 24 * 60 or end >= 24 * 60 or start == end:
        raise TableError("Quiet hours run between two different times of day, e.g. 22-07.")
    return start, end


def quiet_until(prefs: NotifyPrefs, now: float) -> float | None:
    """When `now` falls in the member's quiet hours, the moment they end; else None."""
    if not prefs.quiet_hours:
        return None
    start, end = parse_quiet_hours(prefs.quiet_hours)
    local = datetime.fromtimestamp(now, ZoneInfo(prefs.timezone))
    minute = local.hour * 60 + local.minute
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    ends = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    return ends.timestamp()


def describe_prefs(p: NotifyPrefs) -> str:
    how = "a DM" if p.mode == "dm" else "a mention in the table's channel"
    quiet = f"quiet hours {p.quiet_hours} ({p.timezone})" if p.quiet_hours else "no quiet hours"
    said = f"Turn notices and reminders come as {how}; timezone {p.timezone}; {quiet}."
    if p.digest:
        said += (
            f" Your digest comes daily at {p.digest} {p.timezone}"
            + (" (by DM)" if p.mode == "mention" else "")
            + "; turn notices now come only for decisions due before the next digest."
        )
    return said


def _in_quiet_hours(minute: int, quiet_hours: str | None) -> int | None:
    """When `minute` (after midnight) falls in the quiet hours, the minute they end; else None."""
    if not quiet_hours:
        return None
    start, end = parse_quiet_hours(quiet_hours)
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    return end if inside else None


class Notifications:
    """Changing preferences, DM bookkeeping, `/game mine` and turn notices. Reads tables
    through `access`, never saves one."""

    def __init__(self, access: TableAccess, preferences: Preferences, clock: Callable[[], float]) -> None:
        self.access = access
        self.store = access.store
        self.preferences = preferences
        self.clock = clock

    async def set_notify(
        self,
        user_id: int,
        *,
        mode: str | None = None,
        timezone: str | None = None,
        quiet_hours: str | None = None,
        digest: str | None = None,
    ) -> str:
        prefs = await self.store.get_notify(user_id)
        reopened = False
        if mode is not None:
            mode = mode.strip().lower()
            if mode not in ("dm", "mention"):
                raise TableError("Notices come as dm or mention.")
            prefs.mode = mode  # type: ignore[assignment]
            if mode == "dm" and await self.store.is_dm_closed(user_id):
                # asking for DMs again is how a member whose DMs failed says they opened them
                await self.mark_dm_open(user_id)
                reopened = True
        if timezone is not None:
            try:
                ZoneInfo(timezone.strip())
            except (ZoneInfoNotFoundError, ValueError):
                raise TableError(f"“{escape(timezone[:40])}” is not a timezone name like Europe/Vienna or UTC.") from None
            prefs.timezone = timezone.strip()
        if quiet_hours is not None:
            text = quiet_hours.strip().lower()
            if text in ("", "off", "none"):
                prefs.quiet_hours = None
            else:
                parse_quiet_hours(text)
                prefs.quiet_hours = text.replace(" ", "")
        moved = ""
        if digest is not None or timezone is not None or quiet_hours is not None:
            moved = self._set_digest(prefs, digest)
        await self.store.set_notify(prefs, self.clock())
        self.preferences.cache[user_id] = prefs
        again = " I will try direct messages again." if reopened else ""
        off = " The daily digest is off: turn notices come as they fall due." if digest is not None and not prefs.digest else ""
        return moved + describe_prefs(prefs) + off + again

    def _set_digest(self, prefs: NotifyPrefs, digest: str | None) -> str:
        """The digest's time as asked (`digest`: "08:00", or "off"), kept out of the quiet
        hours, and when the next one is due: the first such time after now, and at least
        `MIN_GAP` after the last one went. Returns what was moved, in words, or ""."""
        if digest is not None:
            text = digest.strip().lower()
            prefs.digest = None if text in ("", "off", "none") else clock_text(parse_digest_time(text))
        if not prefs.digest:
            prefs.digest_due = None
            return ""
        moved = ""
        asked = parse_digest_time(prefs.digest)
        ends = _in_quiet_hours(asked, prefs.quiet_hours)
        if ends is not None:
            prefs.digest = clock_text(ends)
            moved = (
                f"{clock_text(asked)} falls in your quiet hours ({prefs.quiet_hours}), so your digest "
                f"comes when they end, at {prefs.digest}. "
            )
        after = max(self.clock(), (prefs.digest_sent or 0.0) + MIN_GAP)
        prefs.digest_due = next_digest(prefs, after)
        return moved

    async def mine(self, user_id: int) -> Text:
        lines: list[Text] = []
        for channel_id in await self.store.tables_of_user(user_id):
            try:
                t = await self.access.load(channel_id)
            except TableError:
                continue
            me = t.seat_of(user_id)
            if me is None:
                continue
            where = Rich.of(channel(channel_id), f" {t.game.title}")
            if t.row.status == "lobby":
                lines.append(Rich.of(where, ": in the lobby, not started."))
                continue
            label = f" as {t.label(me.seat)}" if me.seat else ""
            owed = [p for p in t.prompts if p.seat == me.seat]
            if t.row.status == "paused":
                lines.append(Rich.of(where, f"{label}: paused."))
            elif not owed:
                lines.append(Rich.of(where, f"{label}: you owe nothing right now."))
            else:
                due = {d.phase: d.due_at for d in t.deadlines}
                for p in owed:
                    when = Rich.of(", due ", moment(due[p.phase])) if p.phase in due else ""
                    lines.append(Rich.of(where, f"{label}: you owe {t.game.owed(p)}", when, "."))
        return Rich.join("\n", lines) if lines else "You are not seated at any open table."

    # -- private delivery bookkeeping ------------------------------------------------------
    async def mark_dm_closed(self, user_id: int) -> None:
        await self.store.set_dm_closed(user_id, True, self.clock())

    async def mark_dm_open(self, user_id: int) -> None:
        """A DM went through again (or the member asked): stop treating their DMs as closed."""
        await self.store.set_dm_closed(user_id, False, self.clock())

    async def dm_closed(self, user_id: int) -> bool:
        return await self.store.is_dm_closed(user_id)

    def prefs_of(self, user_id: int) -> NotifyPrefs:
        return self.preferences.of(user_id)

    def notice(self, t: LoadedTable, out: Outbox, seat: str, text: Text, public: Text, *, kind: str) -> None:
        """A turn notice or reminder for the member at `seat`, the way they asked for it:
        a DM with `text`, or a mention in the channel with `public` (which names no secret)
        plus `text` privately on request. A DM carries the mention too: the front end
        sends that instead when the member's DMs are closed. Automatic seats get nothing;
        a member with a daily digest gets neither DM nor mention for a decision due after
        their next digest, only the private line."""
        human = t.human(seat)
        if human is None:
            return
        prefs = self.preferences.of(human.user_id)
        if prefs.digest and kind in ("prompt", "reminder") and held_for_digest(prefs, _due(t, seat), self.clock()):
            # due after the member's next digest, which tells them of it: no DM and no mention,
            # only the private line (their own answer shows it when they are the caller)
            seat_post(t, out, seat, text, kind=kind, dm=False)
            return
        mention = Rich.of(member(human.user_id), " ", public)
        if prefs.mode == "mention":
            # the seat named too: a notice delivered late is dropped if the seat owes nothing then
            out.posts.append(Post(to="channel", kind=kind, seat=seat, user_id=human.user_id, text=mention))
            seat_post(t, out, seat, text, kind=kind, dm=False)
        else:
            seat_post(t, out, seat, text, kind=kind, dm=True, public=mention)


def _due(t: LoadedTable, seat: str) -> float | None:
    """The soonest deadline of a decision the seat owes at the table (None: none has one)."""
    owed = {p.phase for p in t.prompts if p.seat == seat}
    return min((d.due_at for d in t.deadlines if d.phase in owed), default=None)
