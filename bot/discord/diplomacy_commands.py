"""`/diplomacy …`: what players say to each other with the referee's help, over the table
service's `Diplomacy` part (bot/service/diplomacy.py): `show` one's own hidden thing with
the referee's word, `pact` (propose, confirm, decline, renounce) and `pacts`.

Its own group beside `/game`, which already holds the 25 verbs Discord allows a group.
Every verb works in the table's channel and in its threads (a `/game talk` thread too):
`table_channel_id` finds the table. One method per verb; each is a thin parse over the
service, which decides who may do what and words the refusals. A proposed pact reaches
each party by DM with Confirm and Decline buttons (`PactAnswer`, persistent: the button
carries the table, the pact and the answer, and every click asks the service again).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.service import verbs
from bot.service.outbox import Outbox, Post
from bot.service.pacts import PACT_CHARS

from .context import refuse_in_dms, table_channel_id
from .host import host
from .interact import answer_outbox, answer_private
from .markup import markup

__all__ = ["DiplomacyGroup", "PactAnswer", "PACT_ID"]

log = logging.getLogger(__name__)

PACT_ID = "chan:pact:{channel_id}:{number}:{answer}"
NO_DMS = "Diplomacy happens at a table: use /diplomacy in the table's channel or one of its threads."
PactNumber = app_commands.Range[int, 1, verbs.INT_MAX]


def _named(*members: discord.Member | discord.User | None) -> list[tuple[int, str]]:
    return [(m.id, m.display_name) for m in members if m is not None]


class PactAnswer(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chan:pact:(?P<channel_id>[0-9]+):(?P<number>[0-9]+):(?P<answer>yes|no)",
):
    """Confirm or Decline under a proposed pact's DM: the button names the table, the pact
    and the answer, so it answers after a restart; the service checks it is still open."""

    def __init__(self, channel_id: int, number: int, confirm: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="Confirm" if confirm else "Decline",
                style=discord.ButtonStyle.success if confirm else discord.ButtonStyle.secondary,
                custom_id=PACT_ID.format(channel_id=channel_id, number=number, answer="yes" if confirm else "no"),
            )
        )
        self.channel_id, self.number, self.confirm = channel_id, number, confirm

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PactAnswer:
        return cls(int(match["channel_id"]), int(match["number"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        work = host(interaction).service.diplomacy.answer(
            self.channel_id, interaction.user.id, self.number, self.confirm
        )
        await answer_outbox(interaction, work)


def pact_view(channel_id: int, number: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PactAnswer(channel_id, number, True))
    view.add_item(PactAnswer(channel_id, number, False))
    return view


_NUMBER = re.compile(r"/diplomacy pact confirm:(\d+)")


async def _ask(interaction: discord.Interaction, out: Outbox) -> Outbox:
    """Send each party's proposal (posts of kind "pact") by DM with its buttons; a proposal
    that cannot go that way stays in the outbox, for the ordinary delivery (which falls
    back to a mention naming no secret when DMs are closed)."""
    private = getattr(host(interaction).delivery, "private", None)
    bot = host(interaction)
    channel: Any = bot.get_channel(out.channel_id)
    if channel is None and any(p.kind == "pact" for p in out.posts):
        try:
            channel = await bot.fetch_channel(out.channel_id)
        except discord.HTTPException:  # the proposals go the ordinary way, without buttons
            channel = None
    kept: list[Post] = []
    for post in out.posts:
        number = _NUMBER.search(markup(post.text)) if post.kind == "pact" else None
        if number is None or private is None or post.user_id is None or channel is None:
            kept.append(post)
            continue
        try:
            await private.dm(
                channel, post.user_id, post.text, view=pact_view(out.channel_id, int(number[1])), fallback=post.public
            )
        except discord.HTTPException:
            log.warning("could not send a pact's buttons at table %s", out.channel_id, exc_info=True)
            kept.append(post)
    out.posts = kept
    return out


class DiplomacyGroup(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="diplomacy", description="Show your hidden things with the referee's word; pacts on record")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return refuse_in_dms(interaction, frozenset(), NO_DMS)

    @app_commands.command(name="show", description="Show one of your hidden things to players you name (checked by the referee)")
    @app_commands.describe(
        item="What you show (listed as you type: your cards, sheets, screen)",
        to="A seated player",
        to2="Another",
        to3="Another",
    )
    async def show(
        self,
        interaction: discord.Interaction,
        item: str,
        to: discord.Member,
        to2: discord.Member | None = None,
        to3: discord.Member | None = None,
    ) -> None:
        channel_id = await table_channel_id(interaction)
        work = host(interaction).service.diplomacy.show(
            channel_id, interaction.user.id, item, _named(to, to2, to3)
        )
        await answer_outbox(interaction, work)

    @show.autocomplete("item")
    async def _items(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            channel_id = await table_channel_id(interaction)
            found = await host(interaction).service.diplomacy.showable(channel_id, interaction.user.id)
        except Exception:  # autocomplete must never fail the interaction
            log.exception("showable items at a table")  # never what was typed: it may name a secret
            return []
        typed = current.casefold()
        names = dict.fromkeys(s.name for s in found if typed in s.name.casefold())
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names][:25]

    @app_commands.command(name="pact", description="Propose a pact, answer one, or renounce one (private to its parties)")
    @app_commands.rename(with_="with")
    @app_commands.describe(
        text=f"What the pact says (at most {PACT_CHARS} characters)",
        with_="A seated player who is party to it",
        with2="Another",
        with3="Another",
        with4="Another",
        until="When it ends, in the game's words: Week 3, turn 4, round 2",
        confirm="Confirm the pact with this number",
        decline="Decline the pact with this number",
        renounce="End your active pact with this number",
    )
    async def pact(
        self,
        interaction: discord.Interaction,
        text: str | None = None,
        with_: discord.Member | None = None,
        with2: discord.Member | None = None,
        with3: discord.Member | None = None,
        with4: discord.Member | None = None,
        until: str | None = None,
        confirm: PactNumber | None = None,
        decline: PactNumber | None = None,
        renounce: PactNumber | None = None,
    ) -> None:
        channel_id = await table_channel_id(interaction)
        diplomacy = host(interaction).service.diplomacy

        async def work() -> Outbox:
            out = await diplomacy.pact(
                channel_id,
                interaction.user.id,
                text=text,
                parties=_named(with_, with2, with3, with4),
                until=until,
                confirm=confirm,
                decline=decline,
                renounce=renounce,
            )
            return await _ask(interaction, out)  # a proposal's DMs carry their buttons

        await answer_outbox(interaction, work())

    @app_commands.command(name="pacts", description="Your pacts at this table, and what was shown to you (only you see it)")
    async def pacts(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)
        await answer_private(interaction, host(interaction).service.diplomacy.pacts(channel_id, interaction.user.id))

    @app_commands.command(name="spectate", description="Not seated? Watch this table by DM, some rounds behind it")
    @app_commands.describe(stop="Stop watching this table")
    async def spectate(self, interaction: discord.Interaction, stop: bool = False) -> None:
        # asked in the table's channel or thread: the member can open it (docs/rulings.md 47)
        channel_id = await table_channel_id(interaction)
        gallery = host(interaction).service.gallery
        await answer_outbox(interaction, gallery.spectate(channel_id, interaction.user.id, stop=stop))

    @app_commands.command(
        name="review", description="After the end: where the automatic player would have chosen otherwise (only you see it)"
    )
    async def review(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)
        await answer_private(interaction, host(interaction).service.reviews.text(channel_id, interaction.user.id))
