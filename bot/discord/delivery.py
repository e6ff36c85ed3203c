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

What the status message shows comes from the outbox alone: the save that stored it wrote
its card, its summary's events, the board's public view and the table's version into it
(`Outbox.shown`, bot/service/shown.py), so saying it loads, locks and saves no table. Two
deliveries that finish out of order are put right by the version: an older card never
replaces a newer one. What Discord answers (the status message, the phase thread, where
the summary starts) is kept in the front end's own rows (`FrontRows.keep_shown`).

The bot (client.py) builds the delivery and hands it the Discord client, the table
service and the clock; handlers reach it through `host.Host.delivery`.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.render.pictures import Picture
from bot.render.status import StatusCard
from bot.render.summary import Part
from bot.render.text import split_message
from bot.service.bounded import KeyedLocks
from bot.service.menus import CallerMenu
from bot.service.outbox import Outbox, Post
from bot.service.posts import Summary
from bot.service.shown import Shown, summary_of
from bot.service.tables import TableService

from .interact import picture_file
from .markup import markup, timestamp
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


@dataclass(slots=True)
class FrontSeen:
    """What this process showed of a channel's table, and what Discord answered for it
    (kept in the front end's row too: bot/service/front_rows.py)."""

    table_created: float  # which of the channel's tables
    version: int = -1  # the highest table version its status has shown
    status_message_id: int | None = None  # its status message, as kept
    thread_id: int | None = None  # its phase thread
    summary: dict[str, Any] | None = None  # where the status message's summary starts (posts.StoredSummary)


def _since(summary: dict[str, Any] | None) -> int:
    """Where a kept summary starts (-1: none kept): a later one starts at or after it."""
    return -1 if summary is None else int(summary.get("since", 0))


class Delivery:
    def __init__(self, client: discord.Client, service: TableService, clock: Callable[[], float]) -> None:
        self.client = client  # the connected bot: its user, channels and DMs
        self.service = service
        self.clock = clock  # the deadline ticker's: a turn notice's grace runs on it
        self._status_ids: dict[int, int] = {}  # table channel -> its status message
        self._shown: dict[int, str] = {}  # table channel -> the status layout last shown (layout_digest)
        self._locks = KeyedLocks()  # table channel -> its status message's edits, while any run
        self._pictured: dict[int, bytes] = {}  # table channel -> the digest of the picture shown
        self._fronts: dict[int, FrontSeen] = {}  # table channel -> what its status showed and was answered
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
        parts = [markup(outbox.reply)] if outbox.reply else []
        parts += [markup(p.text) for p in outbox.posts if p.to == "seat" and p.user_id == caller_id]
        return "\n".join(parts) or "Done."

    async def turn_buttons(
        self, channel_id: int, user_id: int, *, full_status: bool = False, menu: CallerMenu | None = None
    ) -> discord.ui.View | None:
        """The member's current turn buttons at the table, for their ephemeral answer or DM;
        with `full_status`, the Full status button after them (their own view, `/game me`,
        leaves the public status behind it). `menu`: what their action's outbox says they
        may do next; without it, the table is read."""
        view = await own_choices(self.service, channel_id, user_id, spare_rows=1 if full_status else 0, menu=menu)
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
        events = [markup(p.text) for p in public if p.kind not in STANDALONE and p.user_id is None]
        if outbox.status_source is not None or events:
            # the summary in the status message shows the events, from what the save stored
            await self._status(channel, outbox, events, new=new_status)
        standalone = [markup(p.text) for p in public if p.kind in STANDALONE and p.user_id is None]
        # The final standings and a published history carry the final board and the score
        # chart, in their last message: no call of their own.
        final = await self._final_pictures(outbox, public)
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
                self.private.hold_mention(outbox.channel_id, post.user_id, markup(post.text))
            else:
                await self.private.mention(channel, post.user_id, markup(post.text))
        await self.private.say(channel, outbox, caller_id)
        self.private.settle(outbox.channel_id, acted_by=caller_id)  # notices this answer settled
        if outbox.lobby_changed and self.announce is not None:
            try:
                await self.announce(outbox.channel_id)
            except Exception:  # the table's own posts went out; its lobby entry is refreshed next time
                log.warning("could not refresh the lobby entry of table %s", outbox.channel_id, exc_info=True)
        return self.private.waiting_in(outbox.channel_id)

    async def _final_pictures(self, outbox: Outbox, public: list[Post]) -> list[Picture]:
        if not any(p.kind in ("standings", "history") and p.user_id is None for p in public):
            return []
        try:
            return await self.service.final_pictures_of(outbox.channel_id, outbox.shown)
        except Exception:  # the standings go out without pictures rather than not at all
            log.warning("could not draw the final pictures of table %s", outbox.channel_id, exc_info=True)
            return []

    # ------------------------------------------------------------------ status

    async def _status(self, channel: Any, outbox: Outbox, events: list[str], *, new: bool) -> None:
        """Show what the save that stored `outbox` wrote (`outbox.shown`): its card, its
        board and the summary as it stood then. Two quick actions' deliveries can finish
        out of order: the status shows the highest table version it has had, so an older
        card never replaces a newer one (the newer one's summary holds the older one's
        events too)."""
        shown = outbox.shown
        if shown is None:
            # no save wrote it and the table could not be read (it is gone): what the outbox carried
            text = "\n".join([markup(outbox.status or ""), *events]).strip()
            for part in split_message(text):
                await send_once(self.client, channel, part, allowed_mentions=NO_MENTIONS)
            return
        async with self._locks.hold(channel.id):
            front = await self._front_of(shown)
            if shown.version < front.version:
                return  # a later action's status is shown already
            front.version = shown.version
            summary = await self._summary(shown, front)
            picture = await self._board(shown)
            await self._show_status(channel, shown, summary, new=new, picture=picture)

    async def _front_of(self, shown: Shown) -> FrontSeen:
        """What this process showed and was answered at the table `shown` is of; begun from
        the front end's row (after a restart, or at the channel's new table)."""
        front = self._fronts.get(shown.channel_id)
        if front is None or front.table_created != shown.table_created:
            row = await self.service.posts.front.kept(shown)
            front = FrontSeen(shown.table_created, status_message_id=row.status_message_id, thread_id=row.thread_id, summary=row.summary)
            self._fronts[shown.channel_id] = front
        elif _since(shown.summary_start) > _since(front.summary):
            front.summary = shown.summary_start  # moved on by another process meanwhile
        return front

    async def _summary(self, shown: Shown, front: FrontSeen) -> Summary | None:
        """The round summary from where the status message's part starts (None before the
        game starts). A table that kept none yet (one started before summaries, or
        imported) starts it at the last event the save carried."""
        if shown.summary is None:
            return None
        if front.summary is None:
            message = self._status_ids.get(shown.channel_id, front.status_message_id)
            front.summary = {**Part(since=shown.summary.total).start(), "message": message}
            await self._keep_front(shown, summary=front.summary)
        return Summary(summary_of(shown.summary, front.summary), front.summary.get("message"))  # type: ignore[arg-type]

    async def _board(self, shown: Shown) -> Picture | None:
        """The board picture, drawn from the public view the save stored (cached)."""
        try:
            return await self.service.stored_board(shown)
        except Exception:  # the status goes without its picture rather than not at all
            log.warning("could not draw the board of table %s", shown.channel_id, exc_info=True)
            return None

    async def _keep_front(self, shown: Shown, **changes: Any) -> None:
        """Keep what Discord answered in the front end's row (no table is read or saved)."""
        front = self._fronts.get(shown.channel_id)
        if front is not None and "summary" in changes:
            front.summary = changes["summary"]
        if front is not None and "thread_id" in changes:
            front.thread_id = changes["thread_id"]
        if front is not None and "status_message_id" in changes:
            front.status_message_id = changes["status_message_id"]
        await self.service.posts.front.keep_shown(shown, **changes)

    async def _show_status(
        self, channel: Any, shown: Shown, summary: Summary | None, *, new: bool, picture: Picture | None = None
    ) -> None:
        """Edit the status message: the card, the board picture and the live summary, in one
        call (the picture uploaded again only when it changed). When a summary message is
        finished (a new round, or full), the status message keeps it, bare, and a new status
        message below takes over."""
        card = shown.card
        status_id = None if new else await self._find_status(channel, shown)
        if summary is None:  # before the start: the lobby's card alone
            await self._edit_status(channel, shown, status_id, "", picture)
            return
        *finished, live = summary.parts
        held = status_id if status_id is not None and summary.held_by == status_id else None
        if held is not None and not finished:
            posted = await self._edit_status(channel, shown, held, live.text(), picture, remember=False)
            if posted is not None:  # the message was deleted: the new one holds the summary
                await self._summary_moved(shown, posted, live)
            return
        texts = [text for part in finished for text in part.messages()]
        if held is not None and texts:
            await self._freeze(channel, held, texts.pop(0))
        elif status_id is not None:
            await self._retire(channel, status_id)  # the lobby's: the game's first summary begins below it
        for text in texts:
            await send_once(self.client, channel, text, allowed_mentions=NO_MENTIONS)
        posted_id = await self._post_status(channel, card, live.text(), picture, remember=None)
        await self._summary_moved(shown, posted_id, live)

    async def _summary_moved(self, shown: Shown, message_id: int, part: Part) -> None:
        """The status message is now `message_id`, holding `part`: kept in the front end's
        row, so a restart edits that message and continues that part."""
        await self._keep_front(shown, summary={**part.start(), "message": message_id}, status_message_id=message_id)

    async def _edit_status(
        self,
        channel: Any,
        shown: Shown,
        message_id: int | None,
        text: str,
        picture: Picture | None,
        *,
        remember: bool = True,
    ) -> int | None:
        """Edit the status message `message_id` (or post one if None or gone); returns the
        id of a message posted, None when the existing one was edited or already showed it.
        A message posted is stored with the table unless the caller stores it (`remember`)."""
        card, kept = shown.card, shown if remember else None
        if message_id is None:
            return await self._post_status(channel, card, text, picture, remember=kept)
        digest = hashlib.sha1(picture.png).digest() if picture is not None else None
        changed_picture = digest is not None and self._pictured.get(channel.id) != digest
        layout = status_layout(channel.id, card, text, picture)
        seen = layout_digest(layout)
        if self._shown.get(channel.id) == seen and not changed_picture:
            return None
        extra = {"attachments": [picture_file(picture)]} if picture is not None and changed_picture else {}
        try:
            # content and embeds cleared: a status message posted before Components V2 becomes one
            await channel.get_partial_message(message_id).edit(
                content=None, embeds=[], view=layout, allowed_mentions=NO_MENTIONS, **extra
            )
            self._shown[channel.id] = seen
            if digest is not None:
                self._pictured[channel.id] = digest
            return None
        except discord.NotFound:
            pass  # deleted by someone: post a fresh one
        return await self._post_status(channel, card, text, picture, remember=kept)

    async def _post_status(
        self, channel: Any, card: StatusCard, text: str, picture: Picture | None, *, remember: Shown | None
    ) -> int:
        """Post a new status message; returns its id. It is kept in the front end's row of
        the table `remember` shows (None: the caller keeps it)."""
        digest = hashlib.sha1(picture.png).digest() if picture is not None else None
        layout = status_layout(channel.id, card, text, picture)
        shown = layout_digest(layout)
        extra = {"file": picture_file(picture)} if picture is not None else {}
        message = await channel.send(view=layout, allowed_mentions=NO_MENTIONS, **extra)
        self._status_ids[channel.id] = message.id
        self._shown[channel.id] = shown
        if digest is not None:
            self._pictured[channel.id] = digest
        if remember is not None:
            try:
                await self._keep_front(remember, status_message_id=message.id)
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

    async def _find_status(self, channel: Any, shown: Shown) -> int | None:
        """The status message: remembered, kept in the front end's row (as the save read
        it), or found again by its button after a restart."""
        if channel.id in self._status_ids:
            return self._status_ids[channel.id]
        stored = (await self._front_of(shown)).status_message_id
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
        lines = [markup(p.text) for p in outbox.posts if p.to == "thread"]
        wanted = outbox.open_thread[:100] if outbox.open_thread else None
        again = SAYING_AGAIN.get() and wanted is not None  # an earlier attempt may have opened it
        needed = outbox.close_thread or lines or again
        thread_id = await self._thread_id(outbox) if needed else None
        current = await self._thread(thread_id) if thread_id else None
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
            await self._set_thread(outbox, None)
        if outbox.open_thread:
            try:
                current = await channel.create_thread(name=wanted, type=discord.ChannelType.public_thread)
            except discord.HTTPException as exc:
                if discord_failure(exc):
                    raise
                log.warning("could not open thread %r", outbox.open_thread, exc_info=True)
                current = None
            else:
                await self._set_thread(outbox, current.id)
                due = getattr(outbox, "open_thread_due", None) or await self._thread_due(
                    outbox.channel_id, outbox.open_thread
                )
                lines.insert(0, self._opening(outbox, outbox.open_thread, due))  # one message, one call
        if lines:
            target = current if current is not None else channel
            for part in split_message("\n".join(lines)):
                await send_once(self.client, target, part, allowed_mentions=NO_MENTIONS)

    async def _thread_id(self, outbox: Outbox) -> int | None:
        """The table's phase thread: as this process last kept it, else as the save read it."""
        if outbox.shown is not None:
            return (await self._front_of(outbox.shown)).thread_id
        info = await self.service.table_info(outbox.channel_id)  # no save wrote it: the table is read
        return info.thread_id if info is not None else None

    async def _set_thread(self, outbox: Outbox, thread_id: int | None) -> None:
        """Keep the table's phase thread (None: archived) in the front end's row."""
        if outbox.shown is not None:
            await self._front_of(outbox.shown)
            await self._keep_front(outbox.shown, thread_id=thread_id)
            return
        front = self._fronts.get(outbox.channel_id)
        if front is not None:
            front.thread_id = thread_id
        await self.service.set_thread(outbox.channel_id, thread_id)

    @staticmethod
    def _opening(outbox: Outbox, name: str, due: float | None) -> str:
        due = outbox.open_thread_due or due
        return f"**{name}**" + (f": this phase ends {timestamp(due, 'F')} ({timestamp(due)})." if due is not None else ".")

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

