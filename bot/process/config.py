"""The bot's configuration: `config.toml` (if present) overlaid by the environment.

Every key is documented in `config.example.toml`. Precedence, highest first:
`DISCORD_TOKEN` / `CHANCELLERY_<KEY>` environment variables, then the TOML file, then
the defaults below. Unknown keys in the file are errors, so a typo is not silently
ignored.
"""

from __future__ import annotations

import logging
import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from .shards import Shards

__all__ = ["Config", "ConfigError", "load_config", "DEFAULT_PATH", "CONFIG_ENV"]

DEFAULT_PATH = Path("config.toml")
CONFIG_ENV = "CHANCELLERY_CONFIG"  # another config file than ./config.toml


class ConfigError(Exception):
    """A configuration problem, worded for whoever runs the bot."""


class Config(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="CHANCELLERY_",
        extra="forbid",
        validate_by_name=True,  # the file says `token`; the environment says DISCORD_TOKEN
    )

    token: str | None = Field(default=None, validation_alias=AliasChoices("DISCORD_TOKEN"))
    # an SQLite file, or a postgresql:// URL for several processes sharing one database
    database: Path | str = Path("data/chancellery.sqlite3")
    dev_guild_id: int | None = None
    content_dir: Path | None = None
    log_level: str = "INFO"
    default_phase_hours: float = Field(default=24.0, gt=0)
    default_reminders_hours: list[float] = Field(default_factory=lambda: [12.0, 1.0])
    diplomacy_minutes: float = Field(default=1440.0, gt=0)
    # Several processes: each connects Discord's shards `shard_ids` of `shard_count`
    # (README, "Running at scale"); none: one process serves every server.
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: list[int] | None = None
    # tables kept loaded in this process (README, "Running at scale")
    table_cache: int = Field(default=2048, ge=1)
    # processes in which automatic seats' searches decide (bot/service/automatic.py);
    # 0: on a thread of the bot's own process
    automatic_workers: int = Field(default=1, ge=0)
    # Stopping (SIGTERM, SIGINT): seconds to finish what is in flight before closing anyway
    shutdown_grace_seconds: float = Field(default=10.0, gt=0, le=600)
    # Prometheus metrics and /healthz on this port (none: off); metrics_host is the address
    # listened on (0.0.0.0 in a container, for a scraper outside it)
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    # Scheduled backups of the SQLite file into backups/ beside it (none: off), the newest
    # backup_keep of them kept
    backup_every_hours: float | None = Field(default=None, gt=0)
    backup_keep: int = Field(default=7, ge=1)

    @field_validator("token")
    @classmethod
    def _blank_token_is_none(cls, value: str | None) -> str | None:
        # `token = ""` in the example file means "not configured", not an empty password
        return value.strip() or None if value is not None else None

    @field_validator("database")
    @classmethod
    def _file_or_url(cls, value: Path | str) -> Path | str:
        text = str(value)
        if text.startswith(("postgresql://", "postgres://")):
            return text  # a Path would fold the URL's "//"
        return Path(text)

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError(f"unknown log level {value!r}; use DEBUG, INFO, WARNING or ERROR")
        return level

    @field_validator("default_reminders_hours")
    @classmethod
    def _positive_leads(cls, value: list[float]) -> list[float]:
        if any(v <= 0 for v in value):
            raise ValueError("reminder lead times must be positive hours")
        return sorted(value, reverse=True)

    @model_validator(mode="after")
    def _backups_are_sqlite(self) -> Config:
        if self.backup_every_hours is not None and isinstance(self.database, str):
            raise ValueError(
                "backup_every_hours backs up an SQLite file; back up PostgreSQL with pg_dump "
                "(`python -m bot backup` prints the command)"
            )
        return self

    @model_validator(mode="after")
    def _shards_fit(self) -> Config:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("shard_ids needs shard_count (how many shards there are in all)")
        if self.shard_count is not None:
            Shards(self.shard_count, tuple(self.shard_ids or range(self.shard_count)))  # checks the ids
        return self

    def shards(self) -> Shards:
        """The servers this process serves (all of them without shard settings)."""
        if self.shard_count is None:
            return Shards()
        return Shards(self.shard_count, tuple(self.shard_ids or range(self.shard_count)))

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # load_config passes the file's keys as init values; the environment must beat them
        return (env_settings, init_settings)

    def table_defaults(self) -> dict[str, Any]:
        """The per-table settings a new table starts with (TableService default_settings)."""
        return {
            "phase_hours": self.default_phase_hours,
            "reminders_hours": list(self.default_reminders_hours),
            "diplomacy_minutes": self.diplomacy_minutes,
        }


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it: {exc.strerror}") from None


def load_config(path: Path | None = None) -> Config:
    """Read `path` (else $CHANCELLERY_CONFIG, else ./config.toml if it exists) and the environment.

    An explicitly named file must exist; the default one is optional.
    """
    explicit = (
        path if path is not None else (Path(os.environ[CONFIG_ENV]) if os.environ.get(CONFIG_ENV) else None)
    )
    source = explicit or DEFAULT_PATH
    if explicit is not None and not explicit.exists():
        raise ConfigError(f"{explicit}: no such config file")
    data = _read_toml(source) if source.exists() else {}
    _check_environment()
    try:
        return Config(**data)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, source if data else None)) from None


def _check_environment() -> None:
    """An unknown CHANCELLERY_* variable is an error, as an unknown key in the file is:
    pydantic-settings would ignore it, and a misspelt CHANCELLERY_DATABSE would quietly
    leave the bot on the default database."""
    known = {f"CHANCELLERY_{name.upper()}" for name in Config.model_fields if name != "token"} | {CONFIG_ENV}
    unknown = sorted(k for k in os.environ if k.upper().startswith("CHANCELLERY_") and k.upper() not in known)
    if unknown:
        hint = " (the token is DISCORD_TOKEN)" if "CHANCELLERY_TOKEN" in (k.upper() for k in unknown) else ""
        raise ConfigError(
            f"environment: unknown variable {', '.join(unknown)}{hint}; known: {', '.join(sorted(known))}"
        )


def _explain(exc: ValidationError, path: Path | None) -> str:
    where = f"{path}: " if path is not None else "configuration: "
    problems = []
    for err in exc.errors():
        key = ".".join(str(p) for p in err["loc"]) or "?"
        if err["type"] == "extra_forbidden":
            known = ", ".join(sorted(Config.model_fields))
            problems.append(f"unknown key {key!r} (known keys: {known})")
        else:
            problems.append(f"{key}: {err['msg']}")
    return where + "; ".join(problems)
