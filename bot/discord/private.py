"""Private lines in Discord: DMs, and the turn notices held for their grace.

- private lines reach only their seat: in the caller's ephemeral reply (`Delivery`), else
  by DM, one DM per player per answer;
- a turn notice (a prompt post) waits `NOTICE_GRACE` seconds before it is sent by DM, and
  is dropped if the player acts at that table meanwhile, or if the decision was taken
  without them (a deadline's default, a standing order): a player who is playing sees the
  status and their replies, and does not need a DM for every turn. Waiting notices are kept
  in the database (bot/service/deliveries.py), so they wait over a restart;
- one notice per player per table in their DMs (`_live`): a new notice replaces the last
  one (a new message, so it notifies); once its decision is taken, a notice the player
  answered goes (their answer said what they did), and one taken without them (a default,
  a standing order, an automatic seat) is edited to say so, its buttons and picture gone.
  Sent notices are kept in the front end's rows (bot/service/front_rows.py) and read back
  at a table's first use after a restart, so a restart leaves none asking, nor two live;
- every DM names the game, the channel and the server in words, with a link;
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
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot.render.pictures import Picture
from bot.render.rich import member
from bot.render.text import escape, split_message
from bot.service.deliveries import retry_wait
from bot.service.outbox import Outbox, Post
from bot.store import NoticeRow
from bot.store.front_rows import LiveNotice
from engine import games

from .interact import picture_file
from .markup import markup
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
    seat: str | None = None  # the seat whose decision it asks for


def _decided(text: str) -> str:
    """A sent notice once its decision was taken: what it asked, struck through, and so."""
    lines = text.splitlines()
    where = [line for line in lines if line.startswith("-# ")]  # the table it names stays as it was
    asked = [f"~~{line}~~" if line.strip() else line for line in lines if not line.startswith("-# ")]
    return "\n".join([*asked, "**Decided**: nothing is owed at this table now.", *where])


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
        # each channel's game, as the last outbox said it (`Shown.game`): a DM names it
        # without reading the table
        self._games: dict[int, str] = {}
        # Turn notices not yet sent, by (table channel, user), mirrored in the database
        self._notices: dict[tuple[int, int], _Notice] = {}
        self._forgetting: set[asyncio.Future[None]] = set()  # notices being dropped from the store
        # The last turn notice sent, by (table channel, user): its DM message and text,
        # mirrored in the front end's rows; a table's are read back at its first use.
        self._live: dict[tuple[int, int], LiveNotice] = {}
        self._read: set[int] = set()  # tables whose kept notices were read back
        self._checking: set[tuple[int, int]] = set()  # a settle is asking whether they still owe
        self._marking: set[asyncio.Future[None]] = set()  # notices being edited to "decided"

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
        if outbox.shown is not None and outbox.shown.game:
            self._games[channel.id] = outbox.shown.game
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
                said = markup(post.text)
                if said not in notice.texts:  # said again after a failed attempt
                    notice.texts.append(said)
                notice.fallback = markup(post.public) if post.public else notice.fallback
                notice.seat = post.seat or notice.seat
            else:
                by_user[post.user_id].append(post)
        for user_id, posts in by_user.items():
            briefing = any(p.kind == "briefing" for p in posts)
            closed_before = briefing and (
                user_id in self._closed or await self.service.notifications.dm_closed(user_id)
            )
            fallback = "\n".join(markup(p.public) for p in posts if p.public) or None
            picture = await self._gallery_picture(outbox.channel_id, user_id, posts)
            text = "\n".join(markup(p.text) for p in posts)
            sent = await self.dm(channel, user_id, text, fallback=fallback, picture=picture)
            just_closed = not closed_before and user_id in self._closed  # dm() told them just now
            if briefing and not sent and not just_closed:
                # A newcomer must learn they now hold a seat even without DMs.
                await send_once(
                    self.client,
                    channel,
                    f"{markup(member(user_id))}, you have taken over a seat here. Use `/game me` in this channel "
                    "to see your hand, your orders in progress and what you owe.",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                )

    def seen(self, channel_id: int, user_id: int) -> None:
        """The player acted or looked at their view at this table: their notices are moot,
        and the one sent says it was decided once nothing is owed."""
        if self._notices.pop((channel_id, user_id), None) is not None:
            self._forget_notices([(channel_id, user_id)])
        self.settle(channel_id, [user_id], acted_by=user_id)

    def settle(self, channel_id: int, user_ids: list[int] | None = None, *, acted_by: int | None = None) -> None:
        """The sent notices at the table whose decision was taken: the one of the member
        who acted (`acted_by`; their answer says what they did) is removed, any other (a
        default, a standing order, an automatic seat took it) is edited to say so.
        `user_ids` None: every member with one."""
        if channel_id in self._read and not self._sent_at(channel_id, user_ids):
            return
        task = asyncio.ensure_future(self._settle(channel_id, user_ids, acted_by))
        self._marking.add(task)
        task.add_done_callback(self._marked)

    def _sent_at(self, channel_id: int, user_ids: list[int] | None) -> list[tuple[int, int]]:
        return [k for k in self._live if k[0] == channel_id and (user_ids is None or k[1] in user_ids)]

    async def _settle(self, channel_id: int, user_ids: list[int] | None, acted_by: int | None) -> None:
        await self._read_back(channel_id)
        for key in self._sent_at(channel_id, user_ids):
            sent = self._live.get(key)
            if sent is None or sent.decided or key in self._checking:
                continue
            self._checking.add(key)  # another settle of the same answer leaves it to this one
            try:
                if await self.service.deliveries.still_owes(*key):
                    continue
            finally:
                self._checking.discard(key)
            if self._live.get(key) is not sent:
                continue  # a newer notice took its place meanwhile
            message = self.client.get_partial_messageable(sent.dm_id).get_partial_message(sent.message_id)
            front = self.service.posts.front
            try:
                if key[1] == acted_by:
                    self._live.pop(key, None)
                    await message.delete()
                else:
                    self._live[key] = replace(sent, decided=True)
                    await message.edit(content=_decided(sent.text), view=None, attachments=[])
            except discord.HTTPException:
                log.info("could not settle the turn notice at table %s", key[0], exc_info=True)
            await self._mirror(front.notice_gone if key[1] == acted_by else front.notice_decided, sent)

    async def _read_back(self, channel_id: int) -> None:
        """The notices sent at the table before this run of the bot, at its first use."""
        if channel_id in self._read:
            return
        try:
            kept = await self.service.posts.front.notices(channel_id)
        except Exception:  # read again at the table's next use
            log.warning("could not read the turn notices sent at table %s", channel_id, exc_info=True)
            return
        if channel_id in self._read:
            return  # read meanwhile by another caller, whose notices may have moved on since
        self._read.add(channel_id)
        for notice in kept:
            self._live.setdefault((notice.channel_id, notice.user_id), notice)

    async def _mirror(self, write: Callable[[LiveNotice], Awaitable[None]], notice: LiveNotice) -> None:
        """A sent notice's change kept in the store. A failure costs only what a restart
        would remember of it, never the DM itself."""
        try:
            await write(notice)
        except Exception:
            log.warning("could not keep the turn notice at table %s", notice.channel_id, exc_info=True)

    def _marked(self, task: asyncio.Future[None]) -> None:
        self._marking.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not mark a turn notice decided", exc_info=task.exception())

    def next_notice(self) -> float | None:
        return min((n.due for n in self._notices.values()), default=None)

    def notice_rows(self, keys: set[tuple[int, int]]) -> list[NoticeRow]:
        """The waiting turn notices of `keys`, as the store keeps them."""
        rows = []
        for channel_id, user_id in sorted(keys):
            notice = self._notices.get((channel_id, user_id))
            if notice is not None:
                body = {
                    "texts": notice.texts,
                    "mention": notice.mention,
                    "fallback": notice.fallback,
                    "seat": notice.seat,
                }
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
            notice.seat = notice.seat or body.get("seat")
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
        if not await self.service.deliveries.still_owes(channel_id, user_id):
            return  # taken meanwhile (a default, a standing order): nothing to ask
        token = SAYING_AGAIN.set(notice.tries > 0)
        try:
            if notice.texts and not notice.sent:
                # A DM is the player's own: their turn buttons may name cards in their Hand.
                view = await own_choices(self.service, channel_id, user_id)
                fallback = None if notice.mention is not None else notice.fallback
                picture = await self._own_picture(channel_id, user_id)  # their Hand, sheet or screen, as now
                text = "\n".join(notice.texts)
                await self._replace(key)
                sent: list[Any] = []
                await self.dm(channel, user_id, text, view=view, fallback=fallback, picture=picture, sent_to=sent)
                if sent:
                    last = sent[-1]
                    live = LiveNotice(*key, last.channel.id, last.id, last.content or text, notice.seat)
                    self._live[key] = live
                    await self._mirror(self.service.posts.front.keep_notice, live)
                notice.sent = True
            if notice.mention is not None:
                await self.mention(channel, user_id, notice.mention)
        finally:
            SAYING_AGAIN.reset(token)

    async def _replace(self, key: tuple[int, int]) -> None:
        """The last notice at this table (sent by this run of the bot or an earlier one)
        gives way to the new one."""
        await self._read_back(key[0])
        old = self._live.pop(key, None)
        if old is None:
            return
        try:
            await self.client.get_partial_messageable(old.dm_id).get_partial_message(old.message_id).delete()
        except discord.HTTPException:
            log.info("could not remove the last turn notice at table %s", key[0], exc_info=True)
        await self._mirror(self.service.posts.front.notice_gone, old)

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
        sent_to: list[Any] | None = None,
    ) -> bool:
        """DM `text`; True if it went (its last message is added to `sent_to`). When it cannot
        go, `fallback` (a mention naming no secret) is posted in the table's channel instead,
        so a turn is never missed."""
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
            parts = split_message(f"{text}\n-# {await self._where(channel)}")
            for n, part in enumerate(parts):  # the buttons go with the last part
                message = await send_once(self.client, dm, part, **(extra if n == len(parts) - 1 else {}))
            if sent_to is not None and message is not None:
                sent_to.append(message)
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
            f"{markup(member(user_id))}, I cannot send you direct messages, so your turn notices and "
            "reminders will come as mentions here, without your secrets; `/game me` shows your "
            "hand and what you owe. To have them by DM again, allow direct messages from this "
            "server's members and use `/game notify mode:dm`."
        )
        if fallback:
            told += "\n" + fallback
        await self.mention(channel, user_id, told)
        return False

    async def _where(self, channel: Any) -> str:
        """The table a DM is about, in words with a link: "Crisis: 1914 in #balkans on
        Vienna Club: open the table"."""
        title = None
        try:
            game = self._games.get(channel.id)
            if game is None:  # no outbox of this table said it yet (a restart, a spectator's DM)
                info = await self.service.table_info(channel.id)
                if info is not None:
                    game = self._games[channel.id] = info.game
            title = games.get(game).title if game is not None else None
        except Exception:  # the table is gone or unknown: the channel alone names it
            log.info("could not name the game of table %s", channel.id, exc_info=True)
        guild = getattr(getattr(channel, "guild", None), "name", None)
        name = getattr(channel, "name", None)
        where = f"#{name}" + (f" on {escape(guild)}" if guild else "") if name else "its channel"
        link = getattr(channel, "jump_url", None)
        opening = f"{title} in {where}" if title else where[0].upper() + where[1:]
        return opening + (f": [open the table]({link})" if link else "")

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
