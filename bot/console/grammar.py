"""What a console line may say: the /game, /community and /diplomacy verbs, the help text, and the
checks that refuse what Discord would refuse. Each command's options are described once,
for both front ends, in bot/service/verbs.py; the games' own commands in their engine."""

from __future__ import annotations

import hashlib
from typing import Any

from ..service import verbs

__all__ = [
    "ConsoleError",
    "GAME_VERBS",
    "HELP",
    "COMMUNITY_VERBS",
    "DIPLOMACY_VERBS",
    "aliases",
    "read_options",
    "read_command_options",
    "line_options",
    "user_id_for",
]


class ConsoleError(Exception):
    """A line the console cannot read."""


def _verbs_of(group: str) -> tuple[str, ...]:
    """The console's verbs of a group, from the one description of every command (those
    only Discord has, such as /game import, left out)."""
    return tuple(
        path.split(" ", 1)[1]
        for path, verb in verbs.VERBS.items()
        if path.startswith(f"{group} ") and verb.where != "discord"
    )


GAME_VERBS = (*_verbs_of("game"), "deadline")  # /game deadline: the console's older /deadline
HELP = """Console lines use the slash commands' grammar: /<command> <option>:<value> (quote a value with spaces).
  as <name> /game …          act as <name>; `as <name>` alone switches who you are
  /game new game:<id> [<option>:<value> …]      e.g. /game new game:crisis1914 congress:no
  /game join [nation:<x>] | /game leave | /game start [seed:<n>] | /game abandon
  /game status | /game me | /game log [page:<n>] | /game mine
  /game rules game:<id> | /game card name:<name> [game:<id>] | /game help [game:<id>] [aid:yes]
  /game settings [<key>:<value> …] | /game pause | /game resume | /game undo | /game publish
  /deadline hours:<h> | /deadline end_now:yes | /deadline nudge:yes   (host; /game deadline … too)
  /game substitute [seat:<x> member:<name>] | /game bot [seat:<x>] [on:no] | /game export [format:json|html] [file:<path>]
  /game notify [mode:dm|mention] [timezone:<zone>] [quiet_hours:22-07] | /game standing [order:<name>] [withdraw:yes]
  /game session [day:<weekday> time:<HH:MM> hours:<h> timezone:<zone>] [remove:yes]
  /<game> <command> <option>:<value> …           e.g. /crisis play card:Conrad belligerence:yes
  /community history|leaderboard|profile|mydata|rated|tables [<option>:<value> …] | /community forget confirm:me
  /community lobby channel:lobby (entries printed as [lobby] lines; no channel: stop) | watch|unwatch game:<id>
  /diplomacy show item:<name> to:<name> [to2:<name>] [to3:<name>]   your hidden thing, shown with the referee's word
  /diplomacy pact text:"<words>" with:<name> [with2: …] [until:<Week 3>] | pact confirm:<n> | decline:<n> | renounce:<n> | /diplomacy pacts
  /diplomacy spectate [stop:yes]                  not seated: watch the table by DM, spectator_delay rounds behind
  /diplomacy review                               after the end: where the automatic player would have chosen otherwise
  wait <minutes> | auto [<n>|all] | help [<game>] | # comment | quit (or Ctrl-C, Ctrl-D)"""

COMMUNITY_VERBS = _verbs_of("community")
DIPLOMACY_VERBS = _verbs_of("diplomacy")


def aliases(game_id: str) -> tuple[str, ...]:
    from engine import games

    try:
        return tuple(a.casefold() for a in games.get(game_id).aliases)
    except Exception:  # noqa: BLE001 - an unknown game simply has no aliases
        return ()


def read_options(path: str, options: dict[str, str]) -> dict[str, Any]:
    """A /game, /deadline or /community line's options, checked and typed as Discord sends them."""
    try:
        return verbs.read(verbs.VERBS[path], options)
    except verbs.OptionError as exc:
        raise ConsoleError(str(exc)) from None


def read_command_options(game_id: str, verb: str, options: dict[str, str]) -> dict[str, Any]:
    """A game command's options, checked and typed from the game's own declaration (an
    unknown game or command is the service's to refuse, so those pass unchecked)."""
    from engine import games

    try:
        game = games.get(game_id)
    except Exception:  # noqa: BLE001 - no such game: the service says so
        return dict(options)
    command = next((c for c in game.commands if c.name == verb), None)
    if command is None:
        return dict(options)
    try:
        return verbs.read(verbs.game_verb(game.group, command), options)
    except verbs.OptionError as exc:
        raise ConsoleError(str(exc)) from None


def user_id_for(name: str) -> int:
    """A stable user id per console name, so a saved console table survives restarts."""
    return int.from_bytes(hashlib.sha256(name.casefold().encode()).digest()[:6], "big")


def line_options(words: list[str]) -> dict[str, str]:
    options = {}
    for word in words:
        name, sep, value = word.partition(":")
        if not sep or not name:
            raise ConsoleError(f"options look like name:value, not {word!r}")
        options[name.lower()] = value
    return options
