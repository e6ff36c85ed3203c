"""One self-contained HTML page per finished game: the replay a table opens afterwards
(docs/architecture.md §6).

`replay_page(record)` takes a game's full record (`chancellery-record/1`, as `/game
export` gives it after the end) and returns one HTML file that needs nothing else: no
server, no network, no outside script, font or picture. It shows the first page (final
standings with their breakdowns, the players, the rules options, the seed and its
commitment), then the game step by step: the board, the public log up to that step,
every player's score over the game, and, behind a toggle per player, what each seat
alone saw (hands, sheets and screens), since the game is over.

Secrets stay where the service keeps them: a record of a game still in play is refused,
and an abandoned game's page shows only what was public (no hand, no secret order, no
seed), whether it is made from the public record `/game export` gives for it or from
the operator's full export.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from engine import games
from engine.core import GameError

from ...store.records import FORMAT, PUBLIC_FORMAT, Record, ReplayError, check_format, parse_json, replay
from .diplomacy import with_diplomacy
from .page import Facts, assemble, who
from .review import reviews_section, with_reviews
from .walk import walk_game, walk_public_record

__all__ = ["ReplayPageError", "replay_page"]

NOT_OVER = (
    "A replay page is made only once the game has ended: before that it would show the "
    "seed and every secret order to whoever opens it. Export the game again after the end."
)


class ReplayPageError(ValueError):
    """The record cannot become a replay page; the text says why, in a player's words."""


def replay_page(record: Record | dict[str, Any] | str | bytes) -> bytes:
    """The replay page (UTF-8 HTML) of a finished game's record, or of an abandoned game's
    record showing only what was public. ReplayPageError for anything else."""
    raw = _raw(record)
    status = raw.get("status")
    if raw.get("format", FORMAT) == PUBLIC_FORMAT:
        if status != "abandoned":
            raise ReplayPageError(NOT_OVER)
        return _abandoned_public(raw)
    try:
        check_format(raw)
        rec = Record.model_validate(raw)
        game = games.get(rec.game)
    except ReplayError as exc:
        raise ReplayPageError(f"That file is not a finished game's record: {exc}") from None
    except ValidationError as exc:
        raise ReplayPageError(f"That file is not a game record: {exc.errors()[0]['msg']}") from None
    except GameError as exc:
        raise ReplayPageError(str(exc)) from None
    abandoned = status == "abandoned"
    if not abandoned and (status not in (None, "finished") or raw.get("secret") or rec.outcome is None):
        raise ReplayPageError(NOT_OVER)
    checked = replay(game, rec)
    if not checked.ok:
        raise ReplayPageError(f"That record does not replay, so it cannot be shown: {checked.message}")
    walk = walk_game(
        game,
        rec.seats,
        game.Options.model_validate(rec.options),
        rec.seed,
        [(a.seat, a.action) for a in rec.actions],
        _names(raw),
        public_only=abandoned,
    )
    outcome = game.outcome(walk.final)
    if outcome is None and not abandoned:
        raise ReplayPageError(NOT_OVER)
    facts = Facts(
        names=_names(raw),
        options=_shown_options(game, rec.options, len(rec.seats)),
        option_help=_option_help(game),
        seed=None if abandoned else rec.seed,
        commitment=raw.get("seed_commitment"),
        outcome=None if abandoned else outcome,
        seats_over_time=list(raw.get("seats_over_time") or []),
        note=(
            f"This game was abandoned after {len(rec.actions)} actions. An abandoned game's secrets "
            "stay secret: this page shows only what the table saw."
            if abandoned
            else ""
        ),
    )
    page = assemble(walk, facts)
    if not abandoned:  # after the end: each seat's review (review.py)
        page = with_reviews(page, reviews_section(raw.get("reviews"), walk.seats, lambda s: who(walk, facts, s)))
    return (page if abandoned else with_diplomacy(page, raw)).encode("utf-8")  # showings and pacts


def _raw(record: Record | dict[str, Any] | str | bytes) -> dict[str, Any]:
    if isinstance(record, Record):
        return record.model_dump(mode="json")
    if isinstance(record, (str, bytes)):
        try:
            record = parse_json(record)
        except ReplayError as exc:
            raise ReplayPageError(str(exc)) from None
    if not isinstance(record, dict):
        raise ReplayPageError("That file is not a game record (a record is one JSON object).")
    return json.loads(json.dumps(record))  # a copy: nothing here changes the caller's record


def _names(raw: dict[str, Any]) -> dict[str, str]:
    names = raw.get("names") or {}
    return {str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {}


def _option_help(game: Any) -> dict[str, str]:
    return {name: f.description or "" for name, f in game.Options.model_fields.items()}


def _applies(game: Any, name: str, players: int) -> bool:
    """An option that says which player counts it is for (`"players": [4]` in its schema
    extra) applies only at those; any other applies at every count."""
    extra = game.Options.model_fields[name].json_schema_extra
    counts = extra.get("players") if isinstance(extra, dict) else None
    return not isinstance(counts, list) or players in counts


def _shown_options(game: Any, options: dict[str, Any], players: int) -> dict[str, Any]:
    """Every option the game has that applies at this player count, as set for this game
    (its default where the record is silent)."""
    return _applying(game, game.Options.model_validate(options).model_dump(mode="json"), players)


def _applying(game: Any, options: dict[str, Any], players: int) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in game.Options.model_fields or _applies(game, k, players)}


def _abandoned_public(raw: dict[str, Any]) -> bytes:
    try:
        game = games.get(str(raw.get("game", "")))
    except GameError as exc:
        raise ReplayPageError(str(exc)) from None
    walk = walk_public_record(game, raw)
    steps = walk.steps - 1
    facts = Facts(
        names=_names(raw),
        options=_applying(game, dict(raw.get("options") or {}), len(walk.seats)),
        option_help=_option_help(game),
        seed=None,
        commitment=raw.get("seed_commitment"),
        outcome=None,
        seats_over_time=list(raw.get("seats_over_time") or []),
        note=(
            f"This game was abandoned after {steps} actions. An abandoned game's secrets stay "
            "secret: this page shows only its public log and the table as it stood at the end."
        ),
    )
    return assemble(walk, facts).encode("utf-8")
