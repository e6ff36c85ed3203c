"""Every slash command's options, described once for both front ends (docs/architecture.md §6).

The Discord adapter declares its parameters from these descriptions (their ranges and
choices; tests/discord/test_option_description.py walks the real command tree and
compares it with them), and the console reads each typed `name:value` through `read`, so
it refuses what Discord refuses before our code runs: an option the command does not
take, a value of the wrong type, a number out of range, a yes/no given anything else, a
choice not offered, a required option left out. The games' own commands are declared in
their engine (`engine.core.Command`); `game_verb` describes them the same way.

Nothing here imports a front end: both import this.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from .errors import TableError
from .history import SEED_MAX, SEED_MIN

__all__ = [
    "INT_MAX",
    "INT_MIN",
    "PAGE",
    "GAME_NUMBER",
    "DEADLINE_HOURS",
    "Opt",
    "Verb",
    "VERBS",
    "OptionError",
    "game_verb",
    "read",
    "one_deadline_tool",
]

# Discord's own limit for an integer option: a JSON number it can hold exactly.
INT_MAX = 2**53 - 1
INT_MIN = -INT_MAX

Kind = Literal["str", "int", "bool", "number", "member", "channel", "attachment"]
Where = Literal["both", "discord", "console"]
YES = ("yes", "true", "on")
NO = ("no", "false", "off")


class OptionError(ValueError):
    """A typed option that Discord would have refused; its text is for the person who typed it."""


@dataclass(frozen=True)
class Opt:
    """One option of a command. `where`: both front ends, or only one (the console's own
    extras, such as a fixed seed, and Discord's, such as an attachment)."""

    name: str
    type: Kind = "str"
    required: bool = False
    min_value: float | None = None
    max_value: float | None = None
    choices: tuple[str, ...] = ()
    where: Where = "both"

    def bounds(self) -> tuple[float, float]:
        """The range a value must be in: the declared one, within Discord's own limit."""
        low = self.min_value if self.min_value is not None else (INT_MIN if self.type == "int" else -math.inf)
        high = self.max_value if self.max_value is not None else (INT_MAX if self.type == "int" else math.inf)
        return low, high


@dataclass(frozen=True)
class Verb:
    """A command: `path` as typed after the slash ("game log", "deadline"). `free`: the
    console also passes any other name:value on, for the service to check by name (a
    game's table options, the table's settings)."""

    path: str
    options: tuple[Opt, ...] = ()
    where: Where = "both"
    free: bool = False

    def on(self, front: Where) -> tuple[Opt, ...]:
        return tuple(o for o in self.options if o.where in ("both", front))


PAGE = Opt("page", "int", min_value=1, max_value=INT_MAX)
GAME_NUMBER = Opt("id", "int", min_value=1, max_value=INT_MAX)  # a finished game's number
DEADLINE_HOURS = Opt("hours", "number", min_value=0.25, max_value=720.0)
GAME = Opt("game")
SEAT = Opt("seat")
TIMEZONE = Opt("timezone")


def _verbs(*verbs: Verb) -> dict[str, Verb]:
    return {v.path: v for v in verbs}


VERBS: dict[str, Verb] = _verbs(
    # /game
    Verb("game new", (Opt("game", required=True), Opt("options", where="discord")), free=True),
    Verb("game join", (Opt("preference"), Opt("nation", where="console"))),  # nation: the console's older name
    Verb("game leave"),
    Verb("game start", (Opt("seed", "int", min_value=SEED_MIN, max_value=SEED_MAX, where="console"),)),
    Verb("game status"),
    Verb("game me"),
    Verb("game log", (PAGE,)),
    Verb("game rules", (Opt("game", required=True),)),
    Verb("game help", (GAME, Opt("aid", "bool"))),
    Verb("game card", (Opt("name", required=True), GAME)),
    Verb("game settings", (Opt("key", where="discord"), Opt("value", where="discord")), free=True),
    Verb("game abandon"),
    Verb("game pause"),
    Verb("game resume"),
    Verb("game substitute", (Opt("member", "member"), SEAT)),
    Verb("game bot", (Opt("on", "bool"), SEAT, Opt("off", "bool", where="console"))),  # off: the older form
    Verb("game undo"),
    Verb("game export", (Opt("format", choices=("json", "html")), Opt("file", where="console"))),
    Verb("game import", (Opt("record", "attachment", required=True),), where="discord"),
    Verb("game publish"),
    Verb("game notify", (Opt("mode", choices=("dm", "mention")), TIMEZONE, Opt("quiet_hours"), Opt("digest"))),
    Verb("game standing", (Opt("order"), Opt("withdraw", "bool"))),
    Verb(
        "game session",
        (Opt("day"), Opt("time"), Opt("hours", "number"), TIMEZONE, Opt("remove", "bool")),
    ),
    Verb("game mine"),
    Verb(
        "game talk",
        (Opt("player1", "member", required=True), *(Opt(f"player{n}", "member") for n in (2, 3, 4))),
        where="discord",
    ),
    # /deadline: the host's tools, a command of its own (the /game group is full)
    Verb("deadline", (DEADLINE_HOURS, Opt("end_now", "bool"), Opt("nudge", "bool"))),
    # /diplomacy: showing with the referee's word, and pacts on record (its own group: /game is full)
    Verb(
        "diplomacy show",
        (Opt("item", required=True), Opt("to", "member", required=True), Opt("to2", "member"), Opt("to3", "member")),
    ),
    Verb(
        "diplomacy pact",
        (
            Opt("text"),
            Opt("with", "member"),
            *(Opt(f"with{n}", "member") for n in (2, 3, 4)),
            Opt("until"),
            *(Opt(name, "int", min_value=1, max_value=INT_MAX) for name in ("confirm", "decline", "renounce")),
        ),
    ),
    Verb("diplomacy pacts"),
    Verb("diplomacy spectate", (Opt("stop", "bool"),)),  # watch a table some rounds behind (gallery.py)
    Verb("diplomacy review"),  # after the end: where the automatic player would have chosen otherwise (reviews.py)
    # /community
    Verb("community history", (GAME, Opt("member", "member"), PAGE, GAME_NUMBER)),
    Verb("community leaderboard", (Opt("game", required=True), PAGE)),
    Verb("community profile", (Opt("member", "member"), Opt("hidden", "bool"))),
    Verb("community mydata"),
    Verb("community forget", (Opt("confirm", required=True),)),
    Verb("community tables", (GAME, Opt("open_seat", "bool"), PAGE)),
    Verb("community rated", (Opt("rated", "bool", required=True),)),
    Verb("community lobby", (Opt("channel", "channel"),)),
    Verb("community watch", (Opt("game", required=True),)),
    Verb("community unwatch", (Opt("game", required=True),)),
)


def game_verb(group: str, command: Any) -> Verb:
    """A game's own command (`engine.core.Command`), described like the others."""
    options = tuple(
        Opt(o.name, o.type, o.required, o.min_value, o.max_value) for o in command.options
    )
    return Verb(f"{group} {command.name}", options)


def one_deadline_tool(hours: float | None, end_now: bool, nudge: bool) -> None:
    """/deadline does one thing at a time: refused, in Discord's words, unless exactly one is given."""
    if sum((hours is not None, end_now, nudge)) != 1:
        raise TableError("Give exactly one of hours:, end_now:True or nudge:True.")


def substitute_asked(member: bool, seat: bool) -> bool:
    """/game substitute: True to hand `seat` to `member` (the host), False to ask for a
    substitute for oneself (no options); refused, in Discord's words, for one without the other."""
    if seat and not member:
        raise TableError("Name the member who takes the seat over, or give no options to ask for a substitute yourself.")
    if member and not seat:
        raise TableError("Choose the seat to hand over.")
    return member


def read(verb: Verb, given: dict[str, str], front: Where = "console") -> dict[str, Any]:
    """The typed options, checked as Discord checks them and turned into the values Discord
    would send (an int, a float, a bool, one of the choices); an empty value is left out.
    Raises OptionError, in words, for anything Discord would refuse."""
    declared = {o.name: o for o in verb.on(front)}
    values: dict[str, Any] = {}
    for name, text in given.items():
        option = declared.get(name)
        if option is None and verb.free:
            values[name] = text  # the service checks these by name
        elif option is None:
            known = ", ".join(f"{o}:" for o in sorted(declared)) or "no options"
            raise OptionError(f"/{verb.path} has no option {name}: (it takes {known})")
        elif text.strip():
            values[name] = value_of(option, text)
    for option in declared.values():
        if option.required and option.name not in values:
            wanted = _wanted(option)
            raise OptionError(f"/{verb.path} needs {option.name}:" + (f" ({wanted})" if wanted else ""))
    return values


def value_of(option: Opt, text: str) -> Any:
    """One typed value as its option's type, or OptionError saying what the option takes."""
    text = text.strip()
    if option.choices:
        found = next((c for c in option.choices if c.casefold() == text.casefold()), None)
        if found is None:
            raise _refused(option, text)
        return found
    if option.type == "bool":
        if text.casefold() not in YES + NO:
            raise _refused(option, text)
        return text.casefold() in YES
    if option.type == "int":
        return _number(option, text, _whole(text))
    if option.type == "number":
        try:
            number = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            number = math.nan
        return _number(option, text, number if math.isfinite(number) else None)
    return text  # str, and the console's names for a member or a channel


def _whole(text: str) -> int | None:
    digits = text[1:] if text[:1] in "+-" else text
    # ASCII digits only (int() also reads "²" and "٣"), and no more than any limit needs
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 19:
        return None
    return int(text)


def _number(option: Opt, text: str, number: float | None) -> Any:
    low, high = option.bounds()
    if number is None or not low <= number <= high:
        raise _refused(option, text)
    return number


def _refused(option: Opt, text: str) -> OptionError:
    shown = text if len(text) <= 24 else text[:24] + "…"
    return OptionError(f"{option.name}: takes {_wanted(option)}, not {shown!r}")


def _wanted(option: Opt) -> str:
    """What an option takes, in words: 'yes or no', 'json or html', 'a whole number from 1 to …'."""
    if option.choices:
        return _either(option.choices)
    if option.type == "bool":
        return "yes or no"
    if option.type in ("int", "number"):
        what = "a whole number" if option.type == "int" else "a number"
        low, high = option.bounds()
        if math.isinf(low) and math.isinf(high):
            return what
        if math.isinf(high):
            return f"{what} of at least {_figure(low)}"
        if math.isinf(low):
            return f"{what} of at most {_figure(high)}"
        return f"{what} from {_figure(low)} to {_figure(high)}"
    return {"member": "a member's name", "channel": "a channel"}.get(option.type, "")


def _either(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _figure(value: float) -> str:
    return f"{value:,}" if float(value).is_integer() and abs(value) >= 10_000 else f"{value:g}"
