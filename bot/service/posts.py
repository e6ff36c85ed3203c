"""What the table service says: the public status (as text, and as a card laid out for a
phone), the round summary, a player's private text, and the posts an action produces
(events, turn notices, thread changes).

`Posts` owns these texts and where the channel's round summary starts (docs/rulings.md,
Discord adapter 27: kept in the front end's rows, `front`, bot/service/front_rows.py;
the game's start sets it in the table's meta). It reads a `LoadedTable` and appends to an
`Outbox`; it saves no table. It plays no action.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from engine.core import Event, Layout, Outcome, Prompt

from ..render import escape, seat_list, standings
from ..render.pictures import has_pictures
from ..render.rich import Rich, Text, member, moment, small
from ..render.status import StatusCard, Waiting, card_of, waiting_line
from ..render.summary import Line, Part, PartStart, round_name
from ..store import DeadlineRow, EventRow
from .errors import OVER, TableError, host_name
from .front_rows import SUMMARY as SUMMARY  # the meta key the game's start sets (lobby.py)
from .front_rows import FrontRows
from .outbox import Outbox, Post, seat_post
from .phases import single_step
from .sessions import in_session, sessions_of
from .shown import Board, Shown, SummaryLines, summary_of

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess
    from .notify import Notifications

class StoredSummary(PartStart, total=False):
    """The table's SUMMARY: where the part the status message holds starts, and that message."""

    message: int | None


@dataclass(slots=True)
class Summary:
    """The channel's round summary from the status message on: `parts[0]` is the one the
    message `held_by` holds (None: no message holds it yet, as at the start), the last is
    the one still growing; any between are finished."""

    parts: list[Part]
    held_by: int | None


log = logging.getLogger(__name__)

# a table's state before its game as a member reads it ("lobby" is also the lobby channel's name)
STATE_WORDS = {"lobby": "gathering players", "abandoned": "closed"}


def lobby_seats(t: LoadedTable) -> str:
    """The lobby's seat list: each member's name (escaped) and the nation they asked for,
    in the game's words (a game dealing from preferences keeps the text typed: escaped)."""
    return seat_list([(escape(s.name), s.preference and f"wants {escape(s.preference)}") for s in t.seats])


class Posts:
    """The public and private texts of a table and the posts an action produces."""

    def __init__(self, access: TableAccess, notifications: Notifications, clock: Callable[[], float]) -> None:
        self.access = access
        self.store = access.store
        self.notifications = notifications
        self.clock = clock
        self.front = FrontRows(access)  # the status message, the thread, where the summary starts
        # What each channel's last save wrote (`shown`), by table and version: the next save
        # of that table adds its own events to its summary lines and takes the front end's
        # row as it read it, rather than reading the event log and the row again, three
        # queries inside the table's lock. A keep of the row here forgets it; the row is
        # kept by the process that delivers the table's posts, its owner (§5).
        self._last: OrderedDict[int, Shown] = OrderedDict()
        self.front.changing = self._forget_shown
        self.boards = True  # False: a `Shown` carries no board to draw (TableService.draw_pictures)

    def _forget_shown(self, channel_id: int) -> None:
        self._last.pop(channel_id, None)

    # -- text ------------------------------------------------------------------------------
    def status(self, t: LoadedTable, result: bool = False) -> Text:
        """The public status; with `result`, after the end, the standings and how each
        score was reached (`/game status`; the status message keeps its one-message size)."""
        g = t.game
        lines: list[Text]
        if t.state is None:
            lines = [
                f"**{g.title}**: {STATE_WORDS.get(t.row.status, t.row.status)}, {len(t.seats)} seated "
                f"({g.min_players}-{g.max_players} players)"
            ]
            lines.append(lobby_seats(t))
            if t.row.status == "lobby":
                lines.append(
                    f"/game join to sit down; the host ({self.host_name(t)}) starts with /game start."
                )
            return Rich.join("\n", lines)
        lines = [g.describe(g.view(t.state, None))]
        lines.append(
            seat_list(
                [
                    (escape(s.name) + (" (automatic)" if s.automatic else ""), t.label(s.seat))
                    for s in t.seats
                    if s.seat
                ]
            )
        )
        empty = t.free_seats()
        if empty:
            lines.append("Seats to fill: " + ", ".join(t.label(s) for s in empty))
        if t.row.status == "running":
            if t.prompts:
                lines.append(self.waiting_line(t))
        elif t.row.status == "paused":
            lines.append("The game is paused.")
        elif t.row.status == "finished":
            outcome = g.outcome(t.state)
            if outcome is not None and result:  # the final standings and how every score was reached
                lines.append(self.standings(t, outcome, title="Result", breakdown=True))
            lines.append("The game is over.")
        else:
            lines.append("The game was abandoned.")
        return Rich.join("\n", lines)

    def due_text(self, t: LoadedTable) -> Text:
        if not t.deadlines:
            return ""
        return Rich.of(" — due ", moment(min(d.due_at for d in t.deadlines)))

    def waiting_line(self, t: LoadedTable, *, bold: bool = False) -> Text:
        """Who owes what, with each full slash command, and when it is due; players who owe
        the same are named together (`render.status.waiting_line`)."""
        owing = [Waiting(t.who(p.seat), t.game.owed(p)) for p in t.prompts]
        due = moment(min(d.due_at for d in t.deadlines)) if t.deadlines else ""
        return waiting_line(owing, everyone=len([s for s in t.seats if s.seat]), due=due, bold=bold)

    def card(self, t: LoadedTable, view: Any = None) -> StatusCard:
        """The public status laid out for a phone (`render.status`): the waiting line first,
        the game's layout with each nation's player named, within 1,000 characters. `view`:
        the table's public view, where the caller has it already."""
        g = t.game
        if t.state is None:
            seated = lobby_seats(t)
            lines = [f"{len(t.seats)} seated ({g.min_players}-{g.max_players} players)", seated]
            if t.row.status == "lobby":
                lines.append(f"/game join to sit down; the host ({self.host_name(t)}) starts with /game start.")
            else:
                lines.append("The table was closed before the game began.")
            return StatusCard(title=f"{g.title} · {STATE_WORDS.get(t.row.status, t.row.status)}", description="\n".join(lines))
        top: list[Text] = []
        bottom: list[str] = []
        if t.row.status == "running" and t.prompts:
            top.append(self.waiting_line(t, bold=True))
        elif t.row.status == "paused":
            top.append("**The game is paused.** The host, or a majority vote, can /game resume it.")
        elif t.row.status == "finished":
            outcome = g.outcome(t.state)
            reason = (outcome.reason if outcome else "").rstrip(".")
            shown = "\n".join(g.layout(g.view(t.state, None)).lines)
            top.append(f"**The game is over**: {reason}." if reason and reason not in shown else "**The game is over.**")
            if outcome is not None:  # who is where; each field says which nation they played
                ranks = sorted(outcome.standings, key=lambda x: (x.rank, -x.score))
                top.append(" · ".join(f"{x.rank}. {t.who(x.seat)} {x.score:g}" for x in ranks))
        elif t.row.status == "abandoned":
            top.append("**The game was abandoned.**")
        empty = t.free_seats()
        if empty:
            bottom.append("Seats to fill: " + ", ".join(t.label(s) for s in empty))
        players = {s.seat: escape(s.name) + (" (automatic)" if s.automatic else "") for s in t.seats if s.seat}
        layout: Layout = g.layout(g.view(t.state, None) if view is None else view)
        return card_of(layout, top, players, bottom)

    async def status_card(self, channel_id: int) -> StatusCard:
        return self.card(await self.access.load(channel_id))

    # -- the round summary -----------------------------------------------------------------
    async def round_summary(self, channel_id: int) -> Summary | None:
        """The public events since the status message's summary began, cut into messages
        (`render.summary`); None before the game starts. A table that has none yet (one
        started before summaries, or imported) starts it now, from the next event on."""
        t = await self.access.load(channel_id)
        if t.state is None:
            return None
        front = await self.front.of(t)
        stored: StoredSummary | None = front.summary  # type: ignore[assignment]
        if stored is None:
            total = await self.store.count_events(channel_id)
            stored = {**Part(since=total).start(), "message": front.status_message_id}
            await self.front.keep(channel_id, summary=stored)
        lines = await self._summary_read(t, stored, [], None)  # type: ignore[arg-type]
        return Summary(summary_of(lines, stored), stored.get("message"))  # type: ignore[arg-type]

    # -- what a front end shows after a save (shown.py) -------------------------------------
    async def shown(
        self, t: LoadedTable, events: Sequence[EventRow] = (), truncate_from: int | None = None
    ) -> Shown:
        """What the front end shows of table `t` as it is being saved (`t.row.version` is
        the saved version) with `events`, the stored events from action `truncate_from` on
        taken back (an undo): the card, the public events from where the summary stands,
        the public view to draw, and what the front end was answered. Called by the save
        (`TableAccess.save`), so the outbox row it stores holds it; reads the event log and
        the front end's row, never the table."""
        g = t.game
        last = self._last.get(t.row.channel_id)
        if last is not None and (
            (last.table_created, last.version) != (t.row.created_at, t.row.version - 1)
            or last.lobby != (t.row.status == "lobby")  # the start sets where its summary begins
        ):
            last = None  # not the version this save follows: read again
        front = await self.front.of(t) if last is None else last.front()
        view = None if t.state is None else g.view(t.state, None)  # the public view only
        shown = Shown(
            channel_id=t.row.channel_id,
            table_created=t.row.created_at,
            version=t.row.version,
            card=self.card(t, view),
            lobby=t.row.status == "lobby",
            game=g.id,
            owing=[p.seat for p in t.prompts] if t.row.status == "running" else [],
            status_message_id=front.status_message_id,
            thread_id=front.thread_id,
            summary_start=front.summary,
        )
        if t.state is not None:
            before = last.summary if last is not None and truncate_from is None else None
            shown.summary = await self._summary_lines(t, front.summary, events, truncate_from, before)
            self._board(t, view, shown)
        self._last[t.row.channel_id] = shown
        self._last.move_to_end(t.row.channel_id)
        while len(self._last) > self.access.cache_size:
            self._last.popitem(last=False)
        return shown

    def _board(self, t: LoadedTable, view: Any, shown: Shown) -> None:
        """The public view the board is drawn from, for a game with pictures."""
        g = t.game
        assert t.state is not None
        if self.boards and has_pictures(g.id):
            try:
                drawn = g.view_dict(view)
            except Exception:  # the status goes without its picture rather than not at all
                log.warning("could not write the board of table %s", t.row.channel_id, exc_info=True)
            else:
                shown.board = Board(g.id, t.state.seed, t.state.step, drawn)

    async def shown_now(self, channel_id: int) -> Shown | None:
        """What the front end shows of the table as stored now (None: no table), for an
        outbox no save wrote it into: a change saved without one, or a row an older bot
        stored (bot/service/deliveries.py)."""
        try:
            t = await self.access.load(channel_id)
        except TableError:
            return None
        return await self.shown(t)

    async def _summary_lines(
        self,
        t: LoadedTable,
        start: dict[str, Any] | None,
        events: Sequence[EventRow],
        truncate_from: int | None,
        before: SummaryLines | None = None,
    ) -> SummaryLines:
        """The public events from where the summary `start`s, once `events` are saved; from
        the last of them on when no summary was kept yet (`round_summary` starts it there)."""
        added = [Line(e.kind, e.text) for e in events if e.audience is None]
        lines = self._summary_after(before, start, added, t.game.round_event)
        return await self._summary_read(t, start, added, truncate_from) if lines is None else lines

    @staticmethod
    def _summary_after(
        before: SummaryLines | None, start: dict[str, Any] | None, added: list[Line], round_event: str
    ) -> SummaryLines | None:
        """The summary lines once `added` follow `before` (the previous version's), where
        they hold every line from `start` on; None where the log must be read."""
        if before is None:
            return None
        total = before.total + len(added)
        if start is None:
            return SummaryLines(total, [], round_event)
        since = min(Part.resume(start).since, total)  # type: ignore[arg-type]
        if since < before.since:
            return None
        return SummaryLines(since, [*before.from_(since), *added][max(since - before.total, 0) :], round_event)

    async def _summary_read(
        self, t: LoadedTable, start: dict[str, Any] | None, added: list[Line], truncate_from: int | None
    ) -> SummaryLines:
        """`_summary_lines` from the event log."""
        channel_id, round_event = t.row.channel_id, t.game.round_event
        total = await self.store.count_events(channel_id)
        if truncate_from is not None:  # an undo: the events it takes back are not counted
            rows = await self.store.get_events(channel_id, limit=total) if total else []
            kept = [Line(r.kind, r.text) for r in reversed(rows) if r.action_idx is None or r.action_idx < truncate_from]
            everything = [*kept, *added]
            since = len(everything) if start is None else min(Part.resume(start).since, len(everything))  # type: ignore[arg-type]
            return SummaryLines(since, everything[since:], round_event)
        if start is None:
            return SummaryLines(total + len(added), [], round_event)
        since = min(Part.resume(start).since, total + len(added))  # type: ignore[arg-type]
        rows = await self.store.get_events(channel_id, limit=total - since) if total > since else []
        lines = [Line(r.kind, r.text) for r in reversed(rows)] + added  # from event min(since, total) on
        return SummaryLines(since, lines[since - min(since, total) :], round_event)

    async def summary_moved(self, channel_id: int, message_id: int, part: Part) -> None:
        """The status message is now `message_id`, holding `part`: kept with the table, so a
        restart edits that message and continues that part. Kept in the front end's row:
        no save of the table."""
        summary: StoredSummary = {**part.start(), "message": message_id}
        await self.front.keep(channel_id, summary=summary, status_message_id=message_id)

    @staticmethod
    def opening_summary(begins: str, first_round: str) -> StoredSummary:
        """The summary of a game that begins now: from its first event, headed by the line
        that says it began and the first round's name; no message holds it yet (the lobby's
        status message gives way)."""
        heading = begins + (f"\n**{first_round}**" if first_round else "")
        part = Part(since=0, heading=heading, name=first_round or round_name(begins))
        return {**part.start(), "message": None}

    def private_text(self, t: LoadedTable, seat: str) -> Text:
        """A player's own view (`/game me`), read from the top on a phone: what they owe
        and by when first, then what only they see (their Hand, sheet or screen: the lines of
        their view that the public one lacks); the public status is behind the Full status
        button and /game status."""
        g = t.game
        own = g.describe(g.view(t.state, seat))
        lines: list[Text] = [*own.splitlines()[:1]]  # the game and where it stands: "Crisis: 1914 — Week 1 of 6, …"
        due = {d.phase: d.due_at for d in t.deadlines}
        mine = [p for p in t.prompts if p.seat == seat]
        for p in mine:
            when = Rich.of(" Due ", moment(due[p.phase]), ".") if p.phase in due else ""
            lines.append(Rich.of(f"**You owe**: {p.text}", when))
        if not mine and t.row.status == "running":
            lines.append("You owe nothing right now.")
        lines += own_lines("\n".join(own.splitlines()[1:]), g.describe(g.view(t.state, None)))
        lines.append(small("The whole table: the Full status button, or /game status."))
        return Rich.join("\n", lines)

    def standings(self, t: LoadedTable, outcome: Outcome, **how: Any) -> str:
        """The final standings of table `t` (`render.standings`): each seat's player, and its
        nation where the game names seats by one."""
        names = {s.seat: t.who(s.seat) for s in t.seats if s.seat}
        nations = {s.seat: t.label(s.seat) for s in t.seats if s.seat and t.label(s.seat) != s.seat}
        return standings(outcome, names, nations=nations, **how)

    def host_name(self, t: LoadedTable) -> str:
        """The host's name as a message shows it (escaped)."""
        return escape(host_name(t))

    def closed_text(self, t: LoadedTable, verb: str) -> str:
        if t.row.status in ("finished", "abandoned"):
            return OVER
        return f"The game has already started; you cannot {verb} now."

    # -- outbox ----------------------------------------------------------------------------
    def event_posts(self, t: LoadedTable, out: Outbox, events: list[Event]) -> None:
        for e in events:
            if e.audience is None:
                # An event the game marks for the phase thread goes there.
                to: Literal["thread", "channel"] = "thread" if e.thread else "channel"
                out.posts.append(Post(to=to, text=e.text))
            else:
                seat_post(t, out, e.audience, e.text)

    def prompt_posts(self, t: LoadedTable, out: Outbox, before: list[Prompt], after: list[Prompt]) -> None:
        """Tell each player of a decision they newly owe, with its deadline (always by DM)."""
        old = {(p.seat, p.phase, p.kind) for p in before}
        new = [p for p in after if (p.seat, p.phase, p.kind) not in old]
        if not new:
            return  # most actions: the others still owe what they owed
        due = {d.phase: d.due_at for d in t.deadlines}
        live = "sessions" in t.row.meta and in_session(sessions_of(t.row.meta), self.clock())
        for p in new:
            human = t.human(p.seat)
            if live and human is not None and single_step(after, p.phase):
                # a live session: everyone is here, so the player is pinged in the channel at once
                out.posts.append(
                    Post(
                        to="channel",
                        kind="ping",
                        user_id=human.user_id,
                        text=Rich.of(member(human.user_id), f" your turn in the session: {t.game.owed(p)}."),
                    )
                )
            when = Rich.of(" Due ", moment(due[p.phase]), ".") if p.phase in due else ""
            secret = " (secret: only you see this)" if p.simultaneous else ""
            self.notifications.notice(
                t,
                out,
                p.seat,
                Rich.of(f"**{t.game.title}**{secret}: {p.text}", when),
                Rich.of(f"your turn in {t.game.title}: {t.game.owed(p)}.", when),
                kind="prompt",
            )

    @staticmethod
    def thread_changes(out: Outbox, opened: list[DeadlineRow], closed: list[DeadlineRow]) -> None:
        if not opened and not closed:  # most actions: the same phases as before
            return
        if any(d.thread for d in closed):
            out.close_thread = True
        thread = next((d for d in opened if d.thread), None)
        if thread:
            out.open_thread = thread.thread
            out.open_thread_due = thread.due_at


def own_lines(own: str, public: str) -> list[str]:
    """The lines of a seat's description that the public one lacks, in order, each under the
    heading it sits under in the seat's (so "Hand:" keeps its cards). A heading is a line
    the public description shares; it is shown only above a line of the seat's own."""
    shared = set(public.splitlines())
    out: list[str] = []
    heading: str | None = None
    for line in own.splitlines():
        if line in shared:
            heading = line if line.strip() else heading
            continue
        if heading is not None and heading.rstrip().endswith(":"):
            out.append(heading)
        heading = None
        out.append(line)
    return out
