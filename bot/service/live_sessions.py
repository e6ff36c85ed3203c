"""Live sessions as a part of the table service (docs/architecture.md §3): the
`/game session` command, which lists, adds and removes a table's weekly sessions.

`LiveSessions` keeps the sessions in the table's `meta["sessions"]` and saves them under
the table's lock through `TableAccess.with_table`. What a session is (its weekday, local
start, length and time zone), when one runs and its next occurrences are the plain
functions of `sessions.py`; how a session shortens a step's deadline is `phases.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from .errors import TableError, host_only
from .sessions import MAX_SESSIONS, occurrences, parse_session, sessions_of

if TYPE_CHECKING:
    from .loaded import LoadedTable, TableAccess
    from .posts import Posts

SESSION_EVENTS = 4  # Discord scheduled events announced ahead for a weekly session


class LiveSessions:
    """A table's weekly live sessions: listed by anyone, scheduled by the host or a manager."""

    def __init__(self, access: TableAccess, posts: Posts, clock: Callable[[], float]) -> None:
        self.access = access
        self.posts = posts
        self.clock = clock

    async def session(
        self,
        channel_id: int,
        user_id: int,
        day: str | None = None,
        start: str | None = None,
        hours: float = 2.0,
        timezone: str = "UTC",
        *,
        remove: bool = False,
        admin: bool = False,
    ) -> tuple[str, list[tuple[str, float, float]]]:
        """List the table's weekly sessions, or add (or remove) one (host or Manage Server).
        Returns the reply and, for a session added, its next occurrences (name, start, end)
        for the front end to announce as Discord scheduled events."""

        async def run(t: LoadedTable) -> tuple[str, list[tuple[str, float, float]]]:
            current = sessions_of(t.row.meta)
            if day is None:
                if not current:
                    return (
                        "No live sessions are scheduled. The host adds one with "
                        "/game session day:Monday time:19:00 hours:2 timezone:Europe/Vienna.",
                        [],
                    )
                lines = [f"- {s.describe()}" for s in current]
                return "Live sessions:\n" + "\n".join(lines) + "\n" + _session_rules(t), []
            host_only(t, user_id, admin, "schedule sessions")
            new = parse_session(day, start or "", hours, timezone)
            if remove:
                kept = [s for s in current if (s.day, s.start) != (new.day, new.start)]
                if len(kept) == len(current):
                    raise TableError(f"There is no session on {new.describe().split(' for ')[0]}.")
                await self.access.save(
                    t, row=replace(t.row, meta={**t.row.meta, "sessions": [s.to_json() for s in kept]})
                )
                return f"Removed the session on {new.describe().split(' for ')[0]}.", []
            if len(current) >= MAX_SESSIONS:
                raise TableError(f"A table has at most {MAX_SESSIONS} weekly sessions.")
            kept = [s for s in current if (s.day, s.start) != (new.day, new.start)] + [new]
            await self.access.save(
                t, row=replace(t.row, meta={**t.row.meta, "sessions": [s.to_json() for s in kept]})
            )
            name = f"{t.game.title} session"
            upcoming = [
                (name, begin, end) for _, begin, end in occurrences([new], self.clock(), SESSION_EVENTS)
            ]
            return f"Live session added: {new.describe()}.\n" + _session_rules(t), upcoming

        return await self.access.with_table(channel_id, run)


def _session_rules(t: LoadedTable) -> str:
    between = (
        "between sessions such a step waits for the next session (setting between_sessions: wait), while "
        "orders given together and diplomacy go on with the usual deadlines."
        if t.settings.between_sessions == "wait"
        else "between sessions play goes on with the usual deadlines (setting between_sessions: continue; "
        "wait keeps such steps for the next session)."
    )
    return (
        f"During a session a step only one player can take is due in {t.settings.session_minutes:g} minutes "
        f"(setting session_minutes) and its player is pinged here at once; {between}"
    )
