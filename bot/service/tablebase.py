"""What the table service and its parts share: refusals, settings, how long a phase runs
and which deadlines a table has after a change.

Plain values and functions only: no part of the service keeps state here. A loaded table
and the access to it are bot/service/loaded.py's.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import Game, Prompt

from ..render.text import escape
from ..store import DeadlineRow
from .errors import TableError
from .sessions import next_session_start, session_end, sessions_of

NO_TABLE = "There is no table in this channel."
NOT_SEATED = "You are not seated at this table."
NOT_THIS_PHASE = "That is not possible in this phase."
PAUSED = "The game is paused."
OVER = "The game is over."
NOT_STARTED = "The game has not started yet."
LOG_PAGE = 15
RULES_NAMES_CHARS = 1200
AUTO_CAP = 5000  # automatic moves in one call chain (a table of automatic seats plays a whole game)
# Tables kept loaded per process (`table_cache`): 20-60 KB each (a 7-player Origins state
# to a 6-player Schönbrunn one), so 2,048 is about 120 MB at most. Past it, tables acting
# in turn miss every time: bench/scale.py at 600 tables, 256 then, cut PostgreSQL 395 ->
# 116 actions/s and SQLite 789 -> 388.
CACHE_SIZE = 2048
MAX_HOURS = 24 * 365  # the longest phase or reminder lead a setting takes: a year
MAX_SPECTATOR_DELAY = 5  # whole rounds
DEFAULT_LOOP_CAP = 200  # default orders applied for one expired phase before we suspect a bug
# Said publicly when the game's own code fails: its message may name hidden facts (a card
# in a Hand), so it goes only to the log, where bot/process/logsafe.py withholds it too.
ENGINE_FAILED = "an error in the game's program; the details are in the bot's log"


# The tables saved during one front-end call, so that an apology for a failure can say
# truthfully whether the table changed, and during one of the service's own calls
# (`TableAccess.with_table`). Blocks nest: each collects its own.
_SAVED: ContextVar[tuple[set[int], ...]] = ContextVar("chancellery_saved", default=())


@contextmanager
def track_saves() -> Iterator[set[int]]:
    """Collect the channels whose table is saved by work started inside the block (a
    task copies the context when it is created, so the set follows it)."""
    saved: set[int] = set()
    token = _SAVED.set((*_SAVED.get(), saved))
    try:
        yield saved
    finally:
        _SAVED.reset(token)


def note_saved(channel_id: int) -> None:
    for saved in _SAVED.get():
        saved.add(channel_id)


# -- settings ------------------------------------------------------------------------------


class Settings(BaseModel):
    """Per-table deadline settings, stored as JSON with the table. A key that is not a
    setting is an error (extra="forbid"): a typo in `/game settings` is refused, never
    stored. A game names its own phase lengths in `Game.deadline_settings`."""

    model_config = ConfigDict(extra="forbid")

    phase_hours: float = Field(default=24.0, gt=0, le=MAX_HOURS)
    reminders_hours: list[Annotated[float, Field(gt=0)]] = Field(default_factory=lambda: [12.0, 1.0])
    on_expiry: Literal["default", "extend", "pause", "autopilot"] = "default"
    diplomacy_minutes: float = Field(default=1440.0, gt=0, le=MAX_HOURS * 60)
    # each kind of step has its own length; None: phase_hours. The
    # defaults are phase_hours' 24 h, chosen from `python -m bot pacing` (docs/pacing.md):
    # shorter single-player deadlines give many more default orders.
    single_hours: float | None = Field(default=None, gt=0, le=MAX_HOURS)
    simultaneous_hours: float | None = Field(default=None, gt=0, le=MAX_HOURS)
    # during a live session (bot/service/sessions.py) a single-player step is due this soon
    session_minutes: float = Field(default=15.0, gt=0, le=MAX_HOURS * 60)
    # between live sessions a single-player step goes on with its usual deadline ("continue")
    # or waits for the next session ("wait"): it is due session_minutes into it
    between_sessions: Literal["continue", "wait"] = "continue"
    # after an outage, give running deadlines the downtime back ("extend") or not ("ignore")
    on_outage: Literal["extend", "ignore"] = "extend"
    # open a public diplomacy thread each Week / round (Game.round_label)
    round_threads: bool = False
    # who plays the automatic seats (bot/service/automatic.py): the game's search or its basic player
    automatic_player: Literal["strong", "quick", "basic"] = "strong"
    # how many whole rounds behind the table a spectator follows it (bot/service/gallery.py)
    spectator_delay: int = Field(default=1, ge=0, le=MAX_SPECTATOR_DELAY)
    # the game's own phase lengths (Game.deadline_settings), e.g. {"crisis_minutes": 30}
    extra: dict[str, Annotated[float, Field(gt=0)]] = Field(default_factory=dict)

    KEYS: ClassVar[tuple[str, ...]] = (
        "phase_hours",
        "reminders_hours",
        "on_expiry",
        "diplomacy_minutes",
        "on_outage",
        "round_threads",
        "single_hours",
        "simultaneous_hours",
        "session_minutes",
        "between_sessions",
        "automatic_player",
        "spectator_delay",
    )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """The settings stored with a table (or a configuration's defaults). Lenient with
        what older versions stored: a length under an unknown name is kept in `extra`, so
        a table saved before settings were checked still loads."""
        known = {k: data[k] for k in cls.KEYS if k in data}
        extra = {k: float(v) for k, v in data.items() if k not in cls.KEYS and _is_length(k)}
        extra.update(data.get("extra", {}))
        return cls.model_validate({**known, "extra": extra})

    def to_json(self) -> dict[str, Any]:
        return self.model_dump()

    def seconds_for(self, setting: str | None) -> float:
        """The length of a phase whose prompts name `setting` (None: phase_hours)."""
        if setting is not None:
            value = getattr(self, setting, None) if setting in self.KEYS else self.extra.get(setting)
            if isinstance(value, int | float):
                return value * (60.0 if setting.endswith("_minutes") else 3600.0)
        return self.phase_hours * 3600.0

    def changed(self, key: str, text: str, game_keys: tuple[str, ...] = ()) -> Settings:
        """A copy with `key` set from typed `text`; TableError saying what is allowed.
        `game_keys` are the phase lengths the table's game names (Game.deadline_settings)."""
        key = key.strip().lower()
        text = str(text).strip()
        data = self.model_dump()
        if key == "on_expiry":
            if text not in ("default", "extend", "pause", "autopilot"):
                raise TableError("on_expiry must be default, extend, pause or autopilot.")
            data[key] = text
        elif key == "between_sessions":
            if text.lower() not in ("continue", "wait"):
                raise TableError(
                    "between_sessions must be continue (a step only one player can take goes on "
                    "between live sessions) or wait (it waits for the next session)."
                )
            data[key] = text.lower()
        elif key == "on_outage":
            if text not in ("extend", "ignore"):
                raise TableError("on_outage must be extend or ignore.")
            data[key] = text
        elif key == "automatic_player":
            if text.lower() not in ("strong", "quick", "basic"):
                raise TableError(
                    "automatic_player must be strong (the default: it searches, up to about a second a "
                    "decision), quick (a shorter search) or basic (instant, and easy to beat)."
                )
            data[key] = text.lower()
        elif key == "spectator_delay":
            if text not in {str(n) for n in range(MAX_SPECTATOR_DELAY + 1)}:
                raise TableError(
                    f"`spectator_delay` is a whole number of rounds from 0 to {MAX_SPECTATOR_DELAY}: how many "
                    "finished rounds are held back from spectators (/diplomacy spectate), besides the round in play."
                )
            data[key] = int(text)
        elif key == "round_threads":
            if text.lower() not in ("on", "off", "true", "false", "yes", "no"):
                raise TableError("round_threads must be on or off.")
            data[key] = text.lower() in ("on", "true", "yes")
        elif key == "reminders_hours":
            words = [] if text.lower() in ("none", "off", "") else text.replace(" ", ",").split(",")
            try:
                hours = [_number(h) for h in words if h]
            except ValueError:
                raise TableError(
                    "reminders_hours takes hours before the deadline, e.g. 12,1 (or none)."
                ) from None
            if any(h <= 0 for h in hours):
                raise TableError("Reminder lead times must be more than 0 hours.")
            if any(h > MAX_HOURS for h in hours):
                raise TableError(f"Reminder lead times can be at most {MAX_HOURS:,} hours (a year).")
            data[key] = sorted(set(hours), reverse=True)
        elif key in ("single_hours", "simultaneous_hours") and text.lower() in ("none", "default", "off"):
            data[key] = None  # back to phase_hours
        elif (
            key in ("phase_hours", "diplomacy_minutes", "single_hours", "simultaneous_hours")
            or key in game_keys
        ):
            try:
                value = _number(text)
            except ValueError:
                raise TableError(f"{key} must be a number, not {text[:40]!r}.") from None
            most = MAX_HOURS * (60 if key.endswith("_minutes") else 1)
            if not 0 < value <= most:
                raise TableError(f"{key} must be more than 0 and at most {most:,} (a year).")
            if key in self.KEYS:
                data[key] = value
            else:
                data["extra"][key] = value
        else:
            raise TableError(_unknown_setting(key, game_keys))
        try:
            return Settings.model_validate(data)
        except ValidationError as exc:  # every case above is checked; this is the last word
            raise TableError(f"That setting is not allowed: {first_error(exc)}.") from None

    def describe(self) -> str:
        reminders = ", ".join(f"{h:g} h" for h in self.reminders_hours) or "none"
        lines = [
            f"phase_hours: {self.phase_hours:g}",
            f"reminders_hours: {reminders} before each deadline",
            f"on_expiry: {self.on_expiry}",
            f"diplomacy_minutes: {self.diplomacy_minutes:g}",
            f"single_hours: {_or_phase(self.single_hours)} (a step only one player can take)",
            f"simultaneous_hours: {_or_phase(self.simultaneous_hours)} (orders given together)",
            f"session_minutes: {self.session_minutes:g} (a single-player step during a live session)",
            f"between_sessions: {self.between_sessions} (a single-player step between live sessions: "
            "continue or wait for the next)",
            f"on_outage: {self.on_outage}",
            f"round_threads: {'on' if self.round_threads else 'off'}",
            f"automatic_player: {self.automatic_player} (who plays automatic seats: strong, quick or basic)",
            f"spectator_delay: {self.spectator_delay} (finished rounds held back from spectators, besides the "
            "round in play)",
        ]
        lines += [f"{k}: {v:g}" for k, v in sorted(self.extra.items())]
        return "\n".join(lines)


def _or_phase(hours: float | None) -> str:
    return "as phase_hours" if hours is None else f"{hours:g}"


def single_step(prompts: list[Prompt], phase: str) -> bool:
    """The phase is a step only one player can take (no named length, one seat, not secret)."""
    mine = [p for p in prompts if p.phase == phase]
    return (
        bool(mine)
        and not any(p.deadline_setting for p in mine)
        and len({p.seat for p in mine}) == 1
        and not any(p.simultaneous for p in mine)
    )


def host_name(t: Any) -> str:
    """The name of loaded table `t`'s host, as seated ("the host" if they are not)."""
    return next((s.name for s in t.seats if s.user_id == t.row.host_id), "the host")


def host_only(t: Any, user_id: int, admin: bool, what: str) -> None:
    """Refuse, saying who may, unless `user_id` hosts table `t` or has Manage Server (`admin`)."""
    if user_id != t.row.host_id and not admin:
        raise TableError(f"Only the host ({escape(host_name(t))}) or a member with Manage Server can {what}.")


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


def _number(text: str) -> float:
    """A finite number typed by a person ("inf" and "nan" are not lengths)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _unknown_setting(key: str, game_keys: tuple[str, ...]) -> str:
    names = list(Settings.KEYS) + list(game_keys)
    near = difflib.get_close_matches(key, names, n=1)
    hint = f" Did you mean {near[0]}?" if near else ""
    return f"There is no setting {key[:40]!r}.{hint} Settings: {', '.join(names)}."


def _is_length(key: str) -> bool:
    return key.endswith("_minutes") or key.endswith("_hours")


# -- what the adapters read about a table --------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    seat: str | None  # None until the game starts
    user_id: int
    name: str
    label: str  # the seat in the game's words (its nation), or "" in the lobby
    automatic: bool = False  # played by the game's bot_action


@dataclass(frozen=True)
class TableInfo:
    channel_id: int
    guild_id: int | None
    game: str
    status: str
    host_id: int
    seats: list[SeatInfo]
    thread_id: int | None
    status_message_id: int | None = None


# -- small helpers ---------------------------------------------------------------------------


def _setting_of(prompts: list[Prompt], phase: str) -> str | None:
    return next((p.deadline_setting for p in prompts if p.phase == phase and p.deadline_setting), None)


def reminder_times(settings: Settings, now: float, due: float) -> list[float]:
    """Reminder times before `due`; a lead time longer than the phase sends none."""
    return sorted({due - h * 3600 for h in settings.reminders_hours if due - h * 3600 > now})


def first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(x) for x in err["loc"])
    return f"{where}: {err['msg']}" if where else err["msg"]


def error_message(exc: Exception) -> str:
    return first_error(exc) if isinstance(exc, ValidationError) else str(exc)


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
