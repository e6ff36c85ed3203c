"""The slash commands Discord is given have exactly the options described once for both
front ends (bot/service/verbs.py): the names, types, required flags, ranges and choices of
every parameter of every command in the bot's real command tree, so the console's checks
and Discord's can never drift apart."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.discord import create_bot
from bot.service import verbs
from engine import games

from .conftest import BotConfig

pytestmark = pytest.mark.simcord

KIND = {
    "str": discord.AppCommandOptionType.string,
    "int": discord.AppCommandOptionType.integer,
    "bool": discord.AppCommandOptionType.boolean,
    "number": discord.AppCommandOptionType.number,
    "member": discord.AppCommandOptionType.user,
    "channel": discord.AppCommandOptionType.channel,
    "attachment": discord.AppCommandOptionType.attachment,
}


@pytest.fixture
def simcord_bot(service):
    """The bot over the real registry, so every game's group is in the tree too."""
    return create_bot(BotConfig(), service)


def _commands(tree: app_commands.CommandTree) -> dict[str, app_commands.Command]:
    found: dict[str, app_commands.Command] = {}
    todo = list(tree.get_commands())
    while todo:
        node = todo.pop()
        if isinstance(node, app_commands.Group):
            todo.extend(node.commands)
        else:
            found[node.qualified_name] = node
    return found


def _described(path: str) -> verbs.Verb:
    if path in verbs.VERBS:
        return verbs.VERBS[path]
    group, name = path.split(" ", 1)
    game = next(g for g in games.all() if g.commands and g.group == group)
    return verbs.game_verb(group, next(c for c in game.commands if c.name == name))


def _as_discord_declares(command: app_commands.Command) -> dict[str, tuple]:
    return {
        p.display_name: (p.type, p.required, p.min_value, p.max_value, tuple(c.value for c in p.choices))
        for p in command.parameters
    }


def _as_described(verb: verbs.Verb) -> dict[str, tuple]:
    return {o.name: (KIND[o.type], o.required, o.min_value, o.max_value, o.choices) for o in verb.on("discord")}


async def test_every_command_in_the_tree_has_the_options_the_shared_description_gives(simcord_env, simcord_bot):
    tree = _commands(simcord_bot.tree)
    for game in games.all():
        assert not game.commands or any(p.startswith(f"{game.group} ") for p in tree), game.id
    for path, command in sorted(tree.items()):
        assert _as_discord_declares(command) == _as_described(_described(path)), path


async def test_every_described_command_is_in_the_tree_unless_the_console_alone_has_it(simcord_env, simcord_bot):
    tree = _commands(simcord_bot.tree)
    discord_verbs = {path for path, verb in verbs.VERBS.items() if verb.where != "console"}
    assert discord_verbs <= set(tree)
    assert {p for p in tree if p.split(" ")[0] in ("game", "community", "deadline", "diplomacy")} == discord_verbs


def test_a_range_in_the_description_reaches_discord():
    # the description is what Discord is told: an integer page up to Discord's own limit
    from bot.discord.community_commands import CommunityGroup

    history = CommunityGroup().get_command("history")
    page = next(p for p in history.parameters if p.name == "page")
    assert (page.min_value, page.max_value) == (1, verbs.INT_MAX) == (verbs.PAGE.min_value, verbs.PAGE.max_value)
