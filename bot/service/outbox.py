"""What the table service asks a front end to deliver. Plain data; no Discord here.

The Discord adapter and the console both read an `Outbox`: they edit the one public
status message, post public lines, deliver private lines only to the seat they belong to
(ephemeral reply, DM, or the console's labelled output), and open or archive the phase
thread.

Plain classes rather than pydantic models: the service builds one or more of these for
every action and never needs them validated (bench/README.md measured the difference).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..render.rich import Rich, Text, text_json
from ..store import OutboxRow
from .shown import Shown

__all__ = ["Post", "Outbox", "seat_post", "outbox_row", "LEASE"]

LEASE = 120.0  # seconds a process holds the outbox rows it is delivering

# What a stored outbox row keeps besides its posts (docs/architecture.md §3, "Deliveries").
_FLAGS = ("open_thread", "open_thread_due", "close_thread", "lobby_changed")


@dataclass(slots=True, kw_only=True)
class Post:
    to: Literal["channel", "seat", "thread"]
    text: Text  # Markdown with spans (bot/render/rich.py): each front end writes it its own way
    seat: str | None = None  # for to="seat": the engine seat id
    user_id: int | None = None  # for to="seat": who holds that seat now
    dm: bool = False  # deliver by DM (secret prompt, turn notice) rather than only on request
    # For a turn notice or reminder by DM: the channel mention, naming no secret, that
    # replaces it when the member's DMs are closed.
    public: Text | None = None
    # event | prompt | reminder | standings | notice | briefing (a substitute's catch-up) | history
    # | begins (the line a game begins with: the Discord adapter heads the round summary with it)
    kind: str = "event"
    # Stored in an outbox row already (bot/service/deliveries.py); not part of the row itself.
    kept: bool = field(default=False, repr=False, compare=False)

    def body(self) -> dict[str, Any]:
        """The post as a stored row holds it: what differs from the defaults (most posts
        are a public event line)."""
        body: dict[str, Any] = {"to": self.to, "text": text_json(self.text)}
        if self.seat is not None:
            body["seat"] = self.seat
        if self.user_id is not None:
            body["user_id"] = self.user_id
        if self.dm:
            body["dm"] = True
        if self.public is not None:
            body["public"] = text_json(self.public)
        if self.kind != "event":
            body["kind"] = self.kind
        return body


@dataclass(slots=True, init=False)
class Outbox:
    channel_id: int
    posts: list[Post] = field(default_factory=list)
    reply: Text | None = None  # the private answer to the caller of this interaction
    open_thread: str | None = None  # open a thread with this name for the phase that began
    open_thread_due: float | None = None  # that phase's deadline (unix time), if it has one
    close_thread: bool = False  # archive the phase thread: its phase ended
    # The table's entry in the server's lobby channel should be shown again as it is now
    # (posted, edited as seats fill, removed when the game starts or is abandoned).
    lobby_changed: bool = False
    # The public status, to edit in place (one message per table): the text, or a function
    # that writes it when a front end first reads `status`. The service passes a function,
    # so an action whose front end shows the status some other way (Discord shows the
    # card in `shown`) does not pay for the text.
    status_source: Text | Callable[[], Text] | None = field(default=None, repr=False)
    # What a front end shows of the table after the last save that stored this outbox
    # (shown.py): written by the save, so delivering it reads no table.
    shown: Shown | None = field(default=None, repr=False)
    # The outbox rows holding it (bot/service/deliveries.py): deleted once it is delivered.
    kept_ids: list[int] = field(default_factory=list)
    kept_flags: dict[str, Any] | None = field(default=None, repr=False)  # the flags as last kept
    kept_status: bool = field(default=False, repr=False)  # a kept row says the status changed
    kept_shown: bool = field(default=False, repr=False)  # a kept row holds `shown`
    # Where the member who acted reads what they may do next (menus.NextMenu), for their own
    # answer only: never stored (an answer is given at once or not at all).
    caller_menu: Any = field(default=None, repr=False)

    def __init__(
        self,
        channel_id: int,
        posts: list[Post] | None = None,
        status: Text | Callable[[], Text] | None = None,
        reply: Text | None = None,
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
        self.kept_ids = []
        self.kept_flags = None
        self.kept_status = False
        self.shown = None
        self.kept_shown = False
        self.caller_menu = None

    @property
    def status(self) -> Text | None:
        if callable(self.status_source):
            self.status_source = self.status_source()
        return self.status_source

    @status.setter
    def status(self, value: Text | Callable[[], Text] | None) -> None:
        self.status_source = value

    def merge(self, later: Outbox) -> None:
        """Add what a later step of the same call produced (an automatic seat's move)."""
        both_kept = self.kept_flags == self.flags() and later.kept_flags == later.flags()
        self.kept_ids = [*self.kept_ids, *later.kept_ids]
        self.kept_status = self.kept_status or later.kept_status
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
        if later.shown is not None and (self.shown is None or later.shown.version >= self.shown.version):
            self.shown, self.kept_shown = later.shown, later.kept_shown
        self.kept_flags = self.flags() if both_kept else None

    # -- kept until delivered (bot/service/deliveries.py) ------------------------------------
    def flags(self) -> dict[str, Any]:
        """The thread and lobby changes asked for, as a stored row holds them."""
        return {name: getattr(self, name) for name in _FLAGS}

    def unkept(self) -> dict[str, Any] | None:
        """What is not stored yet, as an outbox row's JSON body; None when everything is.
        The status is not stored as text (a front end shows the card in `shown`), only
        that it changed; the flags are stored whole (delivering a row folds them as
        `merge` does, so one stored twice is shown once). What the status shows is stored
        as the save wrote it (`shown`), once."""
        posts = [p.body() for p in self.posts if not p.kept]
        flags = self.flags()
        status = self.status_source is not None and not self.kept_status
        shown = self.shown is not None and not self.kept_shown
        if not posts and flags == self.kept_flags and not status and not shown:
            return None
        if not posts and not status and not any(flags.values()):
            return None  # nothing at all to say (what it shows waits for a status change)
        body = {"posts": posts, **{k: v for k, v in flags.items() if v}, "status": self.status_source is not None}
        if shown:
            body["shown"] = self.shown.body()  # type: ignore[union-attr]
        return body

    def mark_kept(self, row_id: int) -> None:
        """Everything the outbox holds is stored now, the last of it in row `row_id`."""
        for post in self.posts:
            post.kept = True
        self.kept_flags = self.flags()
        self.kept_status = self.kept_status or self.status_source is not None
        self.kept_shown = self.kept_shown or self.shown is not None
        self.kept_ids = [*self.kept_ids, row_id]

    @classmethod
    def from_body(cls, channel_id: int, body: str) -> Outbox:
        """A stored row as an outbox to deliver again; its status, if it changed, is what
        its save wrote (`shown`; an empty text asks a front end that shows text to read the
        table's latest)."""
        data = json.loads(body)
        out = cls(channel_id, posts=[_post(p) for p in data.get("posts", [])])
        for name in _FLAGS:
            if name in data:
                setattr(out, name, data[name])
        if data.get("status"):
            out.status = ""
        if data.get("shown") is not None:
            out.shown = Shown.from_body(channel_id, data["shown"])
        out.kept_flags, out.kept_status, out.kept_shown = out.flags(), True, True
        return out

    def public(self) -> list[Post]:
        return [p for p in self.posts if p.to != "seat"]

    def for_seat(self, seat: str) -> list[Post]:
        return [p for p in self.posts if p.to == "seat" and p.seat == seat]


def _post(body: dict[str, Any]) -> Post:
    """A post as a stored row holds it (`Post.body`)."""
    text = Rich.from_json(body.pop("text"))
    public = body.pop("public", None)
    return Post(**body, text=text, public=None if public is None else Rich.from_json(public), kept=True)


def seat_post(
    t: Any,
    out: Outbox,
    seat: str,
    text: Text,
    *,
    kind: str = "event",
    dm: bool = False,
    public: Text | None = None,
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


_last_id = 0
_id_lock = threading.Lock()


def new_row_id() -> int:
    """When the row is made, in nanoseconds, and after every id this process made: a
    channel's rows sort in the order of its saves."""
    global _last_id
    with _id_lock:
        _last_id = max(time.time_ns(), _last_id + 1)
        return _last_id


def outbox_row(out: Outbox, now: float) -> OutboxRow | None:
    """The row holding what `out` has not stored yet (None: nothing new), leased to the
    process that is about to deliver it."""
    body = out.unkept()
    if body is None:
        return None
    return OutboxRow(new_row_id(), out.channel_id, now, json.dumps(body, separators=(",", ":")), 0, now + LEASE)
