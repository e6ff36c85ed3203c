"""Private lines in Discord: DMs, and the turn notices held for their grace.

- private lines reach only their seat: in the caller's ephemeral reply (`Delivery`), else
  by DM, one DM per player per answer;
- a turn notice (a prompt post) waits `NOTICE_GRACE` seconds before it is sent by DM, and
  is dropped if the player acts at that table meanwhile: a player who is playing sees the
  status and their replies, and does not need a DM for every turn. Waiting notices are kept
  in the database (bot/service/deliveries.py), so they wait over a restart;
- a closed DM (Forbidden 50007) is recorded once and no DM is tried again for them; the
  player is told once in the channel how to fix it (`/game notify mode:dm` after opening
  their DMs), and every later turn notice and reminder comes as a channel mention that
  names no secret (`Post.public`) until they do;
- when Discord fails, a DM is not replaced by a mention: the whole answer waits and is
  said again (bot/discord/pending.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.render.pictures import Picture
from bot.render.text import split_message
from bot.service.deliveries import retry_wait
from bot.service.outbox import Outbox, Post
from bot.store import NoticeRow

from .interact import picture_file
from .pending import SAYING_AGAIN, discord_failure, retry_after, send_once
from .views import own_choices

__all__ = ["PrivateLines", "CLOSED_DM", "NOTICE_GRACE"]

log = logging.getLogger(__name__)

CLOSED_DM = 50007  # Discord: "Cannot send messages to this user"
NOTICE_GRACE = 60.0  # seconds a turn notice waits for the player to act before it is DMed


@dataclass
class _Notice:
    due: float
    texts: list[str] = field(default_factory=list)  # for a DM
    mention: str | None = None  # for a player who chose mentions: the public ping instead
    fallback: str | None = None  # the public ping, naming no secret, should the DM fail
    tries: int = 0  # attempts Discord did not take
    sent: bool = False  # the DM went (the mention, if any, had not yet)


class PrivateLines:
    """The DMs and turn notices of every table, for `Delivery`."""

    def __init__(
        self,
        client: discord.Client,
        service: Any,
        clock: Callable[[], float],
        channel_of: Callable[[int], Awaitable[Any]],
    ) -> None:
        self.client = client
        self.service = service
        self.clock = clock  # the deadline ticker's: a turn notice's grace runs on it
        self.channel_of = channel_of  # a table's channel, by id (None: gone)
        self._closed: set[int] = set()  # users whose DMs are closed (mirrors the database)
        # Turn notices not yet sent, by (table channel, user), mirrored in the database
        self._notices: dict[tuple[int, int], _Notice] = {}
        self._forgetting: set[asyncio.Future[None]] = set()  # notices being dropped from the store

    def _waiting(self, channel_id: int, user_id: int) -> _Notice:
        """The member's turn notice at the table, begun now if none waits."""
        return self._notices.setdefault((channel_id, user_id), _Notice(due=self.clock() + NOTICE_GRACE))

    def hold_mention(self, channel_id: int, user_id: int, text: str) -> None:
        """A turn notice for a member who chose mentions: it waits out the grace as a DM would."""
        self._waiting(channel_id, user_id).mention = text

    def waiting_in(self, channel_id: int) -> set[tuple[int, int]]:
        """The turn notices waiting at a table."""
        return {k for k in self._notices if k[0] == channel_id}

    async def say(self, channel: Any, outbox: Outbox, caller_id: int | None) -> None:
        """Every private line not already in the caller's reply: turn notices after the
        grace, anything else (private events, reminders) now, one DM per player."""
        by_user: dict[int, list[Post]] = defaultdict(list)
        for post in outbox.posts:
            if post.to != "seat" or post.user_id is None or post.user_id == caller_id:
                continue
            if post.kind == "gallery" and not await _may_open(channel, post.user_id):
                continue  # a spectator who can no longer open the table's channel reads nothing of it (ruling 47)
            if post.kind in ("prompt", "reminder") and not post.dm:
                continue  # the player chose mentions: the line waits in /game me, not in a DM
            if post.kind == "prompt":
                notice = self._waiting(outbox.channel_id, post.user_id)
                if post.text not in notice.texts:  # said again after a failed attempt
                    notice.texts.append(post.text)
                notice.fallback = post.public or notice.fallback
            else:
                by_user[post.user_id].append(post)
        for user_id, posts in by_user.items():
            briefing = any(p.kind == "briefing" for p in posts)
            closed_before = briefing and (
                user_id in self._closed or await self.service.notifications.dm_closed(user_id)
            )
            fallback = "\n".join(p.public for p in posts if p.public) or None
            picture = await self._gallery_picture(outbox.channel_id, user_id, posts)
            text = "\n".join(p.text for p in posts)
            sent = await self.dm(channel, user_id, text, fallback=fallback, picture=picture)
            just_closed = not closed_before and user_id in self._closed  # dm() told them just now
            if briefing and not sent and not just_closed:
                # A newcomer must learn they now hold a seat even without DMs.
                await send_once(
                    self.client,
                    channel,
                    f"<@{user_id}>, you have taken over a seat here. Use `/game me` in this channel "
                    "to see your hand, your orders in progress and what you owe.",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                )

    def seen(self, channel_id: int, user_id: int) -> None:
        """The player acted or looked at their view at this table: their notices are moot."""
        if self._notices.pop((channel_id, user_id), None) is not None:
            self._forget_notices([(channel_id, user_id)])

    def next_notice(self) -> float | None:
        return min((n.due for n in self._notices.values()), default=None)

    def notice_rows(self, keys: set[tuple[int, int]]) -> list[NoticeRow]:
        """The waiting turn notices of `keys`, as the store keeps them."""
        rows = []
        for channel_id, user_id in sorted(keys):
            notice = self._notices.get((channel_id, user_id))
            if notice is not None:
                body = {"texts": notice.texts, "mention": notice.mention, "fallback": notice.fallback}
                rows.append(NoticeRow(channel_id, user_id, notice.due, json.dumps(body)))
        return rows

    async def restore(self, rows: list[NoticeRow]) -> None:
        """The turn notices the last run of the bot left waiting, for seats that still owe."""
        moot = []
        for row in rows:
            if not await self.service.deliveries.still_owes(row.channel_id, row.user_id):
                moot.append((row.channel_id, row.user_id))
                continue
            body = json.loads(row.body)
            notice = self._notices.setdefault((row.channel_id, row.user_id), _Notice(due=row.due_at))
            notice.texts = [*notice.texts, *(t for t in body["texts"] if t not in notice.texts)]
            notice.mention = notice.mention or body.get("mention")
            notice.fallback = notice.fallback or body.get("fallback")
        self._forget_notices(moot)

    def _forget_notices(self, keys: list[tuple[int, int]]) -> None:
        """Drop stored notices without holding up the caller (a player's answer)."""
        if not keys:
            return
        task = asyncio.ensure_future(self.service.deliveries.drop_notices(keys))
        self._forgetting.add(task)
        task.add_done_callback(self._forgot)

    def _forgot(self, task: asyncio.Future[None]) -> None:
        self._forgetting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not drop sent turn notices", exc_info=task.exception())

    async def send_due(self, now: float | None = None) -> None:
        """DM every turn notice whose grace is over (all of them when `now` is None). One
        that Discord does not take waits and is tried again."""
        due = [k for k, n in self._notices.items() if now is None or n.due <= now]
        for key in due:
            notice = self._notices.pop(key)
            try:
                await self._send_notice(key, notice)
            except Exception as exc:
                if not discord_failure(exc):
                    raise
                notice.tries += 1
                notice.due = self.clock() + retry_wait(notice.tries, retry_after(exc))
                self._notices.setdefault(key, notice)
                log.warning("a turn notice at table %s waits: %s", key[0], exc)
                continue
            self._forget_notices([key])

    async def _send_notice(self, key: tuple[int, int], notice: _Notice) -> None:
        channel_id, user_id = key
        channel = await self.channel_of(channel_id)
        if channel is None:
            return
        token = SAYING_AGAIN.set(notice.tries > 0)
        try:
            if notice.texts and not notice.sent:
                # A DM is the player's own: their turn buttons may name cards in their Hand.
                view = await own_choices(self.service, channel_id, user_id)
                fallback = None if notice.mention is not None else notice.fallback
                picture = await self._own_picture(channel_id, user_id)  # their Hand, sheet or screen
                await self.dm(
                    channel, user_id, "\n".join(notice.texts), view=view, fallback=fallback, picture=picture
                )
                notice.sent = True
            if notice.mention is not None:
                await self.mention(channel, user_id, notice.mention)
        finally:
            SAYING_AGAIN.reset(token)

    async def _gallery_picture(self, channel_id: int, user_id: int, posts: list[Post]) -> Picture | None:
        """A spectator's rounds come with the board as they may see it: at the end of the
        last round sent (the state replayed from the record, bot/service/gallery.py), or
        the final board once the game is over."""
        if not any(p.kind == "gallery" for p in posts):
            return None
        try:
            return await self.service.picture(channel_id, user_id)
        except Exception:  # the rounds go without their picture rather than not at all
            log.warning("could not draw the spectator's picture at table %s", channel_id, exc_info=True)
            return None

    async def _own_picture(self, channel_id: int, user_id: int) -> Picture | None:
        try:
            return await self.service.my_picture(channel_id, user_id)
        except Exception:  # the notice goes without its picture rather than not at all
            log.warning("could not draw the private picture at table %s", channel_id, exc_info=True)
            return None

    async def mention(self, channel: Any, user_id: int, text: str) -> None:
        for part in split_message(text):
            await send_once(
                self.client,
                channel,
                part,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )

    async def dm(
        self,
        channel: Any,
        user_id: int,
        text: str,
        *,
        view: discord.ui.View | None = None,
        fallback: str | None = None,
        picture: Picture | None = None,
    ) -> bool:
        """DM `text`; True if it went. When it cannot go, `fallback` (a mention naming no
        secret) is posted in the table's channel instead, so a turn is never missed."""
        if user_id in self._closed or await self.service.notifications.dm_closed(user_id):
            self._closed.add(user_id)
            if fallback:
                await self.mention(channel, user_id, fallback)
            return False
        try:
            dm = await self.client.create_dm(discord.Object(user_id))
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            if picture is not None:
                extra["file"] = picture_file(picture)
            parts = split_message(f"{text}\n-# {channel.mention}")
            for n, part in enumerate(parts):  # the buttons go with the last part
                await send_once(self.client, dm, part, **(extra if n == len(parts) - 1 else {}))
            return True
        except discord.Forbidden as exc:
            if exc.code != CLOSED_DM:
                log.warning("DM to %s refused: %s", user_id, exc)
                if fallback:
                    await self.mention(channel, user_id, fallback)
                return False
        except discord.HTTPException as exc:
            if discord_failure(exc):
                raise  # Discord is failing: the whole notice waits and is tried again
            log.warning("DM to %s failed: %s", user_id, exc)
            if fallback:
                await self.mention(channel, user_id, fallback)
            return False
        self._closed.add(user_id)
        await self.service.notifications.mark_dm_closed(user_id)
        # Told once, in the same message as the notice that failed (one call, one ping).
        told = (
            f"<@{user_id}>, I cannot send you direct messages, so your turn notices and "
            "reminders will come as mentions here, without your secrets; `/game me` shows your "
            "hand and what you owe. To have them by DM again, allow direct messages from this "
            "server's members and use `/game notify mode:dm`."
        )
        if fallback:
            told += "\n" + fallback
        await self.mention(channel, user_id, told)
        return False

    def reopened(self, user_id: int) -> None:
        """The member asked for DMs again (`/game notify mode:dm`): try them next time."""
        self._closed.discard(user_id)


async def _may_open(channel: Any, user_id: int) -> bool:
    """Whether the member may open the table's channel now (Discord's permissions): the
    gallery's DMs reach only those who may (docs/rulings.md 47). One request when the
    member is not cached; a member who has left the server may open nothing."""
    guild = getattr(channel, "guild", None)
    if guild is None:
        return False
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            return False
    return bool(channel.permissions_for(member).view_channel)
