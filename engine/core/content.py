"""Loading TOML content with provenance.

Every card, table and nation board says where it comes from:
`rulebook` (cite the section in `source`), `public` (cite the URL) or `reconstructed`
(designed by us, consistent with the rulebook; `note` says how). A group that owns the
printed game may point `content_dir` at their own files; the same models validate them
and errors name the file, the entry and the field.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import ValidationError

from .errors import ContentError
from .model import Model

__all__ = ["Provenance", "Sourced", "load_toml", "set_content_dir", "content_dir", "content_path"]

_BUILTIN = Path(__file__).resolve().parent.parent / "content"
_override: Path | None = None

M = TypeVar("M", bound=Model)


class Provenance(Model):
    kind: Literal["rulebook", "public", "reconstructed"]
    source: str
    note: str = ""


class Sourced(Model):
    """Base for any content entry: it carries its provenance."""

    provenance: Provenance


def set_content_dir(path: str | Path | None) -> None:
    """Use a group's own content files where they exist (falls back to the built-in)."""
    global _override
    _override = Path(path) if path else None
    _load_cached.cache_clear()


def content_dir() -> Path | None:
    """The group's own content folder in force, if any (part of a game's cache key)."""
    return _override


def content_path(game: str, name: str) -> Path:
    if _override is not None:
        candidate = _override / game / name
        if candidate.exists():
            return candidate
    return _BUILTIN / game / name


def load_toml(game: str, name: str, model: type[M]) -> M:
    """Load `content/<game>/<name>` into `model`; errors name file, entry and field."""
    return _load_cached(str(content_path(game, name)), model)  # type: ignore[return-value]


@cache
def _load_cached(path: str, model: type[Model]) -> Model:
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ContentError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path}: not valid TOML: {exc}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise ContentError(f"{path}: {problems}") from None
