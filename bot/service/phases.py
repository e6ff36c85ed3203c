"""How long a phase runs and which deadlines a table has after a change (docs/architecture.md
§3, "Deadlines"): a phase's kind of step and its length, reminders, what a deadline's expiry
still plays, standing orders in order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import Game, Prompt

from ..store import DeadlineRow
from .sessions import next_session_start, session_end, sessions_of
from .settings import Settings

__all__ = ["DEFAULT_LOOP_CAP", "deadlines_after", "owed_at_expiry", "phase_seconds", "reminder_times", "single_step", "standing_in_order"]


DEFAULT_LOOP_CAP = 200  # default orders applied for one expired phase before we suspect a bug


def single_step(prompts: list[Prompt], phase: str) -> bool:
    """The phase is a step only one player can take (no named length, one seat, not secret)."""
    mine = [p for p in prompts if p.phase == phase]
    return (
        bool(mine)
        and not any(p.deadline_setting for p in mine)
        and len({p.seat for p in mine}) == 1
        and not any(p.simultaneous for p in mine)
    )


def owed_at_expiry(prompts: list[Prompt], phase: str, turns: set[tuple[str, str]]) -> list[Prompt]:
    """What a deadline's expiry still plays the default for: the decisions owed in the expired
    `phase`, and those that go on a turn a default was just given for (`turns`: (seat, turn)
    pairs, `Prompt.turn`): an absent player's missed turn is played to its end at once,
    instead of each of its decisions waiting for a deadline of its own."""
    return [p for p in prompts if p.phase == phase or (p.turn is not None and (p.seat, p.turn) in turns)]


def standing_in_order(game: Game, orders: dict[str, str]) -> list[tuple[str, str]]:
    """A seat's standing orders (name -> scope) in the order the game lists its kinds, so
    that one that writes a draft comes before one that hands it in (Origins `sheet`,
    `hand_in`); the service and the pacing model apply them so."""
    kinds = [o.name for o in game.standing_orders]

    def rank(name: str) -> int:
        word = name.split(" ")[0]
        return kinds.index(word) if word in kinds else len(kinds)

    return sorted(orders.items(), key=lambda kv: rank(kv[0]))


def phase_seconds(
    settings: Settings,
    prompts: list[Prompt],
    phase: str,
    live: bool = False,
    next_session_in: float | None = None,
) -> float:
    """How long the phase `phase` of `prompts` runs, by its kind of step: the length its
    prompts name (diplomacy, a game's own), else simultaneous orders (several seats, or
    secret orders revealed together), else a single-player step; `live`: during a live
    session that lasts at least `session_minutes` more, when a single-player step takes
    `session_minutes` (a step opened in a session's last minutes keeps the usual length, so
    nobody is defaulted for the session ending). Outside a session, a table whose
    single-player steps wait for the next one (`between_sessions` = wait) gives such a step
    until `session_minutes` into the next session, `next_session_in` seconds away."""
    if live and single_step(prompts, phase):
        return settings.session_minutes * 60.0  # the caller checked the session outlasts it
    waits = settings.between_sessions == "wait" and not live
    if waits and next_session_in is not None and single_step(prompts, phase):
        return next_session_in + settings.session_minutes * 60.0
    setting = _setting_of(prompts, phase)
    if setting is not None:
        return settings.seconds_for(setting)
    mine = [p for p in prompts if p.phase == phase]
    together = len({p.seat for p in mine}) > 1 or any(p.simultaneous for p in mine)
    hours = settings.simultaneous_hours if together else settings.single_hours
    return (hours if hours is not None else settings.phase_hours) * 3600.0


def _setting_of(prompts: list[Prompt], phase: str) -> str | None:
    return next((p.deadline_setting for p in prompts if p.phase == phase and p.deadline_setting), None)


def reminder_times(settings: Settings, now: float, due: float) -> list[float]:
    """Reminder times before `due`; a lead time longer than the phase sends none."""
    return sorted({due - h * 3600 for h in settings.reminders_hours if due - h * 3600 > now})


def deadlines_after(
    t: Any, prompts: list[Prompt], now: float
) -> tuple[list[DeadlineRow], list[DeadlineRow], list[DeadlineRow]]:
    """The deadlines of the loaded table `t` after a change that leaves `prompts` owed: a
    phase key seen for the first time gets one; a phase that is gone loses its own.
    Returns (all, opened, closed)."""
    phases = list({p.phase: None for p in prompts})  # in order, each once
    settings = t.settings
    live = False
    next_in = None  # seconds to the next session, for a table whose single steps wait for it
    if "sessions" in t.row.meta:  # a table with live sessions (few): is one running?
        sessions = sessions_of(t.row.meta)
        end = session_end(sessions, now)
        live = end is not None and now + settings.session_minutes * 60 <= end
        if settings.between_sessions == "wait" and not live:
            start = next_session_start(sessions, now)
            next_in = None if start is None else start - now
    if phases == [d.phase for d in t.deadlines] and not live:
        return t.deadlines, [], []  # the same phases as before (most actions): nothing to do
    existing = {d.phase: d for d in t.deadlines}
    rows, opened = [], []
    for phase in phases:
        if phase in existing:
            row = existing[phase]
            soon = now + settings.session_minutes * 60
            if live and row.due_at < soon and single_step(prompts, phase):
                # in a session the short deadline runs from the player's latest decision
                row = replace(row, due_at=soon)
            rows.append(row)
            continue
        due = now + phase_seconds(settings, prompts, phase, live, next_in)
        thread = next((p.thread for p in prompts if p.phase == phase and p.thread), None)
        row = DeadlineRow(t.row.channel_id, phase, now, due, reminder_times(settings, now, due), thread=thread)
        rows.append(row)
        opened.append(row)
    closed = [d for d in t.deadlines if d.phase not in phases]
    return rows, opened, closed
