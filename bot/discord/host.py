"""The bot as its command and button handlers see it: a protocol, so they need not import it.

The bot (client.py) builds the command tree, the buttons and the delivery, so it imports
every other module of the adapter; were the handlers to import it back for its type, the
adapter would be one import circle. Instead they ask `host(interaction)` for a `Host`:
the table service, the delivery of what an action produced, a poke that wakes the
deadline ticker, and the two channel lookups. discord.py types `interaction.client` as a
plain `discord.Client`; `host` is the one place that says it is the Chancellery bot.
"""

from __future__ import annotations

from typing import Protocol, cast

import discord
from discord.abc import GuildChannel, PrivateChannel

from bot.service.menus import CallerMenu
from bot.service.outbox import Outbox
from bot.service.tables import TableService

__all__ = ["Host", "Deliverer", "host"]


class Deliverer(Protocol):
    """What a handler asks of the delivery (delivery.Delivery): the caller's own answer,
    the rest of an outbox, and what the caller has now seen."""

    def private_reply(self, outbox: Outbox, caller_id: int) -> str:
        """The caller's ephemeral answer: the service's reply and their private lines."""
        ...

    async def turn_buttons(
        self, channel_id: int, user_id: int, *, full_status: bool = False, menu: CallerMenu | None = None
    ) -> discord.ui.View | None:
        """The member's current turn buttons at the table (and the Full status button), or None;
        from `menu` (an action's outbox) where it is given."""
        ...

    async def deliver(
        self, outbox: Outbox, *, caller_id: int | None = None, new_status: bool = False
    ) -> None:
        """Everything of the outbox not in the caller's answer: status, channel, thread, DMs."""
        ...

    def seen(self, channel_id: int, user_id: int) -> None:
        """The member acted or looked at their view there: their turn notices are moot."""
        ...

    def reopened(self, user_id: int) -> None:
        """The member asked for DMs again: try them next time."""
        ...


class Host(Protocol):
    """What a handler needs from the bot (client.ChancelleryBot)."""

    @property
    def service(self) -> TableService: ...

    @property
    def delivery(self) -> Deliverer: ...

    def poke(self) -> None:
        """Wake the deadline ticker: the action just taken may have set an earlier deadline."""
        ...

    def get_channel(self, id: int, /) -> GuildChannel | discord.Thread | PrivateChannel | None: ...

    async def fetch_channel(self, channel_id: int, /) -> GuildChannel | discord.Thread | PrivateChannel: ...


def host(interaction: discord.Interaction) -> Host:
    """The bot that received this interaction."""
    return cast(Host, interaction.client)
