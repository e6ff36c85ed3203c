"""The message lint: what a player reads is written for a person.

`problems(text, commands)` lists what is wrong in one message: a seat id (`s1 has bid`),
a Python repr (`supply [0, 1, 1, 2]`, `{'a': 1}`, `None`), a game id where its slash-command
group belongs (`/crisis1914`), a slash command that does not exist, an internal word for
a decision (`Now is the time for: spend.`), and known grammar slips (`you owes`). The
whole-game tests (console and SimCord) run it over every line a player could read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.service.verbs import VERBS
from engine import games

GAME_COMMANDS = {
    "new", "join", "leave", "start", "status", "me", "log", "rules", "settings", "abandon", "pause",
    "resume", "substitute", "bot", "undo", "export", "import", "publish", "notify", "mine", "talk",
    "card", "help", "aid",
}  # fmt: skip


def prompt_kinds() -> set[str]:
    """The internal names of decisions (`turn`, `sheet`, `receptions`): never shown bare."""
    return {kind for gid in games.ids() for kind in games.get(gid).owed_words}


def known_commands() -> dict[str, set[str]]:
    """Every slash-command group players can type, with its commands."""
    known = {"game": set(GAME_COMMANDS)}
    known["diplomacy"] = {p.split(" ")[1] for p in VERBS if p.startswith("diplomacy ")}
    for gid in games.ids():
        g = games.get(gid)
        known[g.group] = {c.name for c in g.commands}
    return known


_SEAT_ID = re.compile(r"(?<![\w/`.#-])s\d{1,2}(?![\w`])")
_REPRS = [
    (re.compile(r"\[-?\d+(?:, -?\d+)+\]|\[\d+\]|\[\]"), "a Python list"),
    (re.compile(r"\[['\"]|\{['\"]|['\"]: |\(['\"]\w+['\"],"), "a Python repr"),
    (re.compile(r"\bNone\b"), "None"),
    (re.compile(r"<[\w.]+ object at|\b[A-Z]\w+\(\w+="), "an object repr"),
]
_SLASH = re.compile(r"(?:(?<=\s)|(?<=^)|(?<=[`(\"'*]))/([a-z0-9_]+)(?: ([a-z_]+))?", re.MULTILINE)
_GRAMMAR = [
    (re.compile(r"\byou owes\b", re.IGNORECASE), "'you owes'"),
    (re.compile(r"\b\w+ & [^.\n]*\bis ready\b"), "'A & B is ready'"),
    (re.compile(r"\bTime is up and (?:(?! and |, ).)+ still owe\b"), "'<one name> still owe'"),
    (re.compile(r"Now is the time for:"), "an internal word for a decision"),
    (re.compile(r"^Done: \w+\.$", re.MULTILINE), "a confirmation that does not say what was done"),
    (re.compile(r"\b[A-Za-z]+\(s\)"), "a plural left to the reader"),
    (re.compile(r"(?<![\w.])[-−+]0(?![\d.])"), "a signed zero"),
    # one player's two countries ("France & Russia") are a plural subject
    (re.compile(r"\b[A-Z][\w-]*(?: [A-Z][\w-]*)* & [A-Z][\w-]*(?: [A-Z][\w-]*)* (?:passes|has|makes|spends|bids)\b"),
     "'A & B <verb>s'"),
    (re.compile(r"\[(?:[a-z]+(?:, )?)+\]"), "a list in brackets"),
    (re.compile(r"\bPoB\b"), "Schönbrunn's 'PoB' where the Principle of Balance belongs"),
    (re.compile(r"[)\w] Due <t:"), "a deadline run on from the sentence before it"),
    # "1 Receptions": one of a thing is singular ("three -1 markers" name a marker's value;
    # in "Player 1 takes" and "Week 1 scores" the 1 is a name, not a count)
    (re.compile(r"(?<![\d.,/:+−-])(?<!vs )(?<!Player )(?<!Week )(?<!Round )(?<!Turn )\b1 (?!is\b|vs\b|was\b|has\b|goes\b)[A-Za-z]+(?<![su])s\b"), "a plural after 1"),
]


def country_codes() -> re.Pattern[str]:
    """The Origins board's codes (`GER`, `AH`, `SER`, `FE`) as whole words."""
    from engine.origins import content

    codes = "|".join(sorted(content.names(), key=len, reverse=True))
    return re.compile(rf"(?<![\w/-])(?:{codes})(?![\w])")


def problems(text: str, known: dict[str, set[str]] | None = None, *, public: bool = False) -> list[str]:
    """What is wrong with one message a player reads ([] when nothing); `public`: a message
    the whole table reads, where a country is named in full."""
    known = known if known is not None else known_commands()
    found = []
    if public:
        found += [f"a country code {m[0]!r} where its name belongs" for m in country_codes().finditer(text)]
    for m in _SEAT_ID.finditer(text):
        found.append(f"a seat id {m[0]!r}")
    for pattern, what in _REPRS:
        for m in pattern.finditer(text):
            found.append(f"{what} {m[0]!r}")
    kinds = "|".join(sorted(prompt_kinds()))
    for m in re.finditer(rf"\((?:{kinds})\)|\bowes? (?:{kinds})\b(?! \()", text):
        found.append(f"an internal name of a decision {m[0]!r}")
    echoed = re.compile(r"There is no (/\w+ \w+)")  # the refusal quotes what was typed
    text_checked = echoed.sub("", text)
    for m in _SLASH.finditer(text_checked):
        group, sub = m[1], m[2]
        if group not in known:
            if any(group.startswith(g) or g.startswith(group) for g in known) or group in games.ids():
                found.append(f"no such command group /{group}")
            continue
        if sub is not None and sub not in known[group] and group != "game" and not _prose(sub):
            found.append(f"no such command /{group} {sub}")
        if group == "game" and sub is not None and sub not in known["game"] and not _prose(sub):
            found.append(f"no such command /game {sub}")
    for pattern, what in _GRAMMAR:
        for m in pattern.finditer(text):
            found.append(f"{what}: {m[0]!r}")
    for m in _SNAKE.finditer(_CODE.sub("", text)):
        found.append(f"a program identifier {m[0]!r}")
    if "errors.pydantic.dev" in text or re.search(r"\[type=\w+", text):
        found.append("a validation library's raw report")
    return found


# what players type is quoted as code (`/game settings quiet_hours:22-7`), or is a slash
# command with its options (/game settings phase_hours: 24): either may hold a_snake_name
_CODE = re.compile(r"`[^`\n]*`|/[a-z0-9]+(?: [a-z_]+)?(?: [a-z_]+:\S*)*")
_SNAKE = re.compile(r"(?<![\w./:-])[a-z]+_[a-z_]+(?![\w:/-]|\.\w)")


_PROSE = {"to", "and", "or", "for", "with", "in", "at", "on", "the", "is", "a", "commands", "command", "group"}


def _prose(word: str) -> bool:
    return word in _PROSE


def lint(messages: Iterable[str], where: str = "", *, public: bool = False) -> list[str]:
    """Every problem in `messages`, each with the message it was found in (shortened)."""
    known = known_commands()
    out = []
    for text in messages:
        for problem in problems(text, known, public=public):
            out.append(f"{where}{problem} in: {text[:300]!r}")
    return out
