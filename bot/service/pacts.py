"""Pacts on record: what a pact is, how its `until` is read in the game's words, and what
happens when the table passes it (docs/architecture.md §3, the `Diplomacy` part).

A pact is kept in the table's `meta` under "pacts", a list of plain dicts numbered per
table, saved with the table in the same version-checked transaction as every change. The
meta is in no public output (status, log, public record), so a pact stays private to its
parties while the game runs; after the end `History` puts every pact in the record. A
table saved before pacts existed simply has none. Pacts bind nobody: they are recorded,
confirmed, reminded and renounced, never enforced.

Plain functions over a `LoadedTable`, so that `Play` can end the pacts a step has passed
(`pacts_passed`) without knowing the rest of diplomacy.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core import Period

from ..render import escape
from ..store import TableRow
from .errors import TableError
from .outbox import Outbox, seat_post

if TYPE_CHECKING:
    from .loaded import LoadedTable

__all__ = [
    "PACTS",
    "PACT_CHARS",
    "PRIVACY",
    "STATES",
    "pacts_of",
    "parse_until",
    "pact_line",
    "pacts_passed",
    "parties_text",
]

PACTS = "pacts"  # the table meta's key
PACT_CHARS = 300  # a pact's text, as typed: a sentence or two, never a wall
STATES = ("proposed", "active", "expired", "declined", "renounced")
PRIVACY = "Pacts are private to their parties until the game ends; then they are in the record."
_UNTIL = re.compile(r"^\s*(?:(?P<word>[^\W\d_]+)\s*)?(?P<number>\d{1,4})\s*$")


def pacts_of(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's pacts, oldest first (none on a table saved before pacts existed)."""
    return [dict(p) for p in meta.get(PACTS) or []]


def parse_until(period: Period | None, text: str) -> int:
    """The Week, round or turn `text` names, as the game counts them ("Week 3", "turn 4",
    "3", or a turn's own name such as "January 1914"). Refused, in the game's words, for
    another word, one already past or one beyond the game's last."""
    if period is None:
        raise TableError(
            "The game is in no Week, round or turn now (none has begun, or the game counts none), "
            "so a pact cannot end at one: propose it without until:."
        )
    typed = text.strip()
    example = f"{period.word} {min(period.number + 1, period.last or period.number + 1)}"
    named = [i + 1 for i, name in enumerate(period.names) if name.casefold() == typed.casefold()]
    m = _UNTIL.match(typed)
    if named:
        number = named[0]
    elif m and (m["word"] is None or m["word"].casefold() in period.words):
        number = int(m["number"])
    else:
        shown = escape(typed[:40])
        raise TableError(
            f"'{shown}' is not a {period.word} of this game: write it as `until:{example}`"
            + (" or a turn's own name, such as `until:" + period.names[-1] + "`" if period.names else "")
            + "."
        )
    if number < period.number:
        raise TableError(f"{period.label(number)} is already past: the table is in {period.label()}.")
    if period.last is not None and number > period.last:
        raise TableError(f"The game has no {period.label(number)}: its last is {period.label(period.last)}.")
    return number


def parties_text(t: LoadedTable, seats: list[str], but: str | None = None) -> str:
    """The parties by name and nation ("anna (Austria-Hungary) and boris (Russia)"), leaving out `but`."""
    names = [t.who_as(s) for s in seats if s != but]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def pact_line(t: LoadedTable, pact: dict[str, Any], reader: str | None = None) -> str:
    """One pact as a list shows it: number, state, parties, words, until, who is still to answer."""
    until = f" until the end of {pact['until_label']}" if pact.get("until_label") else ""
    others = parties_text(t, pact["parties"], but=reader)
    state = pact["status"]
    between = f"with {others}" if reader is not None else f"between {others}"
    line = f"**Pact {pact['n']}** ({state}) {between}: “{escape(pact['text'])}”{until}."
    if state == "proposed":
        waiting = [s for s in pact["parties"] if s not in pact["confirmed"]]
        line += f" Waiting for: {parties_text(t, waiting)}."
        if reader in waiting:
            line += f" Answer with /diplomacy pact confirm:{pact['n']} or /diplomacy pact decline:{pact['n']}."
    elif state in ("declined", "renounced") and pact.get("ended"):
        line += f" ({pact['ended']})"
    return line


def pacts_passed(t: LoadedTable, out: Outbox, row: TableRow) -> TableRow:
    """`row` with the active pacts whose `until` the table `t` (as it will be saved) has
    passed marked expired, and their parties reminded privately in `out`; `row` itself when
    none has. The parties are reminded, never held to anything."""
    pacts = pacts_of(row.meta)
    if not pacts or t.state is None:
        return row
    period = t.game.period(t.state)
    if period is None:
        return row
    changed = False
    for pact in pacts:
        if pact["status"] != "active" or pact.get("until") is None or period.number <= pact["until"]:
            continue
        pact["status"], pact["ended"] = "expired", f"expired at the end of {pact['until_label']}"
        changed = True
        for seat in pact["parties"]:
            seat_post(
                t,
                out,
                seat,
                f"**{t.game.title}**: your pact with {parties_text(t, pact['parties'], but=seat)}, "
                f"“{escape(pact['text'])}”, expired at the end of {pact['until_label']}.",
                kind="notice",
                dm=True,
            )
    return replace(row, meta={**row.meta, PACTS: pacts}) if changed else row
