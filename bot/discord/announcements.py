"""A lobby table's entry in its server's lobby channel, and its game's watchers told.

The service says what the entry reads and who is to be told (`Community.lobby_news`,
bot/service/signups.py); this posts the entry, edits it as seats fill, deletes it when the
game starts or the table is abandoned (or the lobby channel changes), and tells the
watchers, then hands back what it did (`Community.keep_entry`). The delivery calls
`refresh` for every outbox that asks (`Outbox.lobby_changed`); the bot wires it up.

Who may see what is Discord's to say, so it is decided here (docs/rulings.md, Platform):
- an entry is posted only for a table whose channel every role that can read the lobby
  channel can open too: a table in a private channel is not announced, so the lobby shows
  nobody a table they could not join;
- a watcher is told only if they are a member who can see the table's channel; by DM
  (with a Join button), or, when they asked for mentions (/game notify) or their DMs are
  closed, by a mention on the first line of the table's new entry, which goes with the
  entry when the game starts or the table is abandoned (without an entry: in the table's
  own channel).

Every entry with an open seat carries a Join button (join_view.py): one tap seats a
member who may open the table's channel.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.service.audience import Reader
from bot.service.bounded import KeyedLocks
from bot.service.signups import LobbyNews
from bot.service.tables import TableService

from .context import may_open
from .join_view import join_view
from .markup import markup

__all__ = ["Announcements"]

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


class Announcements:
    """Lobby-channel entries and watch notices over the delivery's DMs."""

    def __init__(self, client: discord.Client, service: TableService, delivery: Any) -> None:
        self.client = client
        self.service = service
        self.delivery = delivery  # its `dm`: a DM with a public fallback, closed DMs remembered
        self._locks = KeyedLocks()  # table channel -> one refresh at a time (two joins at once)

    async def refresh(self, table_channel_id: int) -> None:
        """Show the table's entry as the table is now, and tell its watchers if it just opened."""
        async with self._locks.hold(table_channel_id):
            community = self.service.community
            news = await community.lobby_news(table_channel_id)
            if news is None:
                return
            guild = self.client.get_guild(news.guild_id) if news.guild_id else None
            # DMs first: who must be mentioned instead rides on the entry, if it is new
            mention = await self._tell(guild, news) if news.tell and guild is not None else []
            message_id, pinged = await self._entry(guild, news, mention)
            if mention and not pinged and guild is not None:
                await self._mention(guild, news, mention)
            await community.keep_entry(news, message_id)

    # ------------------------------------------------------------------ the entry

    async def _entry(self, guild: discord.Guild | None, news: LobbyNews, mention: list[int]) -> tuple[int | None, bool]:
        """Post, edit or delete the entry: the id of the message showing it now, if any, and
        whether it was posted now with the pings of `mention` above it (so that they go
        with it when the table starts or is abandoned)."""
        previous = news.previous
        kept = previous.message_id if previous is not None and not news.must_remove() else None
        if news.must_remove() and previous is not None:
            await self._delete(previous.lobby_channel, previous.message_id)
        if news.text is None or guild is None or news.lobby_channel is None:
            return None, False
        lobby = guild.get_channel(news.lobby_channel)
        table = guild.get_channel_or_thread(news.table_channel)
        if not isinstance(lobby, discord.TextChannel) or table is None or not _as_open(table, lobby, guild):
            if kept is not None:  # the table's channel was made private since: its entry goes
                await self._delete(news.lobby_channel, kept)
            return None, False
        view = join_view((news.table_channel, "Join")) if news.joinable else None
        if kept is not None:
            try:
                await lobby.get_partial_message(kept).edit(content=markup(news.text), view=view, allowed_mentions=NO_MENTIONS)
                return kept, False
            except discord.NotFound:
                pass  # deleted by someone: post it again
        text = f"{markup(news.ping(mention))}\n{markup(news.text)}" if mention else markup(news.text)
        allowed = discord.AllowedMentions(users=[discord.Object(uid) for uid in mention]) if mention else NO_MENTIONS
        try:
            message = await lobby.send(text, view=view or discord.utils.MISSING, allowed_mentions=allowed)
        except discord.HTTPException:
            log.warning("could not post the lobby entry of table %s", news.table_channel, exc_info=True)
            return None, False
        return message.id, bool(mention)

    async def _delete(self, channel_id: int | None, message_id: int | None) -> None:
        if channel_id is None or message_id is None:
            return
        channel = self.client.get_channel(channel_id)
        if channel is None:
            return  # the lobby channel itself is gone
        try:
            await channel.get_partial_message(message_id).delete()  # type: ignore[union-attr]
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.warning("could not remove the lobby entry %s", message_id, exc_info=True)

    # ------------------------------------------------------------------ watchers

    async def _tell(self, guild: discord.Guild, news: LobbyNews) -> list[int]:
        """Tell every watcher who can see the table's channel by DM, with a Join button;
        the ones to mention instead (they asked for mentions, or their DMs are closed)."""
        table = guild.get_channel_or_thread(news.table_channel)
        if table is None:
            return []
        mention: list[int] = []
        notifications = self.service.notifications
        button = join_view((news.table_channel, "Join"))
        for user_id in news.tell:
            member = await _member(guild, user_id)
            if member is None or not Reader(user_id, may_open(guild, member)).sees(news.table_channel):
                continue  # never a word about a table they cannot open
            if notifications.prefs_of(user_id).mode == "mention" or await notifications.dm_closed(user_id):
                mention.append(user_id)
                continue
            # a DM that fails (DMs just closed) falls back to a mention in the table's channel
            notice = markup(news.notice(guild.name, button=True))
            await self.delivery.dm(table, user_id, notice, view=button, fallback=markup(news.mention([user_id])))
        return mention

    async def _mention(self, guild: discord.Guild, news: LobbyNews, mention: list[int]) -> None:
        """The watchers' mention where no new entry carries it: in the table's own channel,
        which keeps its table's story (a lobby channel would keep a stale link)."""
        table = guild.get_channel_or_thread(news.table_channel)
        if table is None:
            return
        allowed = discord.AllowedMentions(users=[discord.Object(uid) for uid in mention])
        try:
            await table.send(markup(news.mention(mention)), allowed_mentions=allowed)  # type: ignore[union-attr]
        except discord.HTTPException:
            log.warning("could not mention the watchers of table %s", news.table_channel, exc_info=True)


async def _member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    """The member, from the cache or one request (the bot has no member list); None if the
    user is not in the server."""
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:
        return None


def _as_open(table: Any, lobby: discord.TextChannel, guild: discord.Guild) -> bool:
    """Whether every role that can read the lobby channel can open the table's channel too
    (roles, not members: the bot has no member list; a member's own permission to see a
    private channel is not everyone's)."""
    for role in guild.roles:
        if lobby.permissions_for(role).view_channel and not table.permissions_for(role).view_channel:
            return False
    return True
