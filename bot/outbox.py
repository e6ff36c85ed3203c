"""What the table service asks a front end to deliver. Plain data; no Discord here.

The Discord adapter and the console both read an `Outbox`: they edit the one public
status message, post public lines, deliver private lines only to the seat they belong to
(ephemeral reply, DM, or the console's labelled output), and open or archive the phase
thread.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Post", "Outbox"]


class Post(BaseModel):
    model_config = ConfigDict(extra="forbid")

    to: Literal["channel", "seat", "thread"]
    text: str
    seat: str | None = None  # for to="seat": the engine seat id
    user_id: int | None = None  # for to="seat": who holds that seat now
    dm: bool = False  # deliver by DM (secret prompt, turn notice) rather than only on request
    # event | prompt | reminder | standings | notice | briefing (a substitute's catch-up) | history
    kind: str = "event"


class Outbox(BaseModel):
    model_config = ConfigDict(extra="forbid")

    channel_id: int
    posts: list[Post] = Field(default_factory=list)
    status: str | None = None  # the public status, to edit in place (one message per table)
    reply: str | None = None  # the private answer to the caller of this interaction
    open_thread: str | None = None  # open a thread with this name for the phase that began
    open_thread_due: float | None = None  # that phase's deadline (unix time), if it has one
    close_thread: bool = False  # archive the phase thread: its phase ended

    def public(self) -> list[Post]:
        return [p for p in self.posts if p.to != "seat"]

    def for_seat(self, seat: str) -> list[Post]:
        return [p for p in self.posts if p.to == "seat" and p.seat == seat]
