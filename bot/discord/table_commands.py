"""`/game …`: the verbs every game shares (docs/architecture.md §6), over the table service.

Each verb parses, answers within Discord's 3 seconds (see interact.py) and hands the
service's outbox to delivery. Refusals come back as the service worded them, privately.
"""

from __future__ import annotations

import logging
import shlex

import discord
from discord import app_commands

from bot.render.text import MESSAGE_LIMIT
from bot.service import reference, verbs
from bot.service.settings import Settings
from engine import games

from .context import is_admin, refuse_in_dms, table_channel_id
from .host import host
from .interact import REFUSALS, answer_outbox, answer_private, say
from .long_commands import ANYWHERE, COMMANDS
from .views import log_view

__all__ = ["GameGroup", "parse_options", "SETTING_KEYS", "Page", "GameNumber"]

log = logging.getLogger(__name__)

# The ranges of the options both front ends read from bot/service/verbs.py (its test
# compares every command of the tree with that description).
Page = app_commands.Range[int, verbs.PAGE.min_value, verbs.PAGE.max_value]
GameNumber = app_commands.Range[int, verbs.GAME_NUMBER.min_value, verbs.GAME_NUMBER.max_value]

# Shown while typing `/game settings key:`; the service accepts any key a game's prompts name.
SETTING_KEYS = Settings.KEYS


def parse_options(text: str | None) -> dict[str, str]:
    """`rounds=2 variant="short game"` -> {"rounds": "2", "variant": "short game"}."""
    out: dict[str, str] = {}
    for word in shlex.split(text or ""):
        key, sep, value = word.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"Options are written key=value; {word!r} is not.")
        out[key.strip()] = value.strip()
    return out


async def _game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.casefold()
    return [
        app_commands.Choice(name=g.title[:100], value=g.id)
        for g in games.all()
        if typed in g.id.casefold() or typed in g.title.casefold()
    ][:25]


class GameGroup(app_commands.Group):
    def __init__(self) -> None:
        # Tables live in server channels, but `/game mine` and `/game notify` are about the
        # caller and work in a DM too; Discord sets that per group, so the group allows DMs
        # and `interaction_check` refuses the table verbs there (docs/rulings.md, Discord adapter 12).
        super().__init__(name="game", description="Game tables in this channel: create, join, play, follow")
        for command in COMMANDS:
            self.add_command(command)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return refuse_in_dms(
            interaction,
            ANYWHERE,
            "Tables live in server channels: use this there. `/game mine`, `/game notify`, `/game card` and `/game help` work here.",
        )

    @app_commands.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(
        game="Which game", options="Table options, e.g. congress=no (listed as you type; /game rules)"
    )
    @app_commands.autocomplete(game=_game_choices)
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        try:
            parsed = parse_options(options)
        except ValueError as exc:
            await say(interaction, str(exc))
            return
        work = host(interaction).service.lobby.create(
            interaction.channel_id or 0,  # a command always has its channel (as context.py reads it)
            interaction.guild_id,
            game,
            interaction.user.id,
            interaction.user.display_name,
            parsed,
        )
        await answer_outbox(interaction, work, new_status=True)

    @new.autocomplete("options")
    async def _new_options(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = reference.suggest_options(interaction.namespace.game, current)
        return [app_commands.Choice(name=c.label, value=c.value) for c in found]

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    @app_commands.describe(preference="The nation or role you would like (if the game lets you choose)")
    async def join(self, interaction: discord.Interaction, preference: str | None = None) -> None:
        channel_id = await table_channel_id(interaction)
        work = host(interaction).service.lobby.join(
            channel_id, interaction.user.id, interaction.user.display_name, preference
        )
        await answer_outbox(interaction, work)

    @join.autocomplete("preference")
    async def _preference(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        channel_id = await table_channel_id(interaction)
        found = await host(interaction).service.suggest(
            channel_id, interaction.user.id, "join", "preference", {}, current
        )
        return [app_commands.Choice(name=c.label[:100], value=c.value[:100]) for c in found][:25]

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)
        await answer_outbox(interaction, host(interaction).service.lobby.leave(channel_id, interaction.user.id))

    @app_commands.command(name="start", description="Start the game with the players seated")
    async def start(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)
        await answer_outbox(interaction, host(interaction).service.lobby.start(channel_id, interaction.user.id))

    @app_commands.command(name="status", description="The table's public status")
    async def status(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)
        await answer_private(interaction, host(interaction).service.status(channel_id, interaction.user.id))

    @app_commands.command(name="me", description="Your hand, your orders and what you owe (only you see it)")
    async def me(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)
        service = host(interaction).service
        await answer_private(interaction, service.me(channel_id, interaction.user.id), own_view_of=channel_id)

    @app_commands.command(name="log", description="What has happened at this table, page by page")
    @app_commands.describe(page="Page number, 1 is the most recent")
    async def log(self, interaction: discord.Interaction, page: Page = 1) -> None:
        channel_id = await table_channel_id(interaction)
        try:
            text = await host(interaction).service.history.log(channel_id, page, interaction.user.id)
        except REFUSALS as exc:
            await say(interaction, str(exc))
            return
        await interaction.response.send_message(
            text[:MESSAGE_LIMIT], view=log_view(channel_id, text), ephemeral=True
        )

    @app_commands.command(
        name="rules", description="How a game is refereed here, and which content is reconstructed"
    )
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=_game_choices)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async def text() -> str:
            return host(interaction).service.rules(game)

        await answer_private(interaction, text())

    @app_commands.command(
        name="help", description="How a turn of a game goes here, or its player aid (aid:True)"
    )
    @app_commands.describe(
        game="A game (default: this table's game)",
        aid="Show the game's player aid: tables, tracks and odds, with this table's figures",
    )
    @app_commands.autocomplete(game=_game_choices)
    async def help(
        self, interaction: discord.Interaction, game: str | None = None, aid: bool = False
    ) -> None:
        # /game has room for 25 verbs only, so the player aid is a part of help
        async def text() -> str:
            service = host(interaction).service
            if interaction.guild_id is None:  # a DM: no table, the game's own aid or help
                return (
                    await service.aid(0, interaction.user.id, game or "")
                    if aid
                    else reference.help_text(game)
                )
            channel_id = await table_channel_id(interaction)
            if aid:
                return await service.aid(channel_id, interaction.user.id, game)
            return reference.help_text(game or await _table_game(interaction))

        await answer_private(interaction, text())

    @app_commands.command(
        name="card", description="Read a card, objective, ability or table entry of this table's game"
    )
    @app_commands.describe(
        name="Start typing its name", game="Another game (default: this table's game, or any)"
    )
    @app_commands.autocomplete(game=_game_choices)
    async def card(self, interaction: discord.Interaction, name: str, game: str | None = None) -> None:
        async def text() -> str:
            return reference.lookup(name, game or await _table_game(interaction))

        await answer_private(interaction, text())

    @card.autocomplete("name")
    async def _card_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            game = interaction.namespace.game or await _table_game(interaction)
            found = reference.suggest(current, game)
        except Exception:  # autocomplete must never fail the interaction
            log.exception("card names for %r", current)
            return []
        return [app_commands.Choice(name=c.label, value=c.value) for c in found]

    @app_commands.command(
        name="settings", description="Show the table's settings, or change one (host or Manage Server)"
    )
    @app_commands.describe(key="The setting to change", value="Its new value")
    async def settings(
        self, interaction: discord.Interaction, key: str | None = None, value: str | None = None
    ) -> None:
        if (key is None) != (value is None):
            await say(interaction, "Give both a key and a value to change a setting, or neither to see them.")
            return
        channel_id = await table_channel_id(interaction)
        changes = {key: value} if key is not None and value is not None else {}
        work = host(interaction).service.settings(
            channel_id, interaction.user.id, changes, admin=is_admin(interaction)
        )
        await answer_outbox(interaction, work)

    @settings.autocomplete("key")
    async def _setting_keys(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=k, value=k) for k in SETTING_KEYS if current.casefold() in k][:25]

    @app_commands.command(
        name="abandon", description="End this table without a result (host or Manage Server)"
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)
        work = host(interaction).service.abandon(channel_id, interaction.user.id, admin=is_admin(interaction))
        await answer_outbox(interaction, work)


async def _table_game(interaction: discord.Interaction) -> str | None:
    """The game of the table in this channel, if there is one (outside a server: none)."""
    if interaction.guild_id is None:
        return None
    info = await host(interaction).service.table_info(await table_channel_id(interaction))
    return info.game if info is not None else None
