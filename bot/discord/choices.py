"""Turn buttons and menus: a player's legal actions under their turn notice (DM) and in
`/game me`, every one at most two taps away (docs/architecture.md §6, front ends).

- Up to five choices: one row of buttons, one tap.
- Up to 25: one select menu, its options grouped by what they do ("Play ▸ Wangenheim
  (3 DP)", "Deliberate ▸ discarding Tisza"), its placeholder naming the groups ("Draw,
  play, deliberate or pass…"). Two taps: open it, choose.
- 26 to 125: up to five select menus side by side, one to a row (`pack`), each of at
  most 25 options, whole groups kept together in one menu where they fit, and each
  placeholder naming what its menu holds ("Pass or move Italy or Russia…", "Move Germany
  or United Kingdom…"). Choosing an option plays it: two taps. A group of more than 25
  is cut in parts; where whole groups would need more menus than the rows left, the
  fewest groups are cut in two ("Move Germany ▸ … 2nd … 9th"). The rows are counted: a
  row of Origins' sheet buttons or `/game me`'s Full status leaves four menus, and a
  decision the rows cannot hold falls back to the groups below.
- More: a menu of groups, each with its count ("Move Russia ▸ 10 choices"); choosing
  one edits the message in place to that group's own select, with a Back button. Four
  taps. A group of more than 25 is listed in parts of 25 ("▸ 25 choices (1 of 7)"); a
  group of one plays at once. Where the groups and their parts are more than 25 a third
  level gathers them in runs of 25 (`arrange`). Only Schönbrunn's Treaty activations at
  four to six players come here (331 to thousands of target combinations).
  tests/discord/test_two_taps.py walks every decision of seeded games of each title at
  two and three players (Schönbrunn: three and four).

Every item is a `DynamicItem` keyed by the channel and the step: it keeps working after a
restart, and every click re-reads the table. An option plays "index:key" (the service's
`act_choice`); a group's option carries its place in the tree and a short hash of its
name, so a group that is no longer there is answered with the current choices. The seat
is always the clicking member's own.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.service.menus import CallerMenu
from bot.service.tables import CHOICE_EXPIRED, ChoiceExpired, TableService, TurnChoice

from .host import host
from .interact import answer_outbox, say, selected
from .sheet_writer import add_sheet_buttons

__all__ = [
    "ActChoice",
    "ActPick",
    "ActMenu",
    "ActBack",
    "Branch",
    "arrange",
    "pack",
    "menu_placeholder",
    "choices_view",
    "branch_view",
    "option_label",
    "own_choices",
    "ACT_ID",
    "PICK_ID",
    "MENU_ID",
    "BACK_ID",
    "MAX_ROWS",
]

ACT_ID = "chan:act:{channel_id}:{step}:{index}:{key}"
PICK_ID = "chan:pick:{channel_id}:{step}:{part}"
MENU_ID = "chan:menu:{channel_id}:{step}:{path}"
BACK_ID = "chan:back:{channel_id}:{step}:{path}"
MAX_BUTTONS = 5  # one row: beyond this a turn's choices go in a select menu
MAX_OPTIONS = 25  # Discord: options per select menu
MAX_ROWS = 5  # Discord: action rows in a message, a select menu taking a whole row
SEP = " ▸ "


# ---------------------------------------------------------------------- the choices' tree


@dataclass(frozen=True)
class Branch:
    """A group of choices (or, at a third level, of groups) behind one menu option."""

    name: str
    entries: tuple[Entry, ...]
    part: str = ""  # "1 of 3", for a group of more than 25 listed in parts

    def count(self) -> int:
        return sum(e.count() if isinstance(e, Branch) else 1 for e in self.entries)

    def tag(self) -> str:
        return hashlib.blake2b(f"{self.name}|{self.part}".encode(), digest_size=3).hexdigest()


Entry = TurnChoice | Branch


def _parts(items: list[Any]) -> list[list[Any]]:
    return [items[i : i + MAX_OPTIONS] for i in range(0, len(items), MAX_OPTIONS)]


def arrange(choices: list[TurnChoice]) -> list[Entry]:
    """The entries of the first menu when a decision has more than 25 choices: a group of
    one is its choice, a larger group a `Branch`, one over 25 in parts. Over 25 entries,
    a third level: runs of 25 entries, named by their first and last."""
    entries: list[Entry] = []
    for members in _gathered(choices):
        name = _group(members[0])
        if len(members) == 1:
            entries.append(members[0])
            continue
        parts = _parts(members)
        for n, part in enumerate(parts, 1):
            entries.append(Branch(name, tuple(part), f"{n} of {len(parts)}" if len(parts) > 1 else ""))
    while len(entries) > MAX_OPTIONS:
        entries = [Branch(f"{_name(run[0])} … {_name(run[-1])}", tuple(run)) for run in _parts(entries)]
    return entries


def _name(entry: Entry) -> str:
    return entry.name if isinstance(entry, Branch) else _full(entry)


def _full(choice: TurnChoice) -> str:
    """The engine's whole label (a button's is cut to 80 characters)."""
    return choice.full or choice.label


def find(entries: list[Entry], path: str) -> Branch | None:
    """The branch at `path` ("3", "3.1"), or None."""
    found: Branch | None = None
    for step in path.split(".") if path else []:
        items = list(found.entries) if found is not None else entries
        if not step.isdigit() or int(step) >= len(items) or not isinstance(items[int(step)], Branch):
            return None
        found = cast(Branch, items[int(step)])
    return found


def _gathered(choices: list[TurnChoice]) -> list[list[TurnChoice]]:
    """The choices by group, each group where its first choice is."""
    groups: dict[str, list[TurnChoice]] = {}
    for c in choices:
        groups.setdefault(_group(c), []).append(c)
    return list(groups.values())


def pack(choices: list[TurnChoice], rows: int = MAX_ROWS) -> list[list[TurnChoice]] | None:
    """The menus side by side of a decision of 26 or more choices, at most `rows` of 25
    options: whole groups together in order, a group of more than 25 cut in even parts,
    and menus breaking where the groups' first word changes if they can ("Assign …" apart
    from "Activate …"). Where whole groups need more menus than `rows`, the fewest groups
    cut in two; None when even menus full to the brim do not fit (over 25 x `rows`)."""
    if len(choices) > MAX_OPTIONS * rows:
        return None
    groups = _gathered(choices)
    units = [part for group in groups for part in _even_parts(group)]

    def verb(unit: list[TurnChoice]) -> str:
        return _group(unit[0]).split(" ")[0]

    def alike(n: int) -> int:  # a menu beginning at units[n] parts it from a group of the same verb
        return int(verb(units[n - 1]) == verb(units[n]) and units[n - 1][0].group != units[n][0].group)

    flat = [[c] for group in groups for c in group]

    def within(n: int) -> int:  # a menu beginning at flat[n] cuts a group in two
        return int(flat[n - 1][0].group == flat[n][0].group)

    return _cheapest(units, alike, rows) or _cheapest(flat, within, rows)


def _even_parts(group: list[TurnChoice]) -> list[list[TurnChoice]]:
    """A group of more than 25 in even parts (35: 18 and 17), so a small one fits beside."""
    n = -(-len(group) // MAX_OPTIONS)
    size = -(-len(group) // n)
    return [group[i : i + size] for i in range(0, len(group), size)]


def _cheapest(units: list[list[TurnChoice]], cost: Callable[[int], int], rows: int) -> list[list[TurnChoice]] | None:
    """`units` in order in at most `rows` menus of 25, where a menu beginning at unit `n`
    costs `cost(n)`: the cheapest, then the fewest menus; None if they do not fit.
    `best[k][n]` is (cost, where the last menu began) for the first `n` units in `k` menus."""
    best: list[dict[int, tuple[int, int]]] = [{0: (0, 0)}]
    for _ in range(rows):
        layer: dict[int, tuple[int, int]] = {}
        for start, (spent, _) in best[-1].items():
            size = 0
            for end in range(start + 1, len(units) + 1):
                size += len(units[end - 1])
                if size > MAX_OPTIONS:
                    break
                found = (spent + (cost(start) if start else 0), start)
                if end not in layer or found[0] < layer[end][0] or (found[0] == layer[end][0] and start > layer[end][1]):
                    layer[end] = found  # alike, the earlier menus the fuller
        best.append(layer)
    done = [k for k in range(1, rows + 1) if len(units) in best[k]]
    if not done:
        return None
    k = min(done, key=lambda k: (best[k][len(units)][0], k))
    menus: list[list[TurnChoice]] = []
    end = len(units)
    for layer in reversed(best[1 : k + 1]):
        start = layer[end][1]
        menus.insert(0, [c for unit in units[start:end] for c in unit])
        end = start
    return menus


# ---------------------------------------------------------------------- words


def item_words(label: str, group: str) -> str:
    """A label without its group's words: ("Play Riezler (2 DP) with Belligerence", "Play
    with Belligerence") → "Riezler (2 DP)"; the whole label when nothing is left."""
    words, rest = label.split(" "), group.split(" ")
    while words and rest and words[0].rstrip(",:").lower() == rest[0].lower():
        words, rest = words[1:], rest[1:]
    text = " ".join(words)
    if rest:
        text = re.sub(rf"(?i)(^|\s){re.escape(' '.join(rest))}(?=$|[\s,:])", "", text)
    text = re.sub(r"\s+", " ", text).strip(" ,:")
    return text or label


def option_label(choice: TurnChoice, grouped: bool) -> str:
    """A menu option's words: "Play ▸ Wangenheim (3 DP)" when `grouped`, else the label."""
    item = item_words(_full(choice), choice.group) if grouped and choice.group else _full(choice)
    return _joined(choice.group, item) if item != _full(choice) else _cut(_full(choice), 100)


def _joined(head: str, tail: str) -> str:
    """ "head ▸ tail" in an option's 100 characters, cutting the head first: the tail is
    what tells the options of one group apart."""
    room = 100 - len(SEP) - len(tail)
    if len(head) <= room:
        return f"{head}{SEP}{tail}"
    return f"{_cut(head, room)}{SEP}{tail}" if room >= 20 else _cut(f"{head}{SEP}{tail}", 100)


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters, cut after a word."""
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _line(text: str | None) -> str | None:
    """A menu option's description: at most Discord's 100 characters, cut after a word."""
    return _cut(text, 100) if text else None


def placeholder(names: list[str]) -> str:
    """What a menu holds, by the groups' first words: "Draw, play, reorganize or pass…";
    a group alone with its first word keeps a name of two ("Keep, Delegation Head or …")."""
    firsts = [n.split(" ")[0] for n in dict.fromkeys(n for n in names if n)]
    verbs = list(dict.fromkeys(_said(n, firsts.count(n.split(" ")[0]) == 1) for n in names if n))
    if not verbs:
        return "Choose your action…"
    said = verbs[0] if len(verbs) == 1 else ", ".join(verbs[:-1]) + " or " + verbs[-1]
    text = said[0].upper() + said[1:] + "…"
    return text if len(text) <= 150 else "Choose what you do…"


def _said(group: str, alone: bool) -> str:
    words = group.split(" ")
    if alone and len(words) > 1 and words[1][:1].isupper():
        return " ".join(words[:2])
    return words[0] if len(words[0]) > 1 and words[0][1].isupper() else words[0][:1].lower() + words[0][1:]


def menu_placeholder(menu: list[TurnChoice], groups: dict[str, list[TurnChoice]]) -> str:
    """What one of the menus side by side holds, by its groups' names, the words they
    share said once: "Pass or move Italy or Russia…", "Assign your 0, 1, 2, 3, 4 or 5…";
    a group cut over two menus (`groups`: each group's choices) with its first and last
    choice there: "Move Germany (Bid 1 PF from France: to 1st … Russia: to 6th)…", or
    where they are too long, their places: "(1 to 18 of 35)"."""
    pieces: list[list[TurnChoice]] = []
    for c in menu:
        if pieces and _group(pieces[-1][0]) == _group(c):
            pieces[-1].append(c)
        else:
            pieces.append([c])
    runs: list[list[str]] = []
    for piece in pieces:
        name, group = _group(piece[0]), groups[_group(piece[0])]
        if len(piece) < len(group):
            runs.append([f"{name} ({_span(piece, group, 140 - len(name))})"])
        elif runs and "(" not in runs[-1][0] and _shared([*runs[-1], name]):
            runs[-1].append(name)
        else:
            runs.append([name])
    said = [_run(run) for run in runs]
    text = _listed([r if n == 0 or r[1:2].isupper() else r[:1].lower() + r[1:] for n, r in enumerate(said)])
    return _cut(f"{text}…", 150)


def _group(choice: TurnChoice) -> str:
    return choice.group or choice.label


def _span(piece: list[TurnChoice], group: list[TurnChoice], room: int) -> str:
    """A group's part by its first and last choice, the words they share said once ("Bid
    1 PF from France: to 1st … Russia: to 6th"), or by their places ("1 to 18 of 35")."""
    first, last = (item_words(_full(c), c.group) for c in (piece[0], piece[-1]))
    a, b = first.split(" "), last.split(" ")
    n = 0
    while n < min(len(a), len(b)) - 1 and a[n] == b[n]:
        n += 1
    said = f"{first} … {' '.join(b[n:])}"
    if len(said) <= room:
        return said
    return f"{group.index(piece[0]) + 1} to {group.index(piece[-1]) + 1} of {len(group)}"


def _shared(names: list[str]) -> int:
    """How many first words all `names` share, leaving each some of its own."""
    split = [n.split(" ") for n in names]
    n = 0
    while all(len(w) > n + 1 for w in split) and len({w[n] for w in split}) == 1:
        n += 1
    return n


def _run(names: list[str]) -> str:
    """ "Move Italy or Russia"; "Plot against Austria's … Prussia's" when listing them all
    is too long."""
    if len(names) == 1:
        return names[0]
    n = _shared(names)
    head, tails = " ".join(names[0].split(" ")[:n]), [" ".join(x.split(" ")[n:]) for x in names]
    said = _listed(tails)
    return f"{head} {said if len(said) <= 100 else f'{tails[0]} … {tails[-1]}'}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


# ---------------------------------------------------------------------- the items


async def _act(
    interaction: discord.Interaction, channel_id: int, step: int, index: int, key: str | None
) -> None:
    """Play the chosen legal action. A choice that is no longer legal for the caller is
    refused with their current options; the service checks seat and turn under its lock.
    Other members' moves do not expire it: the key names the choice."""
    service = host(interaction).service

    async def fresh(exc: BaseException) -> discord.ui.View | None:
        if not isinstance(exc, ChoiceExpired):
            return None
        return await own_choices(service, channel_id, interaction.user.id)

    await answer_outbox(
        interaction, service.act_choice(channel_id, interaction.user.id, step, index, key), on_refusal=fresh
    )


class ActChoice(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # older buttons carry no key: they still work at their own step
    template=r"chan:act:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<index>[0-9]+)(?::(?P<key>[0-9a-f]+))?",
):
    """One legal action of the player who owes, by its index in `legal_actions` at `step`
    and its key (`TableService.choices`). Shown only privately (their ephemeral reply or
    DM): it may name cards in their Hand."""

    def __init__(
        self, channel_id: int, step: int, index: int, label: str = "Act", key: str | None = None
    ) -> None:
        custom_id = ACT_ID.format(channel_id=channel_id, step=step, index=index, key=key)
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.primary,
                custom_id=custom_id if key else custom_id.rsplit(":", 1)[0],
            )
        )
        self.channel_id, self.step, self.index, self.key = channel_id, step, index, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActChoice:
        label = item.label if isinstance(item, discord.ui.Button) else None  # the clicked button's
        return cls(int(match["channel_id"]), int(match["step"]), int(match["index"]), label or "Act", match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _act(interaction, self.channel_id, self.step, self.index, self.key)


class ActPick(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chan:pick:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<part>[0-9]+)",
):
    """One of the menus side by side of a decision of 26 to 125 choices (`part`: its place
    among them): choosing an option plays it. Its value is "index:key" (the index alone in
    older notices)."""

    def __init__(
        self,
        channel_id: int,
        step: int,
        part: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=PICK_ID.format(channel_id=channel_id, step=step, part=part),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…", value="0")],
            )
        )
        self.channel_id, self.step = channel_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActPick:
        return cls(int(match["channel_id"]), int(match["step"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = selected(interaction)
        if value:
            index, _, key = value.partition(":")
            await _act(interaction, self.channel_id, self.step, int(index), key or None)


class ActMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chan:menu:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<path>[0-9.]*)",
):
    """A select of choices and groups at `path` in the tree ("" the first menu). A choice's
    value is "index:key"; a group's "g:path:tag", which shows that group's menu."""

    def __init__(
        self,
        channel_id: int,
        step: int,
        path: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=MENU_ID.format(channel_id=channel_id, step=step, path=path),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…", value="0")],
            )
        )
        self.channel_id, self.step = channel_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActMenu:
        return cls(int(match["channel_id"]), int(match["step"]), match["path"])

    async def callback(self, interaction: discord.Interaction) -> None:
        value = selected(interaction)
        if value.startswith("g:"):
            _, path, tag = value.split(":", 2)
            await _show(interaction, self.channel_id, path, tag)
        elif value:
            index, _, key = value.partition(":")
            await _act(interaction, self.channel_id, self.step, int(index), key or None)


class ActBack(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chan:back:(?P<channel_id>[0-9]+):(?P<step>[0-9]+):(?P<path>[0-9.]*)",
):
    """Back from a group's menu to the menu at `path` (the first, when empty)."""

    def __init__(self, channel_id: int, step: int, path: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label="Back",
                style=discord.ButtonStyle.secondary,
                custom_id=BACK_ID.format(channel_id=channel_id, step=step, path=path),
            )
        )
        self.channel_id, self.path = channel_id, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActBack:
        return cls(int(match["channel_id"]), int(match["step"]), match["path"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _show(interaction, self.channel_id, self.path, None)


async def _show(interaction: discord.Interaction, channel_id: int, path: str, tag: str | None) -> None:
    """Edit the message in place to the menu at `path` of the caller's current choices;
    a group that is gone (`tag` no longer matches) is answered with the current choices."""
    service = host(interaction).service
    try:
        step, choices = await service.turn_menu(channel_id, interaction.user.id)
    except Exception:  # a refusal (not seated) or a gone table: the usual expired answer
        step, choices = 0, []
    branch = find(arrange(choices), path) if len(choices) > MAX_OPTIONS and path else None
    if path and (branch is None or (tag is not None and branch.tag() != tag)):
        await say(interaction, CHOICE_EXPIRED, view=choices_view(channel_id, step, choices))
        return
    kept = _kept(interaction)  # /game me keeps its Full status button, in a row of its own
    view = branch_view(channel_id, step, path, branch) if branch is not None else None
    view = view or choices_view(channel_id, step, choices, MAX_ROWS - (1 if kept else 0))
    for button in kept:
        view = view or discord.ui.View(timeout=None)
        view.add_item(button)
    await interaction.response.edit_message(view=view)


def _kept(interaction: discord.Interaction) -> list[discord.ui.Button[Any]]:
    """The message's Full status button, as it was: its registered item (views.py)
    answers it by its id, as on any message."""
    rows = interaction.message.components if interaction.message is not None else []
    return [
        discord.ui.Button(label=c.label, style=c.style, custom_id=c.custom_id)
        for row in rows
        for c in getattr(row, "children", [])
        if isinstance(c, discord.components.Button) and (c.custom_id or "").startswith("chan:full:")
    ]


# ---------------------------------------------------------------------- the views


def _options(
    entries: list[Entry], path: str, grouped: bool, within: str | None = None
) -> list[discord.SelectOption]:
    """Menu options: a group's shows its count; a choice its words ("group ▸ item" when
    `grouped`; the item alone `within` its own group's menu) and its detail beneath."""
    out = []
    for n, e in enumerate(entries):
        if isinstance(e, Branch):
            where = f"{path}.{n}" if path else str(n)
            label, held = _joined(e.name, f"{e.count()} choices" + (f" ({e.part})" if e.part else "")), _held(e)
            out.append(discord.SelectOption(label=label, value=f"g:{where}:{e.tag()}", description=held))
        else:
            own = within is not None and e.group and within.startswith(e.group)
            label = _cut(item_words(_full(e), e.group), 100) if own else option_label(e, grouped)
            out.append(discord.SelectOption(label=label, value=f"{e.index}:{e.key}", description=_line(e.detail)))
    return out


def _pick_options(menu: list[TurnChoice], groups: dict[str, list[TurnChoice]]) -> list[discord.SelectOption]:
    """The options of one of the menus side by side: "group ▸ item", the item alone when
    the menu holds one group (its placeholder names it), the whole label for a group of one."""
    alone = len({_group(c) for c in menu}) == 1 and len(groups) > 1
    out = []
    for c in menu:
        if len(groups[_group(c)]) == 1 or not c.group:
            label = _cut(_full(c), 100)
        else:
            label = _cut(item_words(_full(c), c.group), 100) if alone else option_label(c, len(groups) > 1)
        out.append(discord.SelectOption(label=label, value=f"{c.index}:{c.key}", description=_line(c.detail)))
    return out


def _held(branch: Branch) -> str | None:
    """Under a group's option, what it holds: "Wangenheim (3 DP) … Conrad (4 DP)"."""
    first, last = branch.entries[0], branch.entries[-1]

    def words(e: Entry) -> str:
        return e.name if isinstance(e, Branch) else item_words(_full(e), e.group)

    return _line(f"{words(first)} … {words(last)}")


def choices_view(
    channel_id: int, step: int, choices: list[TurnChoice], rows: int = MAX_ROWS
) -> discord.ui.View | None:
    """The first view of a decision: buttons for a few choices, one grouped menu for up
    to 25, up to `rows` menus side by side for more, the menu of groups beyond; None for
    none. `rows`: the message's rows left for the choices (the rest hold other buttons)."""
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    if len(choices) <= MAX_BUTTONS:
        for c in choices:
            view.add_item(ActChoice(channel_id, step, c.index, c.label, c.key))
        return view
    names = [_group(c) for c in choices]
    menus = pack(choices, rows) if len(choices) > MAX_OPTIONS else None
    if len(choices) <= MAX_OPTIONS:
        grouped = len(set(names)) > 1
        view.add_item(ActMenu(channel_id, step, "", _options(list(choices), "", grouped), placeholder(names)))
    elif menus is not None:
        groups = {_group(g[0]): g for g in _gathered(choices)}
        for part, menu in enumerate(menus):
            options = _pick_options(menu, groups)
            view.add_item(ActPick(channel_id, step, part, options, menu_placeholder(menu, groups)))
    else:
        view.add_item(ActMenu(channel_id, step, "", _options(arrange(choices), "", False), placeholder(names)))
    return view


def branch_view(channel_id: int, step: int, path: str, branch: Branch) -> discord.ui.View:
    """A group's own menu, its options without the group's words, and Back."""
    view = discord.ui.View(timeout=None)
    options = _options(list(branch.entries), path, False, within=branch.name)
    part = f" ({branch.part})" if branch.part else ""
    view.add_item(ActMenu(channel_id, step, path, options, _cut(f"{branch.name}{part}…", 150)))
    view.add_item(ActBack(channel_id, step, path.rpartition(".")[0]))
    return view


async def own_choices(
    service: TableService, channel_id: int, user_id: int, spare_rows: int = 0, menu: CallerMenu | None = None
) -> discord.ui.View | None:
    """The member's current turn buttons, or None (no seat, nothing owed, or no list),
    leaving `spare_rows` of the message's rows free (`/game me`'s Full status). `menu`: what
    their action's outbox says they may do next (read in the action's lock); without it,
    the table is read."""
    if menu is not None:
        step, choices, sheets_now = menu.step, menu.choices, menu.sheets
    else:
        try:
            step, choices = await service.turn_menu(channel_id, user_id)
        except Exception:  # a refusal (not seated) or a gone table: no buttons, never an error
            return None
        sheets_now = None
    if len(choices) <= MAX_BUTTONS:  # the sheet buttons share the turn buttons' rows
        return await add_sheet_buttons(service, channel_id, user_id, choices_view(channel_id, step, choices), sheets_now)
    # Origins' Phase 4: a "Write Germany's sheet" button per country beside the hand-in,
    # in rows of their own below the menus
    sheets = await add_sheet_buttons(service, channel_id, user_id, discord.ui.View(timeout=None), sheets_now)
    extra = list(sheets.children) if sheets is not None else []
    taken = -(-len(extra) // MAX_BUTTONS)  # rows of five buttons
    view = choices_view(channel_id, step, choices, MAX_ROWS - spare_rows - taken)
    if view is not None:
        for item in extra:
            view.add_item(item)
    return view
