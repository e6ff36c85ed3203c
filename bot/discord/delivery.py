"""Delivering an Outbox in Discord.

- the table's one status message is edited in place, drawn with Components V2
  (status_layout.py): who is awaited and by when at the top, the board picture at full
  width, a line per seat, then the round summary (what happened this Week, round or turn,
  growing as it goes) and the buttons; a finished summary stays in the channel as a
  message of its own and a new status message takes over below it (docs/rulings.md,
  Discord adapter 27), so an action's public events are never posts of their own;
- private lines reach only their seat: in the caller's ephemeral reply, else by DM, and
  turn notices wait out their grace (private.py);
- the phase thread is opened and archived as the service asks;
- nothing is cut: a text longer than a message goes on in the next (`split_message`).

Every skipped call here is deliberate: the budget is about 1.5 Discord API calls per
player action; the summary shares the status edit, and costs one call more only when a
message of it is finished (a new round, or 2,000 characters).

The bot (client.py) builds the delivery and hands it the Discord client, the table
service and the clock; handlers reach it through `host.Host.delivery`.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.render.pictures import Picture
from bot.render.status import StatusCard
from bot.render.text import split_message
from bot.service.bounded import KeyedLocks
from bot.service.outbox import Outbox, Post
from bot.service.posts import Summary
from bot.service.tables import TableService

from .interact import picture_file
from .pending import SAYING_AGAIN, PendingPosts, discord_failure, send_once
from .private import PrivateLines
from .status_layout import layout_digest, status_layout, summary_layout
from .views import CUSTOM_ID, FullStatus, own_choices

__all__ = ["Delivery"]

log = logging.getLogger(__name__)

BREAKDOWN_LABEL = "How each score was reached"
MAX_ITEMS = 25  # Discord: components in a message's rows
HISTORY_SCAN = 50  # messages searched for the status message after a restart
NO_MENTIONS = discord.AllowedMentions.none()
# Public posts that stay in the channel as their own message (a published history too).
STANDALONE = {"standings", "notice", "history"}


class Delivery:
    def __init__(self, client: discord.Client, service: TableService, clock: Callable[[], float]) -> None:
        self.client = client  # the connected bot: its user, channels and DMs
        self.service = service
        self.clock = clock  # the deadline ticker's: a turn notice's grace runs on it
        self._status_ids: dict[int, int] = {}  # table channel -> its status message
        self._shown: dict[int, str] = {}  # table channel -> the status layout last shown (layout_digest)
        self._locks = KeyedLocks()  # table channel -> its status message's edits, while any run
        self._pictured: dict[int, bytes] = {}  # table channel -> the digest of the picture shown
        # DMs and the turn notices held for their grace (private.py)
        self.private = PrivateLines(client, service, clock, self._channel)
        # Shows a table's entry in its server's lobby channel as the table is now; the bot
        # sets it (bot/discord/announcements.py). None: no lobby channel support.
        self.announce: Callable[[int], Awaitable[None]] | None = None
        # what waits to be said, and saying it (pending.py); the bot sets its poke
        self.pending = PendingPosts(self, service, clock)

    # ------------------------------------------------------------------ entry points

    def private_reply(self, outbox: Outbox, caller_id: int) -> str:
        """The caller's ephemeral answer: the service's reply and every private line for them.

        A turn notice for the caller rides here rather than in a DM: the ephemeral is as
        private and they are looking at it now.
        """
        parts = [outbox.reply] if outbox.reply else []
        parts += [p.text for p in outbox.posts if p.to == "seat" and p.user_id == caller_id]
        return "\n".join(parts) or "Done."

    async def turn_buttons(
        self, channel_id: int, user_id: int, *, full_status: bool = False
    ) -> discord.ui.View | None:
        """The member's current turn buttons at the table, for their ephemeral answer or DM;
        with `full_status`, the Full status button after them (their own view, `/game me`,
        leaves the public status behind it)."""
        view = await own_choices(self.service, channel_id, user_id, spare_rows=1 if full_status else 0)
        if not full_status:
            return view
        view = view if view is not None else discord.ui.View(timeout=None)
        if len(view.children) < MAX_ITEMS:
            view.add_item(FullStatus(channel_id))
        return view

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
            extra: dict[str, Any] = {"files": [picture_file(p) for p in final]} if final and n == len(parts) - 1 else {}
            if n == len(parts) - 1 and any(p.kind == "standings" and p.user_id is None for p in public):
                # how each score was reached: the full status after the end, one tap away
                view = discord.ui.View(timeout=None)
                view.add_item(FullStatus(channel.id, BREAKDOWN_LABEL))
                extra["view"] = view
            await send_once(self.client, channel, part, allowed_mentions=NO_MENTIONS, **extra)
        # For a player who chose mentions: a reminder is its own message, so the ping fires;
        # a turn notice waits out the grace like a DM would (and the caller needs neither).
        for post in public:
            if post.user_id is None or post.user_id == caller_id:
                continue
            if post.kind == "prompt":
                self.private.hold_mention(outbox.channel_id, post.user_id, post.text)
            else:
                await self.private.mention(channel, post.user_id, post.text)
        await self.private.say(channel, outbox, caller_id)
        self.private.settle(outbox.channel_id, acted_by=caller_id)  # notices this answer settled
        if outbox.lobby_changed and self.announce is not None:
            try:
                await self.announce(outbox.channel_id)
            except Exception:  # the table's own posts went out; its lobby entry is refreshed next time
                log.warning("could not refresh the lobby entry of table %s", outbox.channel_id, exc_info=True)
        return self.private.waiting_in(outbox.channel_id)

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
                    await send_once(self.client, channel, part, allowed_mentions=NO_MENTIONS)
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
        """Edit the status message: the card, the board picture and the live summary, in one
        call (the picture uploaded again only when it changed). When a summary message is
        finished (a new round, or full), the status message keeps it, bare, and a new status
        message below takes over."""
        status_id = None if new else await self._find_status(channel)
        if summary is None:  # before the start: the lobby's card alone
            await self._edit_status(channel, status_id, card, "", picture)
            return
        *finished, live = summary.parts
        held = status_id if status_id is not None and summary.held_by == status_id else None
        if held is not None and not finished:
            posted = await self._edit_status(channel, held, card, live.text(), picture, remember=False)
            if posted is not None:  # the message was deleted: the new one holds the summary
                await self.service.posts.summary_moved(channel.id, posted, live)
            return
        texts = [text for part in finished for text in part.messages()]
        if held is not None and texts:
            await self._freeze(channel, held, texts.pop(0))
        elif status_id is not None:
            await self._retire(channel, status_id)  # the lobby's: the game's first summary begins below it
        for text in texts:
            await send_once(self.client, channel, text, allowed_mentions=NO_MENTIONS)
        posted_id = await self._post_status(channel, card, live.text(), picture, remember=False)
        await self.service.posts.summary_moved(channel.id, posted_id, live)

    async def _edit_status(
        self,
        channel: Any,
        message_id: int | None,
        card: StatusCard,
        text: str,
        picture: Picture | None,
        *,
        remember: bool = True,
    ) -> int | None:
        """Edit the status message `message_id` (or post one if None or gone); returns the
        id of a message posted, None when the existing one was edited or already showed it.
        A message posted is stored with the table unless the caller stores it (`remember`)."""
        if message_id is None:
            return await self._post_status(channel, card, text, picture, remember=remember)
        digest = hashlib.sha1(picture.png).digest() if picture is not None else None
        changed_picture = digest is not None and self._pictured.get(channel.id) != digest
        layout = status_layout(channel.id, card, text, picture)
        shown = layout_digest(layout)
        if self._shown.get(channel.id) == shown and not changed_picture:
            return None
        extra = {"attachments": [picture_file(picture)]} if picture is not None and changed_picture else {}
        try:
            # content and embeds cleared: a status message posted before Components V2 becomes one
            await channel.get_partial_message(message_id).edit(
                content=None, embeds=[], view=layout, allowed_mentions=NO_MENTIONS, **extra
            )
            self._shown[channel.id] = shown
            if digest is not None:
                self._pictured[channel.id] = digest
            return None
        except discord.NotFound:
            pass  # deleted by someone: post a fresh one
        return await self._post_status(channel, card, text, picture, remember=remember)

    async def _post_status(
        self, channel: Any, card: StatusCard, text: str, picture: Picture | None, *, remember: bool
    ) -> int:
        """Post a new status message; returns its id. It is stored with the table unless the
        caller stores it (`remember`)."""
        digest = hashlib.sha1(picture.png).digest() if picture is not None else None
        layout = status_layout(channel.id, card, text, picture)
        shown = layout_digest(layout)
        extra = {"file": picture_file(picture)} if picture is not None else {}
        message = await channel.send(view=layout, allowed_mentions=NO_MENTIONS, **extra)
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
                content=None, embeds=[], attachments=[], view=summary_layout(text), allowed_mentions=NO_MENTIONS
            )
        except discord.NotFound:  # deleted by someone: the summary goes on as a message
            await send_once(self.client, channel, text, allowed_mentions=NO_MENTIONS)
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
        if again and wanted is not None and current is not None and getattr(current, "name", None) == wanted:
            lines.insert(0, self._opening(outbox, wanted, await self._thread_due(outbox.channel_id, wanted)))
            outbox = _without_thread_changes(outbox)  # it did: only its lines are left to say
        if current is not None and lines and (outbox.close_thread or not outbox.open_thread):
            for part in split_message("\n".join(lines)):
                await send_once(self.client, current, part, allowed_mentions=NO_MENTIONS)
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
                await send_once(self.client, target, part, allowed_mentions=NO_MENTIONS)

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

    # ------------------------------------------------------------------ private lines (private.py)
    def seen(self, channel_id: int, user_id: int) -> None:
        """The player acted or looked at their view at this table: their notices are moot."""
        self.private.seen(channel_id, user_id)

    def next_notice(self) -> float | None:
        return self.private.next_notice()

    async def send_notices(self, now: float | None = None) -> None:
        await self.private.send_due(now)

    async def dm(self, channel: Any, user_id: int, text: str, **kwargs: Any) -> bool:
        return await self.private.dm(channel, user_id, text, **kwargs)

    def reopened(self, user_id: int) -> None:
        self.private.reopened(user_id)

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

