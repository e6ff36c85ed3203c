"""`/community …` in the console (bot/service/community.py): the console's tables are
outside any server, so their archive, ratings, directory and sign-ups are server 0's, read
by one operator who opens every channel (`EVERY_CHANNEL`), and its one lobby channel
prints its entries as `[lobby]` lines.

The options arrive checked and typed (bot/service/verbs.py, through grammar.py), as
Discord would send them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..render.rich import Text
from ..service.community import EVERY_CHANNEL, Reader, Server
from ..service.tables import TableService
from .grammar import user_id_for

__all__ = ["CommunityLines", "LOBBY_CHANNEL"]

LOBBY_CHANNEL = 2  # the console's lobby channel: its entries are printed labelled [lobby]
SERVER = 0  # the console's "server"


class CommunityLines:
    """The console's /community verbs. `say(text, label)` prints; `names` is the console's
    map of user ids to the names typed, shared with it."""

    def __init__(
        self,
        service: TableService,
        say: Callable[[Text, str | None], None],
        names: dict[int, str],
        channel: int,
    ) -> None:
        self.service = service
        self.say = say
        self.names = names
        self.channel = channel

    def private(self, name: str, text: Text) -> None:
        self.say(text, f"private to {name}")

    async def run(self, user: str, verb: str, options: dict[str, Any]) -> None:
        c, uid = self.service.community, user_id_for(user)
        page = options.get("page", 1)
        if verb == "history" and "id" in options:
            self.private(user, (await c.finished(EVERY_CHANNEL, SERVER, options["id"]))[0])
        elif verb == "history":
            member = options.get("member")
            who = user_id_for(member) if member else None
            self.private(user, await c.history(EVERY_CHANNEL, SERVER, game=options.get("game"), user_id=who, page=page))
        elif verb == "leaderboard":
            self.private(user, await c.leaderboard(EVERY_CHANNEL, SERVER, options["game"], page))
        elif verb == "profile" and "hidden" in options:
            member = options.get("member")
            self.private(user, await c.set_hidden(uid, options["hidden"], member_id=user_id_for(member) if member else None))
        elif verb == "profile":
            name = options.get("member", user)
            self.private(user, await c.profile(EVERY_CHANNEL, SERVER, user_id_for(name), name))
        elif verb == "mydata":
            self.private(user, json.dumps(await c.mydata(uid), indent=1, ensure_ascii=False))
        elif verb == "forget":
            self.private(user, await c.forget(uid, confirm=options["confirm"]))
        elif verb == "rated":
            self.private(user, await c.set_rated(self.channel, uid, options["rated"]))
            await self.lobby_entry(self.channel)
        else:
            await self._signups(user, uid, verb, options, page)

    async def _signups(self, user: str, uid: int, verb: str, options: dict[str, Any], page: int) -> None:
        """`/community tables|lobby|watch|unwatch`: the console's one table as server 0's."""
        c = self.service.community
        if verb == "tables":
            here = Server(SERVER, None, Reader(uid), channels=(self.channel,))  # the caller sees "You are seated"
            text = await c.directory_of(
                [here], game=options.get("game"), open_seat=options.get("open_seat", False), page=page
            )
            self.private(user, text)
        elif verb == "lobby":  # anyone manages the console's "server"; no channel (or off) stops
            on = options.get("channel", "").lower() not in ("", "off", "none", "no")
            self.private(user, await c.set_lobby(SERVER, LOBBY_CHANNEL if on else None))
            await self.lobby_entry(self.channel)
        else:
            self.private(user, await c.watch(SERVER, uid, options["game"], verb == "watch"))

    async def lobby_entry(self, channel_id: int) -> None:
        """Show the table's entry in the lobby channel as labelled lines, and tell its
        watchers (privately) when it opens."""
        c = self.service.community
        news = await c.lobby_news(channel_id)
        if news is None:
            return
        if news.must_remove():
            self.say("(the entry is removed)", "lobby")
        if news.text:
            self.say(news.text, "lobby")
        for uid in news.tell:
            self.private(self.names.get(uid, "a watcher"), news.notice())
        await c.keep_entry(news, 1 if news.text else None)  # the console's entry has no message of its own
