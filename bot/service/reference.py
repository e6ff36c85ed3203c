"""What a player may read about a game's content, by name (docs/architecture.md §3): the
text behind `/game card` and the console's `card`, shared by both front ends.

Every entry comes from the game's `entries()` (engine/core/reference.py): its text, where it
comes from, and for a reconstructed entry the one-line note saying how it was designed.
Content is public (a group could read every printed card in the box), so a lookup needs no
seat and reveals nothing about a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import games
from engine.core import Choice, Entry, Game, GameError
from engine.core import content as core_content
from engine.core.names import fold as fold_name

from .errors import TableError

__all__ = [
    "entries",
    "lookup",
    "suggest",
    "render",
    "MAX_LISTED",
    "TableOption",
    "table_options",
    "check_options",
    "options_text",
    "suggest_options",
    "help_text",
]

MAX_LISTED = 10  # names listed when a lookup matches several entries
_cache: dict[tuple[str, object], list[Entry]] = {}


def entries(game: Game) -> list[Entry]:
    """The game's entries, kept per content folder (a group's own files change them)."""
    key = (game.id, core_content.content_dir())
    if key not in _cache:
        _cache[key] = game.entries()
    return _cache[key]


def _fold(text: str) -> str:
    """Case, accents, quotes and hyphens ignored, as in the game commands (engine/core/names.py):
    `szapary` finds Szapáry, `schonbrunn` Schönbrunn, `Kaiser’s` The Kaiser's Blank Cheque."""
    return fold_name(text)


def _games(game: str | None) -> list[Game]:
    if game is None:
        return games.all()
    try:
        return [games.get(game)]
    except GameError as exc:
        raise TableError(str(exc)) from None


def render(game: Game, entry: Entry) -> str:
    """An entry as a player reads it: name, what it is, its text, where it comes from."""
    p = entry.provenance
    if p.kind == "rulebook":
        source = f"From the rulebook ({p.source})."
    elif p.kind == "public":
        source = f"From a public source: {p.source}."
    else:
        note = f": {p.note}" if p.note else "."
        source = f"Reconstructed for Chancellery, not printed in the rulebook{note}"
    return f"**{entry.name}** ({entry.kind}, {game.title})\n{entry.text}\n*{source}*"


def _matches(name: str, game: str | None) -> list[tuple[Game, Entry]]:
    typed = _fold(name)
    every = [(g, e) for g in _games(game) for e in entries(g)]
    exact = [(g, e) for g, e in every if _fold(e.name) == typed]
    if exact:
        return exact
    return [(g, e) for g, e in every if typed in _fold(e.name)]


def lookup(name: str, game: str | None = None) -> str:
    """The text of the entry called `name` in `game` (every game when None). An exact name
    wins; otherwise one entry whose name contains what was typed. The same name in two
    games (Russia) shows both."""
    if not name.strip():
        raise TableError("Name a card, objective or table entry, e.g. /game card name:Conrad.")
    found = _matches(name, game)
    where = games.get(game).title if game else "any game"
    if not found:
        raise TableError(
            f"Nothing in {where} is called “{name.strip()}”. Start typing and pick a name from the list."
        )
    if len({_fold(e.name) for _, e in found}) > 1:
        names = [f"{e.name} ({g.title})" if game is None else e.name for g, e in found]
        more = f", and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
        raise TableError(
            f"Several entries of {where} match “{name.strip()}”: {', '.join(names[:MAX_LISTED])}{more}. "
            "Type more of the name."
        )
    return "\n\n".join(render(g, e) for g, e in found)


def suggest(typed: str, game: str | None = None, limit: int = 25) -> list[Choice]:
    """Names for autocomplete: the one typed exactly first, then those starting with what
    was typed, then the rest that contain it."""
    fold = _fold(typed)
    every = [(g, e) for g in _games(game) for e in entries(g)]
    hits = [(g, e) for g, e in every if fold in _fold(e.name)]
    hits.sort(key=lambda ge: (_fold(ge[1].name) != fold, not _fold(ge[1].name).startswith(fold)))
    out: list[Choice] = []
    for g, e in hits[:limit]:
        label = f"{e.name} — {e.kind}" + ("" if game else f", {g.title}")
        out.append(Choice(label[:100], e.name[:100]))
    return out


# -- table options -------------------------------------------------------------------------------
YES = ("yes", "true", "on")
NO = ("no", "false", "off")


@dataclass(frozen=True)
class TableOption:
    """One option of `/game new`, read from the game's Options model."""

    name: str
    values: tuple[str, ...]  # what may be written after `name=`; () for any
    default: str
    description: str
    section: str  # where the rulebook describes it


def table_options(game: Game) -> list[TableOption]:
    out = []
    for name, field in game.Options.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        is_bool = field.annotation in (bool, "bool")
        default = field.default
        shown = ("yes" if default else "no") if is_bool else str(default)
        out.append(
            TableOption(
                name=name,
                values=("yes", "no") if is_bool else (),
                default=shown,
                description=field.description or "",
                section=str(extra.get("section", "")),
            )
        )
    return out


def _options_list(game: Game) -> str:
    return "; ".join(f"{o.name}={'|'.join(o.values) or '…'} ({o.description})" for o in table_options(game))


def check_options(game: Game, options: dict[str, str]) -> dict[str, str]:
    """`options` as the game's Options model reads them, or a refusal naming the valid ones:
    an unknown name, or a yes/no option given anything else, is never silently ignored."""
    known = {o.name: o for o in table_options(game)}
    out = {}
    for name, value in options.items():
        option = known.get(name.strip().lower())
        if option is None:
            listed = _options_list(game) or "none"
            raise TableError(f"{game.title} has no option “{name}”. Its options: {listed}.")
        word = str(value).strip().lower()
        if option.values == ("yes", "no"):
            if word not in YES + NO:
                raise TableError(f"{option.name} takes yes or no, not “{value}”.")
            word = "true" if word in YES else "false"
        out[option.name] = word
    return out


def options_text(game: Game) -> str:
    """The options of `/game new` for this game, each with its rulebook section."""
    options = table_options(game)
    if not options:
        return f"{game.title} has no table options."
    first = options[0]
    example = f"{first.name}={next((v for v in first.values if v != first.default), first.default)}"
    lines = [f"Options for /game new game:{game.id} options:… (key=value, e.g. {example}):"]
    for o in options:
        values = " or ".join(o.values) or "a value"
        where = f" ({o.section})" if o.section else ""
        lines.append(f"• {o.name}={values}, default {o.default}: {o.description}{where}.")
    return "\n".join(lines)


def suggest_options(game: str | None, typed: str) -> list[Choice]:
    """Autocomplete for `/game new options:`: what was typed, plus one more option, each
    offered with its description."""
    try:
        g = games.get(game) if game else None
    except GameError:
        g = None
    if g is None:
        return []
    words = typed.split()
    partial = "" if not words or typed.endswith(" ") else words.pop()
    done = {w.partition("=")[0].lower() for w in words}
    prefix = " ".join(words) + (" " if words else "")
    out = []
    for o in table_options(g):
        if o.name in done:
            continue
        for value in o.values or (o.default,):
            text = f"{o.name}={value}"
            if not text.startswith(partial.lower()):
                continue
            full = prefix + text
            if len(full) <= 100:
                out.append(Choice(f"{full} — {o.description}"[:100], full))
    return out[:25]


# -- help -----------------------------------------------------------------------------------------
TABLE_HELP = (
    "**How a table works here**\n"
    "1. `/game new game:crisis1914` opens a table in this channel (`options:` as you type; `/game rules`).\n"
    "2. Everyone else `/game join` (`preference:` a nation, where the game lets you choose); "
    "the host `/game start`s.\n"
    "3. The bot tells whoever owes a decision, by DM or mention (`/game notify`), with buttons where the "
    "choices are few; the game's own commands do the rest. Secret orders go only to you.\n"
    "4. `/game me` shows your hand and what you owe, `/game status` the board, `/game log` the history, "
    "`/game help aid:True` the player aid, `/game card name:` any card or table entry, `/game mine` all "
    "your tables.\n"
    "Long games: `/game pause`, `/game resume`, `/game substitute`, `/game bot`, `/game undo`, "
    "`/game settings`, `/game export`, `/game talk`. `/game help game:` explains a game's turn.\n"
    "Diplomacy: `/diplomacy show item: to:` shows one of your hidden cards or sheets to players you name, "
    "checked by the referee; `/diplomacy pact text: with: until:` records a pact (private to its parties "
    "until the end), `/diplomacy pacts` lists yours. Not seated? `/diplomacy spectate` sends you each round "
    "by DM once the table's `spectator_delay` more rounds are over. After the end, `/diplomacy review` shows "
    "you the three decisions where the automatic player, knowing what you knew, would have chosen otherwise.\n"
    "The server: `/community tables` every table you can see, `/community history` finished games, "
    "`/community leaderboard game:` ratings, `/community profile` a member's record, "
    "`/community rated rated:False` before the start for a game that moves no rating, "
    "`/community watch game:` to be told when a table of it opens (`/community unwatch` stops it), "
    "`/community lobby channel:` where new tables are announced (Manage Server)."
)


def help_text(game: str | None = None) -> str:
    """How a table works, or how a turn of one game goes here, with the game's commands."""
    if not game:
        names = ", ".join(f"{g.title} (`game:{g.id}`)" for g in games.all())
        return f"{TABLE_HELP}\nGames: {names}."
    try:
        g = games.get(game)
    except GameError as exc:
        raise TableError(str(exc)) from None
    lines = [g.how_to or f"**{g.title}**"]
    if g.commands:
        lines.append(f"\n**Every /{g.group} command**")
        lines += [f"`/{g.group} {c.name}`: {c.description}" for c in g.commands]
    return "\n".join(lines)
