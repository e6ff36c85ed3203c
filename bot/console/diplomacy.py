"""`/diplomacy …` in the console (bot/service/diplomacy.py): `show`, `pact` and `pacts` at
the console's one table. A member is named as the console names everyone, by the name
typed after `as`; a proposed pact's Confirm and Decline are `/diplomacy pact confirm:<n>`
and `decline:<n>`.

The options arrive checked and typed (bot/service/verbs.py, through grammar.py), as
Discord would send them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..render.rich import Text
from ..service.outbox import Outbox
from ..service.tables import TableService
from .grammar import user_id_for

__all__ = ["DiplomacyLines"]


class DiplomacyLines:
    """The console's /diplomacy verbs. `show(outbox, caller)` prints an answer's outbox as
    the console prints every other; `private(name, text)` a line only that name reads."""

    def __init__(
        self,
        service: TableService,
        show: Callable[[Outbox, str | None], Awaitable[None]],
        private: Callable[[str, Text], None],
        channel: int,
    ) -> None:
        self.service = service
        self.show = show
        self.private = private
        self.channel = channel

    async def run(self, user: str, verb: str, options: dict[str, Any]) -> None:
        d, uid = self.service.diplomacy, user_id_for(user)
        if verb == "show":
            named = _members(options, ("to", "to2", "to3"))
            await self.show(await d.show(self.channel, uid, options["item"], named), user)
        elif verb == "pact":
            out = await d.pact(
                self.channel,
                uid,
                text=options.get("text"),
                parties=_members(options, ("with", "with2", "with3", "with4")),
                until=options.get("until"),
                confirm=options.get("confirm"),
                decline=options.get("decline"),
                renounce=options.get("renounce"),
            )
            await self.show(out, user)
        elif verb == "spectate":  # watch the table some rounds behind (bot/service/gallery.py)
            stop = options.get("stop", False)
            await self.show(await self.service.gallery.spectate(self.channel, uid, stop=stop), user)
        elif verb == "review":  # a finished game's review of the caller's seat (bot/service/reviews.py)
            self.private(user, await self.service.reviews.text(self.channel, uid))
        else:
            self.private(user, await d.pacts(self.channel, uid))


def _members(options: dict[str, Any], names: tuple[str, ...]) -> list[tuple[int, str]]:
    """The members named in these options, as (user id, name), the console's way."""
    return [(user_id_for(options[n]), options[n]) for n in names if options.get(n)]
