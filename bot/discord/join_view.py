"""The Join buttons: a seat taken in one tap from wherever a table is offered.

A lobby-channel entry (announcements.py), a watcher's notice and each open table of a
`/community tables` answer carry a Join button for the table it names. The button lives
in another channel than the table's (the lobby channel, a DM, an ephemeral answer), so it
carries the table's channel in its custom id, keeps working after a restart (the bot
registers `JoinTable` and `JoinAs` in `setup_hook`, as views.py's buttons are) and
re-reads the table at every tap.

A tap joins the member at that table, as `/game join` in its channel would, once Discord
says they may open that channel (`context.may_open`, the one rule of who sees what,
docs/rulings.md Platform): a member who could not open it is refused and learns nothing
about it. Where a nation asked for can count at the table (the game lets players choose,
or the host set choose_nations), the tap first offers the nations as buttons in a private
answer, and "Any nation"; otherwise it seats the member at once. Every answer is private
and links the table's channel.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.render.rich import Rich, channel
from bot.service.community import Community, JoinOffer
from bot.service.outbox import Outbox
from bot.service.signups import jump

from .context import may_open
from .host import host
from .interact import answer_outbox, run_refusable, say
from .markup import markup

__all__ = ["JoinTable", "JoinAs", "join_view", "JOIN_ID", "JOIN_AS_ID"]

log = logging.getLogger(__name__)

JOIN_ID = "chan:join:{channel_id}"
JOIN_AS_ID = "chan:joinas:{channel_id}:{nation}"
ANY = ""  # the nation of "Any nation": no preference
MAX_NATIONS = 24  # Discord: 25 buttons a message, one of them "Any nation"
CUSTOM_ID_LIMIT = 100  # Discord: characters in a custom id
CANNOT_OPEN = "You cannot open that table's channel, so you cannot join it from here."


class JoinTable(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"chan:join:(?P<channel_id>[0-9]+)"):
    """Join the table in the channel the button names."""

    def __init__(self, channel_id: int, label: str = "Join") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.success,
                custom_id=JOIN_ID.format(channel_id=channel_id),
            )
        )
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinTable:
        return cls(int(match["channel_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        member = await _member_there(interaction, self.channel_id)
        if member is None:
            await say(interaction, CANNOT_OPEN)
            return
        ok, offer = await run_refusable(interaction, _community(interaction).join_offer(self.channel_id, member.id))
        if not ok:
            return
        where = _where(interaction, offer)
        if offer.seated:
            await say(interaction, f"You are already seated at this table: {where}.")
        elif not offer.open:
            await say(interaction, f"This table has no open seat any more: {where}.")
        elif offer.choose:
            await _offer_nations(interaction, offer, member)
        else:
            await _join(interaction, self.channel_id, member, None)


class JoinAs(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chan:joinas:(?P<channel_id>[0-9]+):(?P<nation>.*)",
):
    """Join the table asking for a nation (its name in the custom id; empty: any nation)."""

    def __init__(self, channel_id: int, nation: str = ANY) -> None:
        super().__init__(
            discord.ui.Button(
                label=(nation or "Any nation")[:80],
                style=discord.ButtonStyle.primary if nation else discord.ButtonStyle.secondary,
                custom_id=JOIN_AS_ID.format(channel_id=channel_id, nation=nation),
            )
        )
        self.channel_id, self.nation = channel_id, nation

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinAs:
        return cls(int(match["channel_id"]), match["nation"])

    async def callback(self, interaction: discord.Interaction) -> None:
        member = await _member_there(interaction, self.channel_id)
        if member is None:
            await say(interaction, CANNOT_OPEN)
            return
        await _join(interaction, self.channel_id, member, self.nation or None)


def join_view(*tables: tuple[int, str]) -> discord.ui.View | None:
    """Join buttons for these tables (channel, label); None for none. Discord shows at most
    25 buttons under a message."""
    if not tables:
        return None
    view = discord.ui.View(timeout=None)
    for channel_id, label in tables[:25]:
        view.add_item(JoinTable(channel_id, label))
    return view


async def _offer_nations(interaction: discord.Interaction, offer: JoinOffer, member: discord.Member) -> None:
    """The nations the member may ask for, one button each, and "Any nation"."""
    service = host(interaction).service
    found = await service.suggest(offer.channel_id, member.id, "join", "preference", {}, "")
    fits = [c.value for c in found if len(JOIN_AS_ID.format(channel_id=offer.channel_id, nation=c.value)) <= CUSTOM_ID_LIMIT]
    view = discord.ui.View(timeout=None)
    for nation in fits[:MAX_NATIONS]:
        view.add_item(JoinAs(offer.channel_id, nation))
    view.add_item(JoinAs(offer.channel_id, ANY))
    await say(
        interaction,
        f"**{offer.title}** in {_where(interaction, offer)}: which nation would you like? "
        "The game settles who gets which when it starts.",
        view=view,
    )


async def _join(
    interaction: discord.Interaction, channel_id: int, member: discord.Member, nation: str | None
) -> None:
    """Seat the member, as /game join in the table's channel would; the answer links it."""
    service = host(interaction).service
    here = interaction.guild_id == member.guild.id

    async def seated() -> Outbox:
        out = await service.lobby.join(channel_id, member.id, member.display_name, nation)
        link = channel(channel_id) if here else jump(member.guild.id, channel_id)
        out.reply = Rich.of(out.reply, " Your table: ", link) if out.reply else Rich.of("Your table: ", link)
        return out

    await answer_outbox(interaction, seated())


async def _member_there(interaction: discord.Interaction, channel_id: int) -> discord.Member | None:
    """The caller as a member of the table's server, if they may open the table's channel
    now; None otherwise (a channel gone, another server, a channel hidden from them)."""
    channel = host(interaction).get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    if not isinstance(guild, discord.Guild):
        return None
    member = interaction.user if isinstance(interaction.user, discord.Member) else None
    if member is None or member.guild.id != guild.id:
        member = guild.get_member(interaction.user.id)
    if member is None:
        try:
            member = await guild.fetch_member(interaction.user.id)
        except discord.HTTPException:
            return None
    return member if may_open(guild, member)(channel_id) else None


def _where(interaction: discord.Interaction, offer: JoinOffer) -> str:
    here = interaction.guild_id == offer.guild_id
    return markup(channel(offer.channel_id)) if here else jump(offer.guild_id, offer.channel_id)


def _community(interaction: discord.Interaction) -> Community:
    return host(interaction).service.community
