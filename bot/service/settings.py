"""A table's settings (`/game settings`): deadlines, reminders, what expiry does, live
sessions, round threads, the automatic player, the spectators' delay; stored as JSON with
the table, each key checked and refused in words."""

from __future__ import annotations

import math
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import did_you_mean

from .errors import TableError, first_error

__all__ = ["MAX_HOURS", "MAX_SPECTATOR_DELAY", "Settings"]


MAX_HOURS = 24 * 365  # the longest phase or reminder lead a setting takes: a year


MAX_SPECTATOR_DELAY = 5  # whole rounds


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


def _number(text: str) -> float:
    """A finite number typed by a person ("inf" and "nan" are not lengths)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _unknown_setting(key: str, game_keys: tuple[str, ...]) -> str:
    names = list(Settings.KEYS) + list(game_keys)
    hint = did_you_mean(key, names, n=1)
    return f"There is no setting {key[:40]!r}." + (f" {hint}" if hint else "") + f" Settings: {', '.join(names)}."


def _is_length(key: str) -> bool:
    return key.endswith("_minutes") or key.endswith("_hours")
