"""Posts that wait: delivering an answer's outbox so that nothing it says is lost, and
trying again what could not be said (docs/reliability.md, "Every post an acknowledged
action asks for is delivered").

Every outbox is stored before it is delivered (bot/service/deliveries.py). `PendingPosts`
delivers it (`Delivery.deliver_now`) and deletes its rows; when Discord fails (a server
error, a rate limit, the network, the gateway away) the rows wait and are tried again
after a growing wait, never sooner than a rate limit asks, each channel's rows together
and in their order. A channel with rows waiting takes its new posts behind them, so its
messages never overtake each other. What a failed attempt did say is not said twice: a
retry looks for each message among the channel's (or the DM's) recent ones first
(`Delivery.send_once`); the status message is edited to what the row's save wrote
(`Outbox.shown`), never older than it showed, which is the same however often it is done.

Another error than Discord's (a fault of ours) is tried a few times, then the rows are
dropped and the log says so: one broken post must not hold its channel for a week.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from bot.process import metrics
from bot.service.outbox import LEASE, Outbox

__all__ = ["PendingPosts", "SAYING_AGAIN", "discord_failure", "retry_after", "send_once"]

log = logging.getLogger(__name__)

LOOK_BACK = 50  # recent messages a retry looks through for one it may have sent already
# True while an outbox is said again: each message is looked for before it is sent. A
# context variable, as deliveries of several tables run at once in their own tasks.
SAYING_AGAIN: contextvars.ContextVar[bool] = contextvars.ContextVar("saying_again", default=False)
OUR_FAULT_TRIES = 5  # attempts of a row that fails for another reason than Discord's
SWEEP = LEASE  # seconds between looks for rows another process may have left
IDLE_SWEEP = 3600.0  # the same, for a process alone on its database


def discord_failure(exc: BaseException) -> bool:
    """Discord or the way to it failed, and trying again later may pass."""
    if isinstance(exc, discord.RateLimited | discord.DiscordServerError | discord.GatewayNotFound):
        return True
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, aiohttp.ClientError | asyncio.TimeoutError | ConnectionError)


def retry_after(exc: BaseException) -> float | None:
    """The seconds a rate limit asked to wait, if it said."""
    if isinstance(exc, discord.RateLimited):
        return exc.retry_after
    if isinstance(exc, discord.HTTPException) and exc.status == 429:
        response = getattr(exc, "response", None)
        header = getattr(response, "headers", {}).get("Retry-After") if response is not None else None
        try:
            return float(header) if header is not None else None
        except ValueError:
            return None
    return None


async def send_once(client: discord.Client, target: Any, text: str, **kwargs: Any) -> Any:
    """`target.send(text)`, unless an outbox is being said again and the bot's recent
    messages there have this text already (a failed attempt, or a process that died, said it)."""
    if SAYING_AGAIN.get() and text and await _sent_before(client, target, text):
        return None
    return await target.send(text, **kwargs)


async def _sent_before(client: discord.Client, target: Any, text: str) -> bool:
    me = client.user.id if client.user else None
    try:
        async for message in target.history(limit=LOOK_BACK):
            if message.author.id == me and message.content == text:
                return True
    except discord.HTTPException as exc:
        if discord_failure(exc):
            raise
    return False


class PendingPosts:
    """Delivers outboxes through `Delivery` and keeps their rows until they are said."""

    def __init__(self, delivery: Any, service: Any, clock: Callable[[], float]) -> None:
        self.delivery = delivery  # delivery.Delivery, which makes this part (no import back)
        self.service = service
        self.clock = clock
        self.poke: Callable[[], None] = lambda: None  # wakes the loop that calls run_due
        self.behind: set[int] = set()  # channels with rows waiting: new posts go behind them
        self._saying: dict[int, int] = {}  # channel -> deliveries under way (their rows are not behind)
        self._in_hand: set[int] = set()  # rows being said now: never said twice at once
        self._next: float | None = None  # when the next look for waiting rows is due
        self._started = False

    async def deliver(self, outbox: Outbox, *, caller_id: int | None, new_status: bool) -> None:
        """An answer's outbox: stored (what its saves did not store yet), then delivered,
        or left waiting behind the channel's older posts."""
        deliveries = self.service.deliveries
        await deliveries.keep(outbox)
        if outbox.channel_id in self.behind:
            # said with the older ones, after them (the caller's own lines were in their answer)
            await deliveries.release(outbox.kept_ids, answered=caller_id)
            self._next = self.clock()
            self.poke()
            return
        await self._attempt(outbox, outbox.kept_ids, 0, caller_id=caller_id, new_status=new_status)

    async def _attempt(
        self,
        outbox: Outbox,
        ids: list[int],
        attempts: int,
        *,
        caller_id: int | None = None,
        new_status: bool = False,
        behind: list[int] = (),  # type: ignore[assignment]
    ) -> bool:
        """Say `outbox` (rows `ids`); True if it was said (or dropped for good). If not,
        its rows and the rows `behind` it wait."""
        deliveries = self.service.deliveries
        channel_id = outbox.channel_id
        self._saying[channel_id] = self._saying.get(channel_id, 0) + 1
        self._in_hand.update(ids)
        try:
            keys = await self.delivery.deliver_now(
                outbox, caller_id=caller_id, new_status=new_status, again=attempts > 0
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            # Discord answered, and no retry changes that answer (no permission, no channel)
            log.warning("dropping the posts of table %s: %s", channel_id, exc)
            await deliveries.done(ids)
            return True
        except Exception as exc:
            tries = attempts + 1
            if not discord_failure(exc):
                log.error(
                    "could not deliver the posts of table %s (attempt %d)", channel_id, tries, exc_info=True
                )
                if tries >= OUR_FAULT_TRIES:
                    log.error("dropping the posts of table %s after %d attempts", channel_id, tries)
                    await deliveries.done(ids)
                    return True
            else:
                log.warning("Discord did not take the posts of table %s (%s); they wait", channel_id, exc)
            # the rows behind it wait with it (behind is only ever a redelivery's: no caller)
            wait = await deliveries.failed([*ids, *behind], tries, retry_after(exc), answered=caller_id)
            await self._report()
            self.behind.add(channel_id)
            due = self.clock() + wait
            self._next = due if self._next is None else min(self._next, due)
            return False
        finally:
            self._in_hand.difference_update(ids)
            self._saying[channel_id] -= 1
            if not self._saying[channel_id]:
                del self._saying[channel_id]
        await deliveries.done(ids, self.delivery.private.notice_rows(keys))
        if not behind:
            self.behind.discard(channel_id)
        return True

    async def _report(self) -> tuple[int, set[int], float | None]:
        """The metrics' count of waiting posts and the oldest one's age, brought up to date."""
        count, oldest, channels, soonest = await self.service.deliveries.waiting()
        metrics.set_undelivered(count, oldest or 0.0)
        return count, channels, soonest

    async def run_due(self) -> float | None:
        """Deliver the rows whose wait is over (at the first call, every row the last run
        of the bot left); returns the seconds until the next look."""
        now = self.clock()
        first = not self._started
        if not first and self._next is not None and self._next > now:
            return self._next - now
        self._started = True
        deliveries = self.service.deliveries
        shared = getattr(self.service.store, "shared", False)
        if first:
            await self.delivery.private.restore(await deliveries.notices())
            # an answer given meanwhile in one of these channels goes behind what waits there
            self.behind |= (await deliveries.waiting())[2]
        for waiting in await deliveries.due(everything=first and not shared):
            if self._in_hand.intersection(waiting.ids):
                continue  # an answer is saying its own rows now: the next look takes the rest
            # tried before, or left by a process that died while saying it: look before saying
            for n, (ids, outbox) in enumerate(waiting.parts):
                behind = [i for later, _ in waiting.parts[n + 1 :] for i in later]
                if not await self._attempt(outbox, ids, max(waiting.attempts, 1), behind=behind):
                    break
        count, channels, soonest = await self._report()
        self.behind = channels - set(self._saying)
        # Look again when the soonest wait ends; and now and then for rows nobody is saying
        # (a call that failed after its save, or, sharing the database, a process that died).
        looks = [now + (SWEEP if shared else IDLE_SWEEP)]
        if soonest is not None and channels - set(self._saying):
            looks.append(max(soonest, now))
        self._next = min(looks)
        return max(self._next - self.clock(), 0.0)
