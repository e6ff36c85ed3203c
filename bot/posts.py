"""What the table service says: the public status, a player's private text, and the
posts an action produces (events, turn notices, thread changes).

A mixin of `TableService`; it only reads a loaded `_Table` and appends to an `Outbox`.
"""

from __future__ import annotations

from engine.core import Event, Prompt

from .outbox import Outbox, Post
from .render import seat_list, standings, timestamp
from .sessions import in_session, sessions_of
from .store import DeadlineRow
from .tablebase import OVER, _Table, single_step


class PostsMixin:
    # -- text ------------------------------------------------------------------------------
    def _status(self, t: _Table, result: bool = False) -> str:
        """The public status; with `result`, after the end, the standings and how each
        score was reached (`/game status`; the status message keeps its one-message size)."""
        g = t.game
        if t.state is None:
            lines = [
                f"**{g.title}**: {t.row.status}, {len(t.seats)} seated ({g.min_players}-{g.max_players} players)"
            ]
            lines.append(seat_list([(s.name, s.preference and f"wants {s.preference}") for s in t.seats]))
            if t.row.status == "lobby":
                lines.append(
                    f"/game join to sit down; the host ({self._host_name(t)}) starts with /game start."
                )
            return "\n".join(lines)
        lines = [g.describe(g.view(t.state, None))]
        lines.append(
            seat_list(
                [
                    (s.name + (" (automatic)" if s.automatic else ""), t.label(s.seat))
                    for s in t.seats
                    if s.seat
                ]
            )
        )
        empty = t.free_seats()
        if empty:
            lines.append("Seats to fill: " + ", ".join(t.label(s) for s in empty))
        if t.row.status == "running":
            owing = t.prompts
            if owing:
                lines.append(
                    "Waiting for: "
                    + ", ".join(f"{t.who(p.seat)} ({g.owed(p)})" for p in owing)
                    + self._due_text(t)
                )
        elif t.row.status == "paused":
            lines.append("The game is paused.")
        elif t.row.status == "finished":
            outcome = g.outcome(t.state)
            if outcome is not None and result:  # the final standings and how every score was reached
                names = {s.seat: t.who_as(s.seat) for s in t.seats if s.seat}
                lines.append(standings(outcome, names, title="Result"))
            lines.append("The game is over.")
        else:
            lines.append("The game was abandoned.")
        return "\n".join(lines)

    def _due_text(self, t: _Table) -> str:
        if not t.deadlines:
            return ""
        return f" — due {timestamp(min(d.due_at for d in t.deadlines))}"

    def _private_text(self, t: _Table, seat: str) -> str:
        g = t.game
        lines = [g.describe(g.view(t.state, seat))]
        due = {d.phase: d.due_at for d in t.deadlines}
        mine = [p for p in t.prompts if p.seat == seat]
        for p in mine:
            when = f" Due {timestamp(due[p.phase])}." if p.phase in due else ""
            lines.append(f"You owe: {p.text}{when}")
        if not mine and t.row.status == "running":
            lines.append("You owe nothing right now.")
        return "\n".join(lines)

    def _host_name(self, t: _Table) -> str:
        return next((s.name for s in t.seats if s.user_id == t.row.host_id), "the host")

    def _closed_text(self, t: _Table, verb: str) -> str:
        if t.row.status in ("finished", "abandoned"):
            return OVER
        return f"The game has already started; you cannot {verb} now."

    # -- outbox ----------------------------------------------------------------------------
    def _seat_post(
        self,
        t: _Table,
        out: Outbox,
        seat: str,
        text: str,
        *,
        kind: str = "event",
        dm: bool = False,
        public: str | None = None,
    ) -> None:
        holder = t.holder(seat)
        if holder is not None and holder.automatic:
            return  # an automatic seat's private lines go nowhere (they stay in the stored log)
        out.posts.append(
            Post(
                to="seat",
                seat=seat,
                user_id=holder.user_id if holder else None,
                text=text,
                kind=kind,
                dm=dm,
                public=public,
            )
        )

    def _event_posts(self, t: _Table, out: Outbox, events: list[Event]) -> None:
        for e in events:
            if e.audience is None:
                # An event the game marks for the phase thread goes there.
                to = "thread" if e.thread else "channel"
                out.posts.append(Post(to=to, text=e.text))
            else:
                self._seat_post(t, out, e.audience, e.text)

    def _prompt_posts(self, t: _Table, out: Outbox, before: list[Prompt], after: list[Prompt]) -> None:
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
                        text=f"<@{human.user_id}> your turn in the session: {p.kind}.",
                    )
                )
            when = f" Due {timestamp(due[p.phase])}." if p.phase in due else ""
            secret = " (secret: only you see this)" if p.simultaneous else ""
            self._notice(
                t,
                out,
                p.seat,
                f"**{t.game.title}**{secret}: {p.text}{when}",
                f"your turn in {t.game.title}: {t.game.owed(p)}{when}",
                kind="prompt",
            )

    @staticmethod
    def _thread_changes(out: Outbox, opened: list[DeadlineRow], closed: list[DeadlineRow]) -> None:
        if any(d.thread for d in closed):
            out.close_thread = True
        thread = next((d for d in opened if d.thread), None)
        if thread:
            out.open_thread = thread.thread
            out.open_thread_due = thread.due_at
