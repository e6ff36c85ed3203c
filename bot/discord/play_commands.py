"""`/<game> <command> <options>`, built from each game's declarative `commands`.

Nothing here names a game: every game in the registry gets one slash-command group whose
subcommands mirror its `engine.core.Command`s. discord.py reads a callback's parameters
from its signature, so each callback gets a generated `__signature__` (one keyword per
option, typed str/int/bool, optional when the option is) and the option names, texts and
autocomplete are attached the way its decorators would.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import discord
from discord import app_commands

from engine.core import Command, Game, Option

from .context import table_channel_id
from .host import host
from .interact import answer_outbox

__all__ = ["build_game_group", "command_name", "MAX_OPTIONS", "MAX_SUBCOMMANDS"]

MAX_OPTIONS = 25  # Discord: options per command
MAX_SUBCOMMANDS = 25  # Discord: subcommands per group
MAX_CHOICES = 25  # Discord: autocomplete choices
DESCRIPTION = 100  # Discord: description length


def command_name(text: str) -> str:
    """A legal Discord name: lowercase letters, digits, - and _, 1 to 32 long."""
    name = re.sub(r"[^\w-]+", "-", text.strip().casefold()).strip("-")[:32]
    return name or "x"


def _description(text: str) -> str:
    text = " ".join(text.split()) or "…"
    return text if len(text) <= DESCRIPTION else text[: DESCRIPTION - 1] + "…"


def _annotation(option: Option) -> Any:
    if option.type == "bool":
        return bool
    if option.type == "int":
        if option.min_value is not None or option.max_value is not None:
            return app_commands.Range[int, option.min_value, option.max_value]
        return int
    return str


def _autocomplete(command: Command, option: Option) -> Any:
    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
        typed = {
            o.name: getattr(interaction.namespace, command_name(o.name), None)
            for o in command.options
            if o.name != option.name
        }
        typed = {k: v for k, v in typed.items() if v is not None}
        channel_id = await table_channel_id(interaction)
        found = await host(interaction).service.suggest(
            channel_id, interaction.user.id, command.name, option.name, typed, current
        )
        choices: list[app_commands.Choice[Any]] = []
        for choice in found:
            value: Any = choice.value[:100]
            if option.type == "int":
                try:
                    value = int(choice.value)
                except ValueError:
                    continue  # Discord rejects a non-number for a number option
            choices.append(app_commands.Choice(name=choice.label[:100] or str(value), value=value))
        return choices[:MAX_CHOICES]

    return suggest


def _build_command(command: Command) -> app_commands.Command[Any, ..., None]:
    options = command.options
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"/{command.name} has {len(options)} options; Discord allows {MAX_OPTIONS}")
    # Python names are generated (o0, o1, …) so any option name works; Discord sees the real ones.
    py_names = {f"o{i}": option for i, option in enumerate(options)}

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        given = {py_names[k].name: v for k, v in values.items() if v is not None}
        channel_id = await table_channel_id(interaction)
        service = host(interaction).service
        await answer_outbox(
            interaction, service.command(channel_id, interaction.user.id, command.name, given)
        )

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for py, option in py_names.items():
        annotation = _annotation(option)
        parameters.append(
            inspect.Parameter(
                py,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=annotation if option.required else annotation | None,
                default=inspect.Parameter.empty if option.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    # discord.py's public decorators, applied to the generated callback
    callback = app_commands.rename(**{py: command_name(o.name) for py, o in py_names.items()})(callback)
    callback = app_commands.describe(**{py: _description(o.description) for py, o in py_names.items()})(
        callback
    )
    suggested = {
        py: _autocomplete(command, o)
        for py, o in py_names.items()
        if o.suggest is not None and o.type != "bool"
    }
    if suggested:
        callback = app_commands.autocomplete(**suggested)(callback)
    return app_commands.Command(
        name=command_name(command.name), description=_description(command.description), callback=callback
    )


def build_game_group(game: Game[Any, Any, Any]) -> app_commands.Group:
    group = app_commands.Group(
        name=command_name(game.group), description=_description(f"Play {game.title}"), guild_only=True
    )
    seen: set[str] = set()
    if len(game.commands) > MAX_SUBCOMMANDS:
        raise ValueError(f"{game.id} has {len(game.commands)} commands; Discord allows {MAX_SUBCOMMANDS}")
    for command in game.commands:
        built = _build_command(command)
        if built.name in seen:
            raise ValueError(f"{game.id}: two commands are both called /{group.name} {built.name}")
        seen.add(built.name)
        group.add_command(built)
    return group
