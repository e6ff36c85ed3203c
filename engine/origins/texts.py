"""Origins of World War I's objectives, attack table and board in words: for the player aid,
the attack menus and `/game card` (docs/architecture.md §2)."""

from __future__ import annotations

import re
from fractions import Fraction

from engine.core import Entry

from . import content
from .state import OriginsState

__all__ = ["HOW_TO", "objective_text", "special_text", "odds", "odds_text", "attack_table_text", "entries"]


def objective_text(o: content.Objective) -> str:
    names = content.names()
    where = names.get(o.location, o.location)
    text = f"{names[o.power]}: treaty rights (10 or more PFs) in {where}'s embassy: {o.points} VP"
    if o.exclusive is not None:
        text += f", or {o.exclusive} VP if no other nation holds treaty rights there (exclusive)"
    return text + "."


def special_text(s: content.Special) -> str:
    names = content.names()
    if s.kind == "nobody_above":
        return (
            f"{names[s.power]}: {s.points} VP if no other nation has more than {s.threshold} VP "
            "(scored last)."
        )
    return (
        f"{names[s.power]}: {s.points} VP if {names[s.enemy]} holds no treaty rights with any major "
        "(player-held) country."
    )


def odds(column: int) -> dict[str, Fraction]:
    """The chance of each result (AE, EX, DE) in one odds column, on 2d6."""
    ways = {total: 6 - abs(total - 7) for total in range(2, 13)}
    out = {"AE": Fraction(0), "EX": Fraction(0), "DE": Fraction(0)}
    for row in content.attack_table().rows:
        out[row.results[column]] += Fraction(ways[row.roll], 36)
    return out


def odds_text(column: int) -> str:
    """'AE 28%, EX 56%, DE 17%' for one column."""
    return ", ".join(f"{k} {round(float(v) * 100)}%" for k, v in odds(column).items())


def attack_table_text() -> str:
    """The Diplomatic Attack Table (§7) as lines, with each column's odds."""
    table = content.attack_table()
    labels = [c.label for c in table.columns]
    lines = ["Roll | " + " | ".join(labels)]
    for row in sorted(table.rows, key=lambda r: r.roll):
        lines.append(f"{row.roll:>4} | " + " | ".join(row.results))
    lines.append("AE: the attacker's PFs in the attack are removed. DE: the defender's are removed.")
    lines.append("EX: the side with fewer PFs removes them all, the other side as many.")
    lines.append("Odds are attacker PFs : defender PFs, rounded in the defender's favour.")
    for i, label in enumerate(labels):
        lines.append(f"{label}: {odds_text(i)}")
    return "\n".join(lines)


def entries() -> list[Entry]:
    """Everything `/game card` can show for Origins: powers, countries, embassies, turns,
    objectives, specials and the attack table (long because it lists each kind in turn)."""
    names = content.names()
    b = content.board()
    out: list[Entry] = []
    for p in b.powers:
        out.append(
            Entry(
                name=p.name,
                kind="Country",
                text=f"{p.name} receives {p.income} PFs each turn (Phase 1).",
                provenance=p.provenance,
            )
        )
    for m in b.minors:
        out.append(
            Entry(
                name=m.name,
                kind="Embassy",
                text=f"{m.name}: an embassy no player holds; treaty rights here need 10 or more PFs.",
                provenance=m.provenance,
            )
        )
    o = content.objectives()
    for x in o.objectives:
        out.append(
            Entry(
                name=f"{names[x.power]} objective: {names.get(x.location, x.location)}",
                kind="National Objective",
                text=objective_text(x),
                provenance=x.provenance,
            )
        )
    for s in o.specials:
        out.append(
            Entry(
                name=f"{names[s.power]} special objective",
                kind="National Objective (special)",
                text=special_text(s),
                provenance=s.provenance,
            )
        )
    table = content.attack_table()
    labels = [c.label for c in table.columns]
    for r in sorted(table.rows, key=lambda r: r.roll):
        cells = ", ".join(f"{label} {res}" for label, res in zip(labels, r.results, strict=True))
        out.append(
            Entry(
                name=f"Attack table roll {r.roll}",
                kind="Diplomatic Attack Table row",
                text=f"A 2d6 roll of {r.roll}: {cells}.",
                provenance=r.provenance,
            )
        )
    for t in b.turns:
        what = ["Phases 1, 3, 4, 5"]
        if t.end_on:
            what.append(f"the game ends after this turn on a die roll of {t.end_on} or less (Phase 2)")
        if t.scoring:
            what.append("provisional VPs and diplomacy (Phase 6)")
        out.append(
            Entry(
                name=f"Turn {t.label}",
                kind="Turn track",
                text=f"{t.label}: " + "; ".join(what) + ".",
                provenance=t.provenance,
            )
        )
    for a in b.assignments:
        groups = "; ".join(" and ".join(names[c] for c in g) for g in a.groups)
        out.append(
            Entry(
                name=f"Countries with {a.players} players"
                + (" (the 4-player Italy option, §9)" if a.reading == "s9" else ""),
                kind="Setup",
                text=f"With {a.players} players the countries are held as: {groups}.",
                provenance=a.provenance,
            )
        )
    return out


def aid(state: OriginsState | None, seat: str | None) -> str:
    """The player aid: every country's National Objectives (shared and exclusive values), the
    specials, and the Diplomatic Attack Table with the chance of each result per column.
    With a table and a seat, that player's countries come first."""
    names = content.names()
    o = content.objectives()
    mine: list[str] = state.countries_of(seat) if state is not None and seat is not None else []
    held = set(state.holders) if state is not None else set(names)
    order = [p.code for p in content.board().powers if p.code in held]
    order.sort(key=lambda c: c not in mine)
    lines = [
        "**Origins of World War I, player aid**",
        "**National Objectives** (§9): treaty rights are 10 or more PFs in another nation's embassy.",
    ]
    for power in order:
        goals = [
            f"{names.get(x.location, x.location)} {x.points}"
            + (f" ({x.exclusive} exclusive)" if x.exclusive is not None else "")
            for x in o.objectives
            if x.power == power
        ]
        specials = [special_text(s) for s in o.specials if s.power == power]
        you = " (yours)" if power in mine else ""
        lines.append(
            f"• {names[power]}{you}: " + ", ".join(goals) + ("; " + " ".join(specials) if specials else "")
        )
    lines.append(
        "Exclusive: no other nation holds treaty rights there. A player holding one country while another holds two doubles their VPs."
    )
    lines.append("**Diplomatic Attack Table** (§7, 2d6)")
    lines.append(attack_table_text())
    return "\n".join(lines)


def explain_pfs(text: str) -> str:
    """`text` with its first PF or PFs said in full once: `political factors (PFs)`."""
    m = re.search(r"\bPFs?\b", text)
    if m is None or "political factor" in text[: m.start()]:
        return text
    one = re.search(r"(?<!\d)1 $", text[: m.start()]) is not None
    return text[: m.start()] + ("political factor (PF)" if one else "political factors (PFs)") + text[m.end() :]


# How a turn of the game goes here, step by step, with the commands that play it: what
# `/game help game:origins` shows above the list of every command (the Game's `how_to`).
HOW_TO = (
    "**Origins of World War I: a month, phase by phase** (October 1913 to the summer of 1914)\n"
    "• Phase 1: each country receives its political factors (PFs) (the bot).\n"
    "• Phase 2, from July 1914: the bot rolls whether this is the last month.\n"
    "• Phase 3, the attack order: `/origins bid card:GER position:1 amount:2` pays PFs to move a "
    "country's card (`payer:` if you hold two), or `/origins pass` (you may bid again later).\n"
    "• Phase 4, secret sheets: `/origins sheet line:SER 5, ROM 3, FE 2, -GER 2` writes one in a "
    "line, or `/origins place embassy:SER amount:5` and `/origins remove embassy:SER amount:2`; "
    "then `/origins submit`. All sheets are revealed together.\n"
    "• Phase 5, attacks in the order of Phase 3: `/origins attack embassy:SER target:RUS` (the odds "
    "and the chance of each result show as you pick the target; `split:GER 4, RUS 3` for two), "
    "then `/origins done`.\n"
    "• Phase 6 (January, March, May, July 1914): provisional VPs, then diplomacy; `/origins ready` "
    "when you are finished.\n"
    "`/game help aid:True` shows the National Objectives and the attack table."
)
