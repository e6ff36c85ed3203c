"""What a console line may say: the /game verbs and the options each reads, the
/community verbs, the help text, and the checks that refuse what Discord would refuse
(an unknown option, a yes/no option given anything else)."""

from __future__ import annotations

__all__ = [
    "ConsoleError",
    "GAME_VERBS",
    "VERB_OPTIONS",
    "YES_NO",
    "YES",
    "HELP",
    "COMMUNITY_VERBS",
    "aliases",
    "check_verb_options",
    "check_command_options",
    "line_options",
]


class ConsoleError(Exception):
    """A line the console cannot read."""


GAME_VERBS = (
    "new",
    "join",
    "leave",
    "start",
    "status",
    "me",
    "log",
    "rules",
    "card",
    "help",
    "settings",
    "abandon",
    "pause",
    "resume",
    "deadline",
    "substitute",
    "bot",
    "undo",
    "export",
    "publish",
    "notify",
    "standing",
    "session",
    "mine",
)
# The options each /game verb reads: any other is refused, as Discord refuses it.
# `new` and `settings` take the game's options and the table's settings, which the
# service checks by name.
VERB_OPTIONS: dict[str, frozenset[str] | None] = {
    "new": None,
    "settings": None,
    "join": frozenset({"nation", "preference"}),
    "start": frozenset({"seed"}),
    "log": frozenset({"page"}),
    "rules": frozenset({"game"}),
    "card": frozenset({"name", "game"}),
    "help": frozenset({"game", "aid"}),
    "substitute": frozenset({"seat", "member"}),
    "bot": frozenset({"seat", "on", "off"}),
    "export": frozenset({"file", "format"}),
    "notify": frozenset({"mode", "timezone", "quiet_hours"}),
    "standing": frozenset({"order", "withdraw"}),
    "session": frozenset({"day", "time", "hours", "timezone", "remove"}),
    "deadline": frozenset({"hours", "end_now", "nudge"}),
}
YES_NO = {"on", "off", "withdraw", "remove", "aid", "end_now", "nudge"}  # options that are a yes or a no
HELP = """Console lines use the slash commands' grammar: /<command> <option>:<value> (quote a value with spaces).
  as <name> /game …          act as <name>; `as <name>` alone switches who you are
  /game new game:<id> [<option>:<value> …]      e.g. /game new game:crisis1914 congress:no
  /game join [nation:<x>] | /game leave | /game start [seed:<n>] | /game abandon
  /game status | /game me | /game log [page:<n>] | /game mine
  /game rules [game:<id>] | /game card name:<name> [game:<id>] | /game help [game:<id>] [aid:yes]
  /game settings [<key>:<value> …] | /game pause | /game resume | /game undo | /game publish
  /game deadline hours:<h> | /game deadline end_now:yes | /game deadline nudge:yes   (host)
  /game substitute seat:<x> member:<name> | /game bot [seat:<x>] [on:no] | /game export [format:json|html] [file:<path>]
  /game notify [mode:dm|mention] [timezone:<zone>] [quiet_hours:22-07] | /game standing [order:<name>] [withdraw:yes]
  /game session [day:<weekday> time:<HH:MM> hours:<h> timezone:<zone>] [remove:yes]
  /<game> <command> <option>:<value> …           e.g. /crisis play card:Conrad belligerence:yes
  /community history|leaderboard|profile|mydata|forget|rated|tables [<option>:<value> …]
  /community lobby channel:lobby (entries printed as [lobby] lines; no channel: stop) | watch|unwatch game:<id>
  wait <minutes> | auto [<n>|all] | help [<game>] | # comment | quit (or Ctrl-C, Ctrl-D)"""

COMMUNITY_VERBS = (
    "history",
    "leaderboard",
    "profile",
    "mydata",
    "forget",
    "rated",
    "tables",
    "lobby",
    "watch",
    "unwatch",
)


def aliases(game_id: str) -> tuple[str, ...]:
    from engine import games

    try:
        return tuple(a.casefold() for a in games.get(game_id).aliases)
    except Exception:  # noqa: BLE001 - an unknown game simply has no aliases
        return ()


YES = ("yes", "true", "on")


def check_verb_options(verb: str, options: dict[str, str]) -> None:
    """Refuse an option the verb does not read, or a yes/no option given anything else."""
    allowed = VERB_OPTIONS.get(verb, frozenset())
    if allowed is None:
        return
    for name, value in options.items():
        if name not in allowed:
            known = ", ".join(f"{o}:" for o in sorted(allowed)) or "no options"
            raise ConsoleError(f"/game {verb} has no option {name}: (it takes {known})")
        if name in YES_NO and value.lower() not in ("yes", "no", "true", "false", "on", "off"):
            raise ConsoleError(f"{name}: takes yes or no, not {value!r}")


def check_command_options(game_id: str, verb: str, options: dict[str, str]) -> None:
    """A game command's options as Discord declares them: unknown names and yes/no options
    given anything else are refused (an unknown command is the service's to refuse)."""
    from engine import games

    try:
        game = games.get(game_id)
    except Exception:  # noqa: BLE001 - no such game: the service says so
        return
    cmd = next((c for c in game.commands if c.name == verb), None)
    if cmd is None:
        return
    declared = {o.name: o for o in cmd.options}
    for name, value in options.items():
        option = declared.get(name)
        if option is None:
            known = ", ".join(f"{o}:" for o in declared) or "no options"
            raise ConsoleError(f"/{game.group} {verb} has no option {name}: (it takes {known})")
        if option.type == "bool" and value.lower() not in ("yes", "no", "true", "false", "on", "off"):
            raise ConsoleError(f"{name}: takes yes or no, not {value!r}")


def line_options(words: list[str]) -> dict[str, str]:
    options = {}
    for word in words:
        name, sep, value = word.partition(":")
        if not sep or not name:
            raise ConsoleError(f"options look like name:value, not {word!r}")
        options[name.lower()] = value
    return options
