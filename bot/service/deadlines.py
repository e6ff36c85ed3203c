"""Deadlines: reminders, expiry (default orders, extend, pause, autopilot), outages.

A mixin of `TableService`; it works on a loaded `LoadedTable` through the service's `_save`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from engine.core import Prompt

from ..process.logsafe import log_game_failure
from ..render.rich import Rich, Text, member, moment
from ..render.text import relative
from ..store import DatabaseLost, DeadlineRow, SeatHistoryRow, Shards, StoreError
from .errors import ENGINE_FAILED, TableError, host_only
from .loaded import started_state
from .notify import quiet_until
from .outbox import Outbox, Post
from .phases import DEFAULT_LOOP_CAP, owed_at_expiry, phase_seconds, reminder_times
from .play import automatic_row

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess
    from .notify import Notifications
    from .play import Play
    from .posts import Posts

log = logging.getLogger(__name__)

MIN_DEADLINE_HOURS = 0.25  # the host's /game deadline: from 15 minutes…
MAX_DEADLINE_HOURS = 30 * 24.0  # …to 30 days
OUTAGE_MIN = 150.0  # seconds since the last heartbeat (one a minute) that count as downtime
RECOVER_BATCH = 100  # tables recovered concurrently after an outage


class Deadlines:
    """Reminders, expiry and outages of the tables this process serves (its shards)."""

    def __init__(
        self,
        access: TableAccess,
        play: Play,
        posts: Posts,
        notifications: Notifications,
        shards: Shards,
        clock: Callable[[], float],
    ) -> None:
        self.access = access
        self.store = access.store
        self.play = play
        self.posts = posts
        self.notifications = notifications
        self.shards = shards
        self.clock = clock

    async def tick(self) -> list[Outbox]:
        if self.store.lost:  # nothing can be saved: a deadline played now would be forgotten
            return []
        now = self.clock()
        outs = await self.play.settle()  # automatic moves another process's saves cut short
        for channel_id in await self.store.due_tables(now, self.shards):
            try:
                out = await self.access.with_table(channel_id, lambda t: self._tick_table(t, now))
            except Exception:  # one broken table must not stop every other table's deadlines
                log.exception("deadline processing failed for channel %s", channel_id)
                continue
            if out is not None:
                outs.append(out)
        return outs

    async def next_wakeup(self) -> float | None:
        if self.play.unsettled:  # automatic moves left for later are played at the next tick
            return self.clock()
        return await self.store.next_due(self.shards)

    async def _tick_table(self, t: LoadedTable, now: float) -> Outbox | None:
        if t.row.status != "running" or t.state is None:
            return None
        out = Outbox(channel_id=t.row.channel_id)
        settings = t.settings
        prompts = t.prompts
        for d in sorted(t.deadlines, key=lambda d: d.due_at):
            if d.next_at > now:
                continue
            if d.due_at > now:  # only reminders are due; several overdue ones become one
                t = await self._remind(t, d, prompts, now, out)
            elif settings.on_expiry == "pause":
                t = await self._pause_expired(t, d, prompts, out)
                break
            elif settings.on_expiry == "extend" and not d.extended:
                t = await self._extend(t, d, prompts, now, out)
            elif settings.on_expiry == "autopilot":
                t = await self._autopilot(t, d.phase, out)
                if t.row.status != "running":
                    break
            else:
                t = await self._default_orders(t, d.phase, out)
                if t.row.status != "running":
                    break
            prompts = t.prompts
        out.status = self.posts.status(t)
        return out

    # -- host tools for a running game ------------------------------------------------------
    def _running_for_host(self, t: LoadedTable, user_id: int, admin: bool, what: str) -> None:
        host_only(t, user_id, admin, what)
        if t.row.status == "paused":
            raise TableError("The game is paused; /game resume it first.")
        if t.row.status != "running" or t.state is None:
            raise TableError("There is no running game here.")
        if not t.deadlines:
            raise TableError("Nothing is owed right now, so there is no deadline.")

    async def set_deadline(
        self, channel_id: int, user_id: int, hours: float, *, admin: bool = False
    ) -> Outbox:
        """The host moves the current deadline to `hours` from now (reminders follow it)."""

        async def run(t: LoadedTable) -> Outbox:
            self._running_for_host(t, user_id, admin, "change the deadline")
            if not MIN_DEADLINE_HOURS <= hours <= MAX_DEADLINE_HOURS:
                raise TableError(
                    f"A deadline is between {MIN_DEADLINE_HOURS * 60:.0f} minutes and "
                    f"{MAX_DEADLINE_HOURS / 24:.0f} days from now, not {hours:g} hours."
                )
            now = self.clock()
            due = now + hours * 3600
            deadlines = [replace(d, due_at=due, reminders=reminder_times(t.settings, now, due)) for d in t.deadlines]
            out = Outbox(channel_id=channel_id, reply=Rich.of("The deadline is now ", moment(due), "."))
            out.posts.append(
                Post(to="channel", kind="notice", text=Rich.of("The host moved the deadline to ", moment(due, "F"), "."))
            )
            t = await self.access.save(t, deadlines=deadlines, outbox=out)
            out.status = self.posts.status(t)
            return out

        return await self.access.with_table(channel_id, run)

    async def end_phase(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        """The host ends the current phase now: the table's expiry policy applies as if its
        deadline had passed (default orders, a pause, or the automatic player). "Extend once"
        does not extend here: the host asked for the end."""

        async def run(t: LoadedTable) -> Outbox:
            self._running_for_host(t, user_id, admin, "end the phase")
            now = self.clock()
            first = min(t.deadlines, key=lambda d: d.due_at)
            ended = replace(first, due_at=now, reminders=[], extended=True)
            out = Outbox(channel_id=channel_id)
            out.posts.append(Post(to="channel", kind="notice", text="The host ended the phase now."))
            t = await self.access.save(
                t, deadlines=[ended if d.phase == first.phase else d for d in t.deadlines], outbox=out
            )
            ticked = await self._tick_table(t, now)
            if ticked is not None:
                out.merge(ticked)
            out.reply = "The phase is ended; the table's expiry setting applied."
            return out

        return await self.access.with_table(channel_id, run)

    async def nudge(self, channel_id: int, user_id: int, *, admin: bool = False) -> Outbox:
        """The host pings every member who still owes a decision: one mention each, naming
        only the kind of decision and its deadline, never a secret."""

        async def run(t: LoadedTable) -> Outbox:
            self._running_for_host(t, user_id, admin, "nudge the players")
            due = {d.phase: d.due_at for d in t.deadlines}
            out = Outbox(channel_id=channel_id)
            seen: set[int] = set()
            for p in t.prompts:
                human = t.human(p.seat)
                if human is None or human.user_id in seen:
                    continue
                seen.add(human.user_id)
                when = Rich.of(", due ", moment(due[p.phase])) if p.phase in due else ""
                out.posts.append(
                    Post(
                        to="channel",
                        kind="reminder",
                        user_id=human.user_id,
                        text=Rich.of(
                            member(human.user_id),
                            f" the table is waiting for you in {t.game.title}: {t.game.owed(p)}",
                            when,
                            ".",
                        ),
                    )
                )
            out.reply = (
                f"Nudged {len(seen)} player{'s' if len(seen) != 1 else ''}." if seen else "Nobody to nudge: "
                "only automatic seats owe a decision."
            )
            return out

        return await self.access.with_table(channel_id, run)

    async def _remind(
        self, t: LoadedTable, d: DeadlineRow, prompts: list[Prompt], now: float, out: Outbox
    ) -> LoadedTable:
        """Send the reminders due now. A member inside their quiet hours is reminded when
        they end instead (or a minute before the deadline, if that comes first)."""
        meta = dict(t.row.meta)
        deferred_all = dict(meta.get("deferred", {}))
        deferred = dict(deferred_all.get(d.phase, {}))  # seat -> when
        due = [r for r in d.reminders if r <= now]
        regular = [r for r in due if r not in deferred.values()]
        ripe = {seat for seat, at in deferred.items() if at <= now}
        later: list[float] = []
        for p in prompts:
            if p.phase != d.phase or (not regular and p.seat not in ripe):
                continue
            human = t.human(p.seat)
            if human is None:
                continue
            if p.seat not in ripe:
                if p.seat in deferred:  # already waiting for the end of their quiet hours
                    continue
                ends = quiet_until(self.notifications.prefs_of(human.user_id), now)
                if ends is not None and min(ends, d.due_at - 60) > now:
                    deferred[p.seat] = min(ends, d.due_at - 60)
                    later.append(deferred[p.seat])
                    continue
            deferred.pop(p.seat, None)
            self.notifications.notice(
                t,
                out,
                p.seat,
                Rich.of(f"Reminder: {p.text} Due ", moment(d.due_at), "."),
                Rich.of(f"reminder: you owe {t.game.owed(p)} in {t.game.title}, due ", moment(d.due_at), "."),
                kind="reminder",
            )
        for seat in ripe:
            deferred.pop(seat, None)
        pending = sorted({*(r for r in d.reminders if r > now), *later})
        new = replace(d, reminders=pending, reminders_sent=[*d.reminders_sent, *due])
        if deferred:
            deferred_all[d.phase] = deferred
        else:
            deferred_all.pop(d.phase, None)
        meta["deferred"] = deferred_all
        return await self.access.save(
            t,
            row=replace(t.row, meta=meta),
            deadlines=[new if x.phase == d.phase else x for x in t.deadlines],
            outbox=out,  # the reminders are said even if the process dies now
        )

    async def _pause_expired(self, t: LoadedTable, d: DeadlineRow, prompts: list[Prompt], out: Outbox) -> LoadedTable:
        owing = _and([t.who(p.seat) for p in prompts if p.phase == d.phase])
        out.posts.append(
            Post(
                to="channel",
                kind="notice",
                text=f"Time is up and {owing} still owe orders; the game is paused. "
                "The host can /game resume it.",
            )
        )
        return await self.access.save(t, row=replace(t.row, status="paused"), outbox=out)

    async def _extend(
        self, t: LoadedTable, d: DeadlineRow, prompts: list[Prompt], now: float, out: Outbox
    ) -> LoadedTable:
        length = phase_seconds(t.settings, prompts, d.phase)
        due = max(d.due_at, now) + length
        new = replace(d, due_at=due, extended=True, reminders=reminder_times(t.settings, now, due))
        owing = ", ".join(t.who(p.seat) for p in prompts if p.phase == d.phase)
        out.posts.append(
            Post(
                to="channel",
                kind="notice",
                text=Rich.of("Time is up; the deadline is extended once, to ", moment(due), f". Still owing: {owing}."),
            )
        )
        return await self.access.save(
            t, deadlines=[new if x.phase == d.phase else x for x in t.deadlines], outbox=out
        )

    async def _default_orders(self, t: LoadedTable, phase: str, out: Outbox) -> LoadedTable:
        """Give the default order for every seat still owing in `phase`, one transaction each,
        and go on to the end of each such seat's turn (`owed_at_expiry`)."""
        defaulted: dict[str, list[str]] = {}  # a player's name -> the defaults given, in order
        turns: set[tuple[str, str]] = set()
        for _ in range(DEFAULT_LOOP_CAP):
            owing = owed_at_expiry(t.prompts, phase, turns)
            if not owing or t.row.status != "running":
                break
            seat, turn = owing[0].seat, owing[0].turn
            words = t.game.default_words(t.state, seat)  # public: names no secret
            try:
                t, step = await self.play.step(t, seat, None, t.game.default_action(t.state, seat))
            except StoreError:
                raise
            except Exception:  # an engine that refuses or fails its own default must not spin the loop
                log_game_failure(log, "default order failed in channel %s", t.row.channel_id)
                return await self.play.pause_for(
                    t, out, f"The default order for {t.who(seat)} failed ({ENGINE_FAILED})"
                )
            defaulted.setdefault(t.who(seat), []).append(words)
            if turn is not None:
                turns.add((seat, turn))
            out.merge(step)
            t = await self.play.autoplay(t, out)
        else:
            if owed_at_expiry(t.prompts, phase, turns):
                return await self.play.pause_for(
                    t, out, f"{DEFAULT_LOOP_CAP} default orders did not end the phase"
                )
        if defaulted:
            out.posts.insert(
                0,
                Post(
                    to="channel",
                    kind="notice",
                    text=f"Time is up. Played for those who still owed: {_defaults_said(defaulted)}."
                    " (`/game rules` says what a missed deadline does in this game.)",
                ),
            )
        return t

    async def _autopilot(self, t: LoadedTable, phase: str, out: Outbox) -> LoadedTable:
        """on_expiry = autopilot: every seat still owing in the phase becomes automatic
        (until a human substitutes) and plays at once."""
        owing = list(dict.fromkeys(p.seat for p in t.prompts if p.phase == phase))
        step = started_state(t).step
        now = self.clock()
        seats, history = [], []
        for s in t.seats:
            if s.seat in owing and not s.automatic:
                history.append(
                    SeatHistoryRow(t.row.channel_id, s.seat, s.user_id, s.name, step, now, True, "deadline")
                )
                s = replace(s, automatic=True)
            seats.append(s)
        for seat in owing:  # a seat nobody holds (an imported game) is played automatically too
            if t.holder(seat) is None:
                auto = automatic_row(t, seats, seat, self.clock())
                seats.append(auto)
                history.append(
                    SeatHistoryRow(
                        t.row.channel_id, seat, auto.user_id, auto.name, step, now, True, "deadline"
                    )
                )
        t = await self.access.save(t, seats=seats, history=history)
        names = ", ".join(t.who_as(seat) for seat in owing)
        out.posts.append(
            Post(
                to="channel",
                kind="notice",
                text=f"Time is up: automatic play takes over for {names} until the host "
                "hands the seat back with /game substitute.",
            )
        )
        return await self.play.autoplay(t, out)

    # -- outages ---------------------------------------------------------------------------
    async def heartbeat(self) -> None:
        """Record that the bot is alive (the front end calls it every minute). It is also
        where an idle bot notices its database file gone (the store logs it once)."""
        if self.store.lost:
            return
        try:
            await self.store.set_heartbeat(self.clock(), self.shards.key)
        except DatabaseLost:
            pass

    async def outage(self) -> Outage | None:
        """At start-up, before the bot connects: how long this process's shards were away
        (None when too short to count), read from the last heartbeat, which it renews.
        Two small queries; the work the outage calls for is `recover`'s, afterwards."""
        now = self.clock()
        last = await self.store.get_heartbeat(self.shards.key)
        await self.store.set_heartbeat(now, self.shards.key)
        if last is None or now - last < OUTAGE_MIN:
            return None
        return Outage(start=last, end=now)

    async def recover(self, outage: Outage | None = None) -> list[Outbox]:
        """Tell each running table how long the bot was away and, by its on_outage setting,
        give its deadlines that time back. The front end runs it after connecting and
        starts the deadline loop only when it is done, so no deadline fires unshifted;
        without `outage` (from `outage()`), it measures the outage first.

        Only this process's tables (its shards), each once: a table another process
        already extended since our last heartbeat is left alone (`meta["outage_noted"]`).
        Only deadlines opened before the outage move: one a player opened since the
        restart already had all its time. Tables go `RECOVER_BATCH` at a time, so their
        saves share commits (bot/store/group_commit.py)."""
        if outage is None:
            outage = await self.outage()
            if outage is None:
                return []
        last, now = outage.start, outage.end
        down = now - last
        text = Rich.of(
            "The bot was offline from ",
            moment(last, "f"),
            " to ",
            moment(now, "f"),
            f" ({relative(down).removeprefix('in ')}).",
        )

        async def run(t: LoadedTable) -> Outbox | None:
            if not self.shards.owns(t.row.guild_id) or t.row.meta.get("outage_noted", 0) > last:
                return None
            row = replace(t.row, meta={**t.row.meta, "outage_noted": now})
            said: Text = text
            if t.settings.on_outage == "extend" and t.deadlines:
                shifted = [_shift(d, down) if d.started_at <= last else d for d in t.deadlines]
                t = await self.access.save(t, row=row, deadlines=shifted)
                said = Rich.of(said, " Every running deadline is extended by that time", self.posts.due_text(t), ".")
            else:
                t = await self.access.save(t, row=row)
            out = Outbox(channel_id=t.row.channel_id)
            out.posts.append(Post(to="channel", kind="notice", text=said))
            out.status = partial(self.posts.status, t)  # written only if a front end reads it
            return out

        async def one(channel_id: int) -> Outbox | None:
            try:
                return await self.access.with_table(channel_id, run)
            except (TableError, StoreError):
                log.exception("outage notice failed for channel %s", channel_id)
                return None

        channels = await self.store.tables_with_status("running")
        outs: list[Outbox] = []
        for i in range(0, len(channels), RECOVER_BATCH):
            done = await asyncio.gather(*(one(c) for c in channels[i : i + RECOVER_BATCH]))
            outs.extend(out for out in done if out is not None)
        return outs


@dataclass(frozen=True)
class Outage:
    """The time this process's shards were away: from the last heartbeat to the restart."""

    start: float
    end: float


def _shift(d: DeadlineRow, seconds: float) -> DeadlineRow:
    """The deadline with its due time and pending reminders moved `seconds` later."""
    return replace(d, due_at=d.due_at + seconds, reminders=[r + seconds for r in d.reminders])


def _and(names: list[str]) -> str:
    """ "anna", "anna and boris", "anna, boris and clara"."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _defaults_said(defaulted: dict[str, list[str]]) -> str:
    """ "anna (a Draw, then the default for the card in hand), bo (keeping the Hand)": each
    player once, the defaults of their turn in order, a repeated one said once."""
    return ", ".join(f"{who} ({', then '.join(dict.fromkeys(words))})" for who, words in defaulted.items())

