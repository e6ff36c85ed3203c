"""The caller's turn buttons and Origins sheets, from one version of a table (docs/architecture.md
§3 and §6): what `TableService.turn_menu` and `own_sheets` answer, and what an action's
answer carries (`CallerMenu`), worked out in the action's own lock so the front end shows
the caller's next choices without reading the table again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, cast

from engine.origins import content as origins_content
from engine.origins import placement as origins_placement
from engine.origins.state import OriginsState

from ..render import button_labels
from ..store import SeatRow
from .loaded import LoadedTable

__all__ = ["CallerMenu", "NextMenu", "SheetNow", "TurnChoice", "choice_key", "menu_of", "sheets_of", "turn_choices"]


@dataclass(frozen=True)
class TurnChoice:
    """One legal action as turn buttons and menus show it: its index in `legal_actions`,
    its label (`render.button_labels`), its key (`TableService.choices`), its group
    (`Game.action_group`) and the line under it in a menu (`Game.action_detail`)."""

    index: int
    label: str
    key: str
    group: str = ""
    detail: str = ""
    full: str = ""  # the engine's whole label, for a menu's 100 characters


def turn_choices(game: Any, state: Any, seat: str, phase: str) -> list[TurnChoice]:
    """`seat`'s legal actions in the decision `phase` it owes, listed for its turn buttons."""
    legal = game.legal_actions(state, seat)
    full = [game.action_label(state, seat, x) for x in legal]
    return [
        TurnChoice(
            i,
            label,
            choice_key(game, phase, x),
            game.action_group(state, seat, x),
            game.action_detail(state, seat, x),
            whole,
        )
        for i, (label, whole, x) in enumerate(zip(button_labels(full), full, legal, strict=True))
    ]


@dataclass(frozen=True)
class SheetNow:
    """One country's secret placement sheet as its own player writes it (Origins' Phase 4):
    its code and name, the new PFs written per embassy, the PFs still free to write, the
    cap per embassy this turn, the embassies (code -> name) where it may place, its own PFs
    written for elimination, and the most it may eliminate where it has PFs."""

    country: str
    name: str
    written: dict[str, int]
    left: int
    cap: int
    embassies: dict[str, str]
    removed: dict[str, int]
    removable: dict[str, int]


def choice_key(game: Any, phase: str, action: Any) -> str:
    """A short name for one choice in the decision of `phase` (`TableService._choice_key`)."""
    body = phase.encode() + b"|" + game.Action.dump_json(action)
    return hashlib.blake2b(body, digest_size=5).hexdigest()


@dataclass(frozen=True)
class CallerMenu:
    """What the member who acted may do next, as their action left the table: the step,
    their turn choices ([] when they owe nothing) and their sheets still to write."""

    step: int
    choices: list[TurnChoice]
    sheets: list[SheetNow]


@dataclass(frozen=True)
class NextMenu:
    """Where an action's answer reads the caller's `CallerMenu` from: the version of the
    table their action left. A saved version never changes, so it is read only when a front
    end shows the answer's buttons (the console and the benchmarks never do), outside the
    lock, and still as the action left it."""

    table: LoadedTable
    me: SeatRow

    def read(self) -> CallerMenu:
        step, choices = menu_of(self.table, self.me)
        return CallerMenu(step, choices, sheets_of(self.table, self.me))


def menu_of(t: LoadedTable, me: SeatRow) -> tuple[int, list[TurnChoice]]:
    """The step and the turn choices of the member seated at `me`: [] when they owe nothing."""
    step = t.state.step if t.state is not None else 0
    prompt = next((p for p in t.prompts if me.seat is not None and p.seat == me.seat), None)
    if t.state is None or me.seat is None or t.row.status != "running" or prompt is None:
        return step, []
    return step, turn_choices(t.game, t.state, me.seat, prompt.phase)


def sheets_of(t: LoadedTable, me: SeatRow | None) -> list[SheetNow]:
    """The Origins sheets the member seated at `me` may still write (Phase 4, not handed
    in); [] otherwise."""
    if me is None or me.seat is None or t.state is None or t.row.status != "running":
        return []
    state = cast(OriginsState, t.state) if t.game.id == "origins" else None
    if state is None or state.phase != "placement" or me.seat in state.submitted:
        return []
    names, out = origins_content.names(), []
    for c in state.countries_of(me.seat):
        draft = state.drafts.get(c)
        written = {e: n for e, n in (draft.place.items() if draft else ()) if n and e != c}
        home = state.at(c, c) - (draft.remove.get(c, 0) if draft else 0)
        left = state.unplaced.get(c, 0) + home - sum(written.values())
        where = {e: n for e, n in names.items() if e != c}
        removed = {e: n for e, n in (draft.remove.items() if draft else ()) if n}
        most = {e: min(origins_placement.ELIMINATE_CAP, state.at(e, c)) for e in names if state.at(e, c)}
        cap = origins_placement.cap(state)
        out.append(SheetNow(c, names[c], written, left, cap, where, removed, most))
    return out
