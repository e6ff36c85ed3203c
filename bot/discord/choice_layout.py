"""How a decision's choices are laid out under a turn notice (docs/architecture.md §6, front
ends): which choices share a menu, the tree of groups past 125, and every label and
placeholder's words. Pure: no discord objects; choices.py makes the buttons and select
menus of this layout and answers their taps.

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

A group's option carries its place in the tree and a short hash of its name
(`Branch.tag`), so a group that is no longer there is noticed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from bot.service.tables import TurnChoice

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
    for members in by_group(choices):
        name = group_name(members[0])
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


def by_group(choices: list[TurnChoice]) -> list[list[TurnChoice]]:
    """The choices by group, each group where its first choice is."""
    groups: dict[str, list[TurnChoice]] = {}
    for c in choices:
        groups.setdefault(group_name(c), []).append(c)
    return list(groups.values())


def pack(choices: list[TurnChoice], rows: int = MAX_ROWS) -> list[list[TurnChoice]] | None:
    """The menus side by side of a decision of 26 or more choices, at most `rows` of 25
    options: whole groups together in order, a group of more than 25 cut in even parts,
    and menus breaking where the groups' first word changes if they can ("Assign …" apart
    from "Activate …"). Where whole groups need more menus than `rows`, the fewest groups
    cut in two; None when even menus full to the brim do not fit (over 25 x `rows`)."""
    if len(choices) > MAX_OPTIONS * rows:
        return None
    groups = by_group(choices)
    units = [part for group in groups for part in _even_parts(group)]

    def verb(unit: list[TurnChoice]) -> str:
        return group_name(unit[0]).split(" ")[0]

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
        if pieces and group_name(pieces[-1][0]) == group_name(c):
            pieces[-1].append(c)
        else:
            pieces.append([c])
    runs: list[list[str]] = []
    for piece in pieces:
        name, group = group_name(piece[0]), groups[group_name(piece[0])]
        if len(piece) < len(group):
            runs.append([f"{name} ({_span(piece, group, 140 - len(name))})"])
        elif runs and "(" not in runs[-1][0] and _shared([*runs[-1], name]):
            runs[-1].append(name)
        else:
            runs.append([name])
    said = [_run(run) for run in runs]
    text = _listed([r if n == 0 or r[1:2].isupper() else r[:1].lower() + r[1:] for n, r in enumerate(said)])
    return _cut(f"{text}…", 150)


def group_name(choice: TurnChoice) -> str:
    """The group a choice is listed under: its group, or its label where it has none."""
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


# ---------------------------------------------------------------------- the options


class Option(NamedTuple):
    """A select menu's option in words: its label, what choosing it sends ("index:key" for
    a choice, "g:path:tag" for a group) and the line beneath it."""

    label: str
    value: str
    description: str | None


def menu_options(entries: list[Entry], path: str, grouped: bool, within: str | None = None) -> list[Option]:
    """Menu options: a group's shows its count; a choice its words ("group ▸ item" when
    `grouped`; the item alone `within` its own group's menu) and its detail beneath."""
    out = []
    for n, e in enumerate(entries):
        if isinstance(e, Branch):
            where = f"{path}.{n}" if path else str(n)
            label, held = _joined(e.name, f"{e.count()} choices" + (f" ({e.part})" if e.part else "")), _held(e)
            out.append(Option(label, f"g:{where}:{e.tag()}", held))
        else:
            own = within is not None and e.group and within.startswith(e.group)
            label = _cut(item_words(_full(e), e.group), 100) if own else option_label(e, grouped)
            out.append(Option(label, f"{e.index}:{e.key}", _line(e.detail)))
    return out


def pick_options(menu: list[TurnChoice], groups: dict[str, list[TurnChoice]]) -> list[Option]:
    """The options of one of the menus side by side: "group ▸ item", the item alone when
    the menu holds one group (its placeholder names it), the whole label for a group of one."""
    alone = len({group_name(c) for c in menu}) == 1 and len(groups) > 1
    out = []
    for c in menu:
        if len(groups[group_name(c)]) == 1 or not c.group:
            label = _cut(_full(c), 100)
        else:
            label = _cut(item_words(_full(c), c.group), 100) if alone else option_label(c, len(groups) > 1)
        out.append(Option(label, f"{c.index}:{c.key}", _line(c.detail)))
    return out


def _held(branch: Branch) -> str | None:
    """Under a group's option, what it holds: "Wangenheim (3 DP) … Conrad (4 DP)"."""
    first, last = branch.entries[0], branch.entries[-1]

    def words(e: Entry) -> str:
        return e.name if isinstance(e, Branch) else item_words(_full(e), e.group)

    return _line(f"{words(first)} … {words(last)}")


def branch_placeholder(branch: Branch) -> str:
    """A group's own menu's placeholder: its name, and its part if it has parts."""
    part = f" ({branch.part})" if branch.part else ""
    return _cut(f"{branch.name}{part}…", 150)
