"""The per-game slash commands are built from each game's declarative `commands`."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.discord import create_bot
from bot.discord.play_commands import MAX_OPTIONS, build_game_group, command_name
from engine import games
from tests import tinygame

from .conftest import BotConfig

pytestmark = pytest.mark.simcord


def _payload(group: app_commands.Group) -> dict:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return group.to_dict(tree)


def test_the_tiny_games_commands_become_a_slash_group():
    payload = _payload(build_game_group(tinygame.GAME))
    assert payload["name"] == "envoys"
    subcommands = {c["name"]: c for c in payload["options"]}
    assert list(subcommands) == ["commit", "press", "yield", "ready", "hand"]
    (value,) = subcommands["commit"]["options"]
    assert value["name"] == "value" and value["description"] == "1, 2 or 3"
    assert value["type"] == discord.AppCommandOptionType.integer.value
    assert value["required"] is True and value["autocomplete"] is True
    assert (value["min_value"], value["max_value"]) == (1, 3)
    assert subcommands["press"].get("options", []) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [("Bid", "bid"), ("Show my hand!", "show-my-hand"), ("x" * 40, "x" * 32), ("Schönbrunn", "schönbrunn")],
)
def test_names_are_made_legal_for_discord(text, name):
    assert command_name(text) == name


def test_every_registered_game_builds_within_discords_limits():
    for game in games.all():
        if not game.commands:
            continue
        payload = _payload(build_game_group(game))
        assert len(payload["description"]) <= 100
        assert len(payload["options"]) <= 25
        for sub in payload["options"]:
            assert 1 <= len(sub["name"]) <= 32 and sub["name"] == sub["name"].lower()
            assert len(sub["description"]) <= 100
            assert len(sub.get("options", [])) <= MAX_OPTIONS
            for option in sub.get("options", []):
                assert 1 <= len(option["name"]) <= 32 and len(option["description"]) <= 100
            required = [o.get("required", False) for o in sub.get("options", [])]
            assert required == sorted(required, reverse=True)  # Discord: required options first


@pytest.fixture
def simcord_bot(service):
    """The bot over the real registry, not the tiny game alone."""
    return create_bot(BotConfig(), service)


async def test_every_registered_game_is_synced_and_offered(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("play")
    alice = guild.add_member(simcord_env.create_user("alice"))
    offered = set(alice.available_commands(channel))
    for game in games.all():
        for command in game.commands:
            assert f"{command_name(game.group)} {command_name(command.name)}" in offered
    assert {"game new", "game join", "game me", "game settings", "game abandon"} <= offered


@pytest.mark.parametrize("game_id", [g.id for g in games.all() if g.commands])
async def test_a_real_game_starts_in_discord_and_tells_everyone_what_they_owe(env, store, service, game_id):
    from bot.discord.private import NOTICE_GRACE

    game = games.get(game_id)
    guild = env.create_guild()
    channel = guild.create_text_channel(game_id)
    players = [guild.add_member(env.create_user(f"p{i}")) for i in range(game.min_players)]
    await players[0].slash(channel, "game new", game=game_id)
    for player in players[1:]:
        await player.slash(channel, "game join")
    started = await players[0].slash(channel, "game start")
    assert started.response.content.startswith("The game has started"), started.response.content
    await env.advance_time(NOTICE_GRACE)

    state = game.load_state((await store.get_table(channel.id)).state)
    owing = {p.seat for p in game.prompts(state)}
    assert owing
    for seat in (await service.table_info(channel.id)).seats:
        if seat.seat in owing and seat.user_id != players[0].id:
            player = next(p for p in players if p.id == seat.user_id)
            assert player.user.dm_channel.history(), f"{seat.name} owes but got no DM"


def test_a_game_with_more_commands_than_discord_allows_is_an_error_not_a_silent_cut():
    from engine.core import Command

    class Crowded(type(tinygame.GAME)):
        id = "crowded"
        commands = tuple(Command(f"c{i}", "x", lambda s, seat, o: None) for i in range(26))

    with pytest.raises(ValueError, match="26 commands"):
        build_game_group(Crowded())
