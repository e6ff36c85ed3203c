"""What the table service asks a front end to deliver. Plain data; no Discord here.

The Discord adapter and the console both read an `Outbox`: they edit the one public
status message, post public lines, deliver private lines only to the seat they belong to
(ephemeral reply, DM, or the console's labelled output), and open or archive the phase
thread.

Plain classes rather than pydantic models: the service builds one or more of these for
every action and never needs them validated (bench/README.md measured the difference).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Post", "Outbox", "seat_post"]


@dataclass(slots=True, kw_only=True)
class Post:
    to: Literal["channel", "seat", "thread"]
    text: str
    seat: str | None = None  # for to="seat": the engine seat id
    user_id: int | None = None  # for to="seat": who holds that seat now
    dm: bool = False  # deliver by DM (secret prompt, turn notice) rather than only on request
    # For a turn notice or reminder by DM: the channel mention, naming no secret, that
    # replaces it when the member's DMs are closed.
    public: str | None = None
    # event | prompt | reminder | standings | notice | briefing (a substitute's catch-up) | history
    # | begins (the line a game begins with: the Discord adapter heads the round summary with it)
    kind: str = "event"


@dataclass(slots=True, init=False)
class Outbox:
    channel_id: int
    posts: list[Post] = field(default_factory=list)
    reply: str | None = None  # the private answer to the caller of this interaction
    open_thread: str | None = None  # open a thread with this name for the phase that began
    open_thread_due: float | None = None  # that phase's deadline (unix time), if it has one
    close_thread: bool = False  # archive the phase thread: its phase ended
    # The table's entry in the server's lobby channel should be shown again as it is now
    # (posted, edited as seats fill, removed when the game starts or is abandoned).
    lobby_changed: bool = False
    # The public status, to edit in place (one message per table): the text, or a function
    # that writes it when a front end first reads `status`. The service passes a function,
    # so an action whose front end shows the status some other way (Discord reads the
    # table's latest) does not pay for the text.
    status_source: str | Callable[[], str] | None = field(default=None, repr=False)

    def __init__(
        self,
        channel_id: int,
        posts: list[Post] | None = None,
        status: str | Callable[[], str] | None = None,
        reply: str | None = None,
        open_thread: str | None = None,
        open_thread_due: float | None = None,
        close_thread: bool = False,
    ) -> None:
        self.channel_id = channel_id
        self.posts = [] if posts is None else posts
        self.status_source = status
        self.reply = reply
        self.open_thread = open_thread
        self.open_thread_due = open_thread_due
        self.close_thread = close_thread
        self.lobby_changed = False

    @property
    def status(self) -> str | None:
        if callable(self.status_source):
            self.status_source = self.status_source()
        return self.status_source

    @status.setter
    def status(self, value: str | Callable[[], str] | None) -> None:
        self.status_source = value

    def merge(self, later: Outbox) -> None:
        """Add what a later step of the same call produced (an automatic seat's move)."""
        self.posts.extend(later.posts)
        self.close_thread = self.close_thread or later.close_thread
        self.lobby_changed = self.lobby_changed or later.lobby_changed
        if later.close_thread and not later.open_thread:
            # a thread this call opened has already ended again: never open it (automatic
            # seats ending a Congress and the game in one command)
            self.open_thread, self.open_thread_due = None, None
        if later.open_thread:
            self.open_thread, self.open_thread_due = later.open_thread, later.open_thread_due
        if later.status_source is not None:
            self.status_source = later.status_source

    def public(self) -> list[Post]:
        return [p for p in self.posts if p.to != "seat"]

    def for_seat(self, seat: str) -> list[Post]:
        return [p for p in self.posts if p.to == "seat" and p.seat == seat]


def seat_post(
    t: Any,
    out: Outbox,
    seat: str,
    text: str,
    *,
    kind: str = "event",
    dm: bool = False,
    public: str | None = None,
) -> None:
    """A private line for the holder of `seat` at the loaded table `t`; an automatic
    seat's private lines go nowhere (they stay in the stored log)."""
    holder = t.holder(seat)
    if holder is not None and holder.automatic:
        return
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
