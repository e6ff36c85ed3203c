"""Delivering an Outbox in Discord.

- the table's one status message is edited in place: the round summary (what happened
  this Week, round or turn, growing as it goes) as its text, and the status card (who
  owes what, then a field per nation, within 1,000 characters) as its embed, with the
  board picture as the embed's image; a finished summary stays in the channel as a
  message of its own and a new status message takes over below it (docs/rulings.md,
  Discord adapter 27), so an action's public events are never posts of their own;
- private lines reach only their seat: in the caller's ephemeral reply, else by DM;
- a turn notice (a prompt post) waits `NOTICE_GRACE` seconds before it is sent by DM, and
  is dropped if the player acts at that table meanwhile: a player who is playing sees the
  status and their replies, and does not need a DM for every turn;
- a closed DM (Forbidden 50007) is recorded once and no DM is tried again for them; the
  player is told once in the channel how to fix it (`/game notify mode:dm` after opening
  their DMs), and every later turn notice and reminder comes as a channel mention that
  names no secret (`Post.public`) until they do;
- the phase thread is opened and archived as the service asks;
- nothing is cut: a text longer than a message goes on in the next (`split_message`).

Every skipped call here is deliberate: the budget is about 1.5 Discord API calls per
player action; the summary shares the status edit, and costs one call more only when a
message of it is finished (a new round, or 2,000 characters).

The bot (client.py) builds the delivery and hands it the Discord client, the table
service and the clock; handlers reach it through `host.Host.delivery`.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.render.pictures import Picture
from bot.render.status import StatusCard
from bot.render.text import split_message
from bot.service.bounded import KeyedLocks
from bot.service.deliveries import retry_wait
from bot.service.outbox import Outbox, Post
from bot.service.posts import Summary
from bot.service.tables import TableService
from bot.store import NoticeRow

from .interact import picture_file
from .pending import PendingPosts, discord_failure, retry_after
from .views import CUSTOM_ID, own_choices, status_view

__all__ = ["Delivery", "CLOSED_DM"]

log = logging.getLogger(__name__)

CLOSED_DM = 50007  # Discord: "Cannot send messages to this user"
HISTORY_SCAN = 50  # messages searched for the status message after a restart
NO_MENTIONS = discord.AllowedMentions.none()
# Public posts that stay in the channel as their own message (a published history too).
STANDALONE = {"standings", "notice", "history"}
NOTICE_GRACE = 60.0  # seconds a turn notice waits for the player to act before it is DMed
LOOK_BACK = 50  # recent messages a retry looks through for one it may have sent already
# True while an outbox is said again: each message is looked for before it is sent. A
# context variable, as deliveries of several tables run at once in their own tasks.
SAYING_AGAIN: contextvars.ContextVar[bool] = contextvars.ContextVar("saying_again", default=False)


@dataclass
class _Notice:
    due: float
    texts: list[str] = field(default_factory=list)  # for a DM
    mention: str | None = None  # for a player who chose mentions: the public ping instead
    fallback: str | None = None  # the public ping, naming no secret, should the DM fail
    tries: int = 0  # attempts Discord did not take
    sent: bool = False  # the DM went (the mention, if any, had not yet)


class Delivery:
    def __init__(self, client: discord.Client, service: TableService, clock: Callable[[], float]) -> None:
        self.client = client  # the connected bot: its user, channels and DMs
        self.service = service
        self.clock = clock  # the deadline ticker's: a turn notice's grace runs on it
        self._status_ids: dict[int, int] = {}  # table channel -> its status message
        self._shown: dict[int, str] = {}  # table channel -> the status text last shown
        self._locks = KeyedLocks()  # table channel -> its status message's edits, while any run
        self._pictured: dict[int, bytes] = {}  # table channel -> the digest of the picture shown
        self._closed: set[int] = set()  # users whose DMs are closed (mirrors the database)
        # Turn notices not yet sent, by (table channel, user). Kept in memory only: a crash
        # within the grace loses the DM, never the turn (the status and /game me show it).
        self._notices: dict[tuple[int, int], _Notice] = {}
        # Shows a table's entry in its server's lobby channel as the table is now; the bot
        # sets it (bot/discord/announcements.py). None: no lobby channel support.
        self.announce: Callable[[int], Awaitable[None]] | None = None
        # what waits to be said, and saying it (pending.py); the bot sets its poke
        self.pending = PendingPosts(self, service, clock)
        self._forgetting: set[asyncio.Future[None]] = set()  # notices being dropped from the store

    # ------------------------------------------------------------------ entry points

    def private_reply(self, outbox: Outbox, caller_id: int) -> str:
        """The caller's ephemeral answer: the service's reply and every private line for them.

        A turn notice for the caller rides here rather than in a DM: the ephemeral is as
        private and they are looking at it now.
        """
        parts = [outbox.reply] if outbox.reply else []
        parts += [p.text for p in outbox.posts if p.to == "seat" and p.user_id == caller_id]
        return "\n".join(parts) or "Done."

    async def turn_buttons(self, channel_id: int, user_id: int) -> discord.ui.View | None:
        """The member's current turn buttons at the table, for their ephemeral answer or DM."""
        return await own_choices(self.service, channel_id, user_id)

    async def deliver(
        self, outbox: Outbox, *, caller_id: int | None = None, new_status: bool = False
    ) -> None:
        """Say what an answer asks: stored first, then said, or left to wait and be said
        later if Discord fails (bot/discord/pending.py)."""
        await self.pending.deliver(outbox, caller_id=caller_id, new_status=new_status)

    async def deliver_now(
        self, outbox: Outbox, *, caller_id: int | None = None, new_status: bool = False, again: bool = False
    ) -> set[tuple[int, int]]:
        """Say it now; raises if Discord fails. `again`: part of it may have been said
        already (an attempt that failed, a process that died): each message is looked for
        before it is sent. Returns the turn notices it left waiting for their grace."""
        token = SAYING_AGAIN.set(again)
        try:
            return await self._say(outbox, caller_id, new_status)
        finally:
            SAYING_AGAIN.reset(token)

    async def _say(self, outbox: Outbox, caller_id: int | None, new_status: bool) -> set[tuple[int, int]]:
        channel = await self._channel(outbox.channel_id)
        if channel is None:
            log.warning("table channel %s is gone; dropping its outbox", outbox.channel_id)
            return set()
        await self._threads(channel, outbox)
        public = [p for p in outbox.posts if p.to == "channel"]
        events = [p.text for p in public if p.kind not in STANDALONE and p.user_id is None]
        if outbox.status is not None or events:
            # the events are in the table's log: the summary in the status message reads them
            await self._status(channel, outbox.status or "", events, new=new_status)
        standalone = [p.text for p in public if p.kind in STANDALONE and p.user_id is None]
        # The final standings and a published history carry the final board and the score
        # chart, in their last message: no call of their own.
        final = await self._final_pictures(channel.id, public)
        # One message for all of them (standings and the seed, say): one call. A published
        # history is longer than a message and goes in as many as it needs.
        parts = split_message("\n\n".join(standalone))
        for n, part in enumerate(parts):
            extra = {"files": [picture_file(p) for p in final]} if final and n == len(parts) - 1 else {}
            await self.send_once(channel, part, allowed_mentions=NO_MENTIONS, **extra)
        # For a player who chose mentions: a reminder is its own message, so the ping fires;
        # a turn notice waits out the grace like a DM would (and the caller needs neither).
        for post in public:
            if post.user_id is None or post.user_id == caller_id:
                continue
            if post.kind == "prompt":
                key = (outbox.channel_id, post.user_id)
                notice = self._notices.setdefault(key, _Notice(due=self.clock() + NOTICE_GRACE))
                notice.mention = post.text
            else:
                await self._mention(channel, post.user_id, post.text)
        await self._private(channel, outbox, caller_id)
        if outbox.lobby_changed and self.announce is not None:
            try:
                await self.announce(outbox.channel_id)
            except Exception:  # the table's own posts went out; its lobby entry is refreshed next time
                log.warning("could not refresh the lobby entry of table %s", outbox.channel_id, exc_info=True)
        return {k for k in self._notices if k[0] == outbox.channel_id}

    async def _final_pictures(self, channel_id: int, public: list[Post]) -> list[Picture]:
        if not any(p.kind in ("standings", "history") and p.user_id is None for p in public):
            return []
        try:
            return await self.service.final_pictures(channel_id)
        except Exception:  # the standings go out without pictures rather than not at all
            log.warning("could not draw the final pictures of table %s", channel_id, exc_info=True)
            return []

    # ------------------------------------------------------------------ status

    async def _status(self, channel: Any, status: str, events: list[str], *, new: bool) -> None:
        async with self._locks.hold(channel.id):
            # Two quick actions' deliveries can finish out of order; what is shown must be
            # the table's latest status and log, so both are read again under the lock.
            try:
                card = await self.service.posts.status_card(channel.id)
                summary = await self.service.posts.round_summary(channel.id)
            except Exception:
                # the table is gone: show what the outbox carried, as it was
                log.warning("could not read the status of table %s", channel.id, exc_info=True)
                text = "\n".join([status, *events]).strip()
                for part in split_message(text):
                    await self.send_once(channel, part, allowed_mentions=NO_MENTIONS)
                return
            picture = None
            try:
                picture = await self.service.picture(channel.id)
            except Exception:  # the status goes without its picture rather than not at all
                log.warning("could not draw the board of table %s", channel.id, exc_info=True)
            await self._show_status(channel, card, summary, new=new, picture=picture)

    async def _show_status(
        self, channel: Any, card: StatusCard, summary: Summary | None, *, new: bool, picture: Picture | None = None
    ) -> None:
        """Edit the status message: the live summary as its text, the card as its embed and
        the board picture as the embed's image, in one call (the picture uploaded again only
        when it changed). When a summary message is finished (a new round, or full), the
        status message keeps it, bare, and a new status message below takes over."""
        embed = _embed(card, picture)
        status_id = None if new else await self._find_status(channel)
        if summary is None:  # before the start: the lobby's card alone
            await self._edit_status(channel, status_id, "", embed, picture)
            return
        *finished, live = summary.parts
        held = status_id is not None and summary.held_by == status_id
        if held and not finished:
            posted = await self._edit_status(channel, status_id, live.text(), embed, picture, remember=False)
            if posted is not None:  # the message was deleted: the new one holds the summary
                await self.service.posts.summary_moved(channel.id, posted, live)
            return
        texts = [text for part in finished for text in part.messages()]
        if held and texts:
            await self._freeze(channel, status_id, texts.pop(0))
        elif status_id is not None:
            await self._retire(channel, status_id)  # the lobby's: the game's first summary begins below it
        for text in texts:
            await self.send_once(channel, text, allowed_mentions=NO_MENTIONS)
        posted = await self._edit_status(channel, None, live.text(), embed, picture, remember=False)
        await self.service.posts.summary_moved(channel.id, posted, live)

    async def _edit_status(
        self,
        channel: Any,
        message_id: int | None,
        text: str,
        embed: discord.Embed,
        picture: Picture | None,
        *,
        remember: bool = True,
    ) -> int | None:
        """Edit the status message `message_id` (or post one if None or gone); returns the
        id of a message posted, None when the existing one was edited or already showed it.
        A message posted is stored with the table unless the caller stores it (`remember`)."""
        digest = hashlib.sha1(picture.png).digest() if picture is not None else None
        changed_picture = digest is not None and self._pictured.get(channel.id) != digest
        shown = (text, str(embed.to_dict()))
        if message_id is not None and self._shown.get(channel.id) == shown and not changed_picture:
            return None
        if message_id is not None:
            extra = {"attachments": [picture_file(picture)]} if changed_picture else {}
            try:
                await channel.get_partial_message(message_id).edit(
                    content=text, embed=embed, allowed_mentions=NO_MENTIONS, **extra
                )
                self._shown[channel.id] = shown
                if digest is not None:
                    self._pictured[channel.id] = digest
                return None
            except discord.NotFound:
                pass  # deleted by someone: post a fresh one
        extra = {"file": picture_file(picture)} if picture is not None else {}
        message = await channel.send(
            text or None, embed=embed, view=status_view(channel.id), allowed_mentions=NO_MENTIONS, **extra
        )
        self._status_ids[channel.id] = message.id
        self._shown[channel.id] = shown
        if digest is not None:
            self._pictured[channel.id] = digest
        store = getattr(self.service, "set_status_message", None) if remember else None
        if store is not None:
            try:
                await store(channel.id, message.id)
            except Exception:  # the next restart falls back to searching the channel
                log.warning("could not store the status message of table %s", channel.id, exc_info=True)
        return message.id

    async def _freeze(self, channel: Any, message_id: int, text: str) -> None:
        """The status message becomes a finished summary: its text alone, no card, picture
        or buttons (the new status message below has them)."""
        try:
            await channel.get_partial_message(message_id).edit(
                content=text, embeds=[], attachments=[], view=None, allowed_mentions=NO_MENTIONS
            )
        except discord.NotFound:  # deleted by someone: the summary goes on as a message
            await self.send_once(channel, text, allowed_mentions=NO_MENTIONS)
        self._forget(channel.id)

    async def _retire(self, channel: Any, message_id: int) -> None:
        """The lobby's status message gives way to the game's (the seats are in its first line)."""
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException:
            log.warning("could not remove the old status message of table %s", channel.id, exc_info=True)
        self._forget(channel.id)

    def _forget(self, channel_id: int) -> None:
        self._status_ids.pop(channel_id, None)
        self._shown.pop(channel_id, None)
        self._pictured.pop(channel_id, None)

    async def _find_status(self, channel: Any) -> int | None:
        """The status message: remembered, or found again by its button after a restart."""
        if channel.id in self._status_ids:
            return self._status_ids[channel.id]
        info = await self.service.table_info(channel.id)
        stored = getattr(info, "status_message_id", None)
        if stored:
            self._status_ids[channel.id] = stored
            return stored
        # Tables whose status message id was never stored (made before it was): search for it.
        wanted = CUSTOM_ID.format(channel_id=channel.id)
        me = self.client.user.id if self.client.user else None
        async for message in channel.history(limit=HISTORY_SCAN):
            if message.author.id != me:
                continue
            ids = [
                getattr(c, "custom_id", None)
                for row in message.components
                for c in getattr(row, "children", [])
            ]
            if wanted in ids:
                self._status_ids[channel.id] = message.id
                return message.id
        return None

    # ------------------------------------------------------------------ threads

    async def _threads(self, channel: Any, outbox: Outbox) -> None:
        lines = [p.text for p in outbox.posts if p.to == "thread"]
        wanted = outbox.open_thread[:100] if outbox.open_thread else None
        again = SAYING_AGAIN.get() and wanted is not None  # an earlier attempt may have opened it
        needed = outbox.close_thread or lines or again
        info = await self.service.table_info(outbox.channel_id) if needed else None
        current = await self._thread(info.thread_id) if info is not None and info.thread_id else None
        if again and current is not None and getattr(current, "name", None) == wanted:
            lines.insert(0, self._opening(outbox, wanted, await self._thread_due(outbox.channel_id, wanted)))
            outbox = _without_thread_changes(outbox)  # it did: only its lines are left to say
        if current is not None and lines and (outbox.close_thread or not outbox.open_thread):
            for part in split_message("\n".join(lines)):
                await self.send_once(current, part, allowed_mentions=NO_MENTIONS)
            lines = []
        if outbox.close_thread:
            if current is not None:
                try:
                    await current.edit(archived=True)
                except discord.HTTPException as exc:
                    if discord_failure(exc):
                        raise
                    log.warning("could not archive thread %s", current.id, exc_info=True)
            await self.service.set_thread(outbox.channel_id, None)
        if outbox.open_thread:
            try:
                current = await channel.create_thread(name=wanted, type=discord.ChannelType.public_thread)
            except discord.HTTPException as exc:
                if discord_failure(exc):
                    raise
                log.warning("could not open thread %r", outbox.open_thread, exc_info=True)
                current = None
            else:
                await self.service.set_thread(outbox.channel_id, current.id)
                due = getattr(outbox, "open_thread_due", None) or await self._thread_due(
                    outbox.channel_id, outbox.open_thread
                )
                lines.insert(0, self._opening(outbox, outbox.open_thread, due))  # one message, one call
        if lines:
            target = current if current is not None else channel
            for part in split_message("\n".join(lines)):
                await self.send_once(target, part, allowed_mentions=NO_MENTIONS)

    @staticmethod
    def _opening(outbox: Outbox, name: str, due: float | None) -> str:
        due = outbox.open_thread_due or due
        return f"**{name}**" + (f": this phase ends <t:{int(due)}:F> (<t:{int(due)}:R>)." if due is not None else ".")

    async def _thread_due(self, channel_id: int, name: str) -> float | None:
        """When the phase that opened this thread ends, for an outbox that does not carry it
        (`open_thread_due`): read from the deadlines the service stored."""
        store = getattr(self.service, "store", None)
        if store is None:
            return None
        try:
            rows = await store.get_deadlines(channel_id)
        except Exception:
            log.warning("could not read the deadlines of table %s", channel_id, exc_info=True)
            return None
        return next((d.due_at for d in rows if d.thread == name), None)

    async def _thread(self, thread_id: int) -> Any:
        thread = self.client.get_channel(thread_id)
        if thread is not None:
            return thread
        try:
            return await self.client.fetch_channel(thread_id)
        except discord.HTTPException:
            return None

    # ------------------------------------------------------------------ private

    async def _private(self, channel: Any, outbox: Outbox, caller_id: int | None) -> None:
        """Every private line not already in the caller's reply: turn notices after the
        grace, anything else (private events, reminders) now, one DM per player."""
        now = self.clock()
        by_user: dict[int, list[Post]] = defaultdict(list)
        for post in outbox.posts:
            if post.to != "seat" or post.user_id is None or post.user_id == caller_id:
                continue
            if post.kind in ("prompt", "reminder") and not post.dm:
                continue  # the player chose mentions: the line waits in /game me, not in a DM
            if post.kind == "prompt":
                key = (outbox.channel_id, post.user_id)
                notice = self._notices.setdefault(key, _Notice(due=now + NOTICE_GRACE))
                if post.text not in notice.texts:  # said again after a failed attempt
                    notice.texts.append(post.text)
                notice.fallback = post.public or notice.fallback
            else:
                by_user[post.user_id].append(post)
        for user_id, posts in by_user.items():
            briefing = any(p.kind == "briefing" for p in posts)
            closed_before = briefing and (user_id in self._closed or await self.service.notifications.dm_closed(user_id))
            fallback = "\n".join(p.public for p in posts if p.public) or None
            sent = await self.dm(channel, user_id, "\n".join(p.text for p in posts), fallback=fallback)
            just_closed = not closed_before and user_id in self._closed  # dm() told them just now
            if briefing and not sent and not just_closed:
                # A newcomer must learn they now hold a seat even without DMs.
                await self.send_once(
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

    async def restore_notices(self, rows: list[NoticeRow]) -> None:
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

    async def send_notices(self, now: float | None = None) -> None:
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
        channel = await self._channel(channel_id)
        if channel is None:
            return
        token = SAYING_AGAIN.set(notice.tries > 0)
        try:
            if notice.texts and not notice.sent:
                # A DM is the player's own: their turn buttons may name cards in their Hand.
                view = await self.turn_buttons(channel_id, user_id)
                fallback = None if notice.mention is not None else notice.fallback
                picture = await self._own_picture(channel_id, user_id)  # their Hand, sheet or screen
                await self.dm(
                    channel, user_id, "\n".join(notice.texts), view=view, fallback=fallback, picture=picture
                )
                notice.sent = True
            if notice.mention is not None:
                await self._mention(channel, user_id, notice.mention)
        finally:
            SAYING_AGAIN.reset(token)

    async def _own_picture(self, channel_id: int, user_id: int) -> Picture | None:
        try:
            return await self.service.my_picture(channel_id, user_id)
        except Exception:  # the notice goes without its picture rather than not at all
            log.warning("could not draw the private picture at table %s", channel_id, exc_info=True)
            return None

    async def _mention(self, channel: Any, user_id: int, text: str) -> None:
        for part in split_message(text):
            await self.send_once(
                channel, part, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)])
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
                await self._mention(channel, user_id, fallback)
            return False
        try:
            dm = await self.client.create_dm(discord.Object(user_id))
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            if picture is not None:
                extra["file"] = picture_file(picture)
            parts = split_message(f"{text}\n-# {channel.mention}")
            for n, part in enumerate(parts):  # the buttons go with the last part
                await self.send_once(dm, part, **(extra if n == len(parts) - 1 else {}))
            return True
        except discord.Forbidden as exc:
            if exc.code != CLOSED_DM:
                log.warning("DM to %s refused: %s", user_id, exc)
                if fallback:
                    await self._mention(channel, user_id, fallback)
                return False
        except discord.HTTPException as exc:
            if discord_failure(exc):
                raise  # Discord is failing: the whole notice waits and is tried again
            log.warning("DM to %s failed: %s", user_id, exc)
            if fallback:
                await self._mention(channel, user_id, fallback)
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
        await self._mention(channel, user_id, told)
        return False

    def reopened(self, user_id: int) -> None:
        """The member asked for DMs again (`/game notify mode:dm`): try them next time."""
        self._closed.discard(user_id)

    async def send_once(self, target: Any, text: str, **kwargs: Any) -> Any:
        """`target.send(text)`, unless the outbox is said again and the bot's recent
        messages there have it already (a failed attempt, or a process that died, said it)."""
        if SAYING_AGAIN.get() and text and await self._sent_before(target, text):
            return None
        return await target.send(text, **kwargs)

    async def _sent_before(self, target: Any, text: str) -> bool:
        me = self.client.user.id if self.client.user else None
        try:
            async for message in target.history(limit=LOOK_BACK):
                if message.author.id == me and message.content == text:
                    return True
        except discord.HTTPException as exc:
            if discord_failure(exc):
                raise
        return False

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is not None:
            return channel
        try:
            return await self.client.fetch_channel(channel_id)
        except discord.HTTPException:
            return None


def _without_thread_changes(outbox: Outbox) -> Outbox:
    """The outbox with its thread changes already made (by an earlier attempt)."""
    copy = Outbox(outbox.channel_id, posts=outbox.posts, status=outbox.status_source, reply=outbox.reply)
    copy.lobby_changed = outbox.lobby_changed
    return copy


def _embed(card: StatusCard, picture: Picture | None) -> discord.Embed:
    """The status card as an embed: a field per nation (side by side where the screen is
    wide, one under another on a phone), the board picture as its image."""
    embed = discord.Embed(title=card.title, description=card.description or None)
    for f in card.fields:
        embed.add_field(name=f.name, value=f.value, inline=True)
    if card.footer:
        embed.set_footer(text=card.footer)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    return embed
