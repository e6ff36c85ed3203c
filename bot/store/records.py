"""Game records and `python -m bot replay`: re-run an exported game and check it.

A record is one JSON object (format "chancellery-record/1"):

    {
      "format": "chancellery-record/1",
      "game": "origins",                    # registry id or alias
      "options": {...},                     # the game's Options, as JSON
      "seed": 123456,                       # the table seed (revealed at game end)
      "seats": ["s1", "s2", "s3"],          # engine seat ids in table order, as given to setup
      "actions": [
        {"seat": "s1", "action": {"kind": "...", ...}, "state_hash": "<sha256>"},
        ...
      ],
      "final_state_hash": "<sha256>",       # optional
      "rules_version": 2,                   # the game's rules version (absent: 1)
      "outcome": {...}                      # optional: the Outcome as recorded
    }

`state_hash` (optional on each action) is `state_hash(state)` of the state after that
action: the SHA-256 of the state's JSON. Other keys may be added by the exporter
(`record_from_store` adds `names`: seat -> player name; `/game export` adds
`seats_over_time`, `status`, `secret` and `seed_commitment`); replay keeps them and checks
only `seed_commitment`: the SHA-256 posted at the start must be the seed's.

Only a finished game's export is such a record. Before the end, and for ever for an
abandoned game, `/game export` gives the public record ("chancellery-public-record/1": the
public log and view, no seed and no actions), which `check_format` refuses to replay or
import, saying why (docs/rulings.md, Platform 23).

`rules_version` is the game's `Game.rules_version` when the record was made: a rules
correction that changes how a game plays out raises it, and replay refuses a record of
another version, saying so, rather than report a divergence (docs/rulings.md says what
changed). Records written before the field existed are version 1.

Replay starts from `setup(seats, options, seed)` and applies every action in order. At
each step it requires that the action parses, is legal for that seat, that the state
round-trips through JSON, that the game's invariants hold and that the recorded hash (if
any) matches. It stops at the first divergence.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import games
from engine.core import Game, GameError, GameState, Model, seed_commitment
from engine.core.playout import Playout

if TYPE_CHECKING:
    from .base import Store

__all__ = [
    "FORMAT",
    "PUBLIC_FORMAT",
    "check_format",
    "Record",
    "RecordedAction",
    "ReplayError",
    "ReplayResult",
    "state_hash",
    "make_record",
    "record_from_playout",
    "record_from_store",
    "load_record",
    "replay",
]

FORMAT = "chancellery-record/1"
# `/game export` of a game not finished (or abandoned): the public log, no seed, no actions
PUBLIC_FORMAT = "chancellery-public-record/1"


class ReplayError(Exception):
    """The file is not a record we can replay at all (as opposed to a divergence)."""


class RecordedAction(BaseModel):
    model_config = ConfigDict(extra="allow")

    seat: str
    action: dict[str, Any]
    state_hash: str | None = None


# No record nests deeper than a handful of levels (an action's options); a file that does
# is not one, and parsing or re-encoding it would exhaust Python's recursion limit.
MAX_DEPTH = 32


def parse_json(data: bytes | str) -> Any:
    """A record file's JSON; ReplayError, in words, for text that is not UTF-8, not JSON
    or nested too deeply to be a record."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ReplayError("not a game record (the file is not UTF-8 text)") from None
    try:
        raw = json.loads(data)
    except RecursionError:
        raise ReplayError(f"not a game record (nested more than {MAX_DEPTH} levels deep)") from None
    except json.JSONDecodeError as exc:
        raise ReplayError(f"not JSON: {exc}") from None
    _check_depth(raw)
    return raw


def _check_depth(raw: Any) -> None:
    stack = [(raw, 1)]
    while stack:  # iterative: the depth is what is being checked
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ReplayError(f"not a game record (nested more than {MAX_DEPTH} levels deep)")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def check_format(raw: Any) -> None:
    """Refuse, in words, what is not a record this version replays: a public record
    (which has no seed to replay from), another format version, or nesting no record has."""
    if not isinstance(raw, dict):
        raise ReplayError("not a game record (a record is one JSON object)")
    _check_depth(raw)
    fmt = raw.get("format", FORMAT)
    if fmt == PUBLIC_FORMAT:
        raise ReplayError(
            "this is the public record of a game that was not finished when it was exported; it holds "
            "no seed and no secret orders, so it cannot be replayed or continued. "
            "Export the game again once it has ended."
        )
    if fmt != FORMAT:
        raise ReplayError(f"record format {fmt!r}; this version reads {FORMAT!r} only")


class Record(BaseModel):
    model_config = ConfigDict(extra="allow")

    format: str = FORMAT
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seats: list[str]
    actions: list[RecordedAction] = Field(default_factory=list)
    final_state_hash: str | None = None
    outcome: dict[str, Any] | None = None
    rules_version: int = 1


@dataclass(frozen=True)
class ReplayResult:
    ok: bool
    steps: int  # actions replayed successfully
    message: str
    diverged_at: int | None = None  # 1-based index of the first bad action; 0 = setup; None = OK

    def __str__(self) -> str:
        return self.message


def state_hash(state: GameState) -> str:
    return hashlib.sha256(state.model_dump_json().encode()).hexdigest()


def make_record(
    game: Game,
    seats: list[str],
    options: Model,
    seed: int,
    actions: list[tuple[str, Any]],
    **extra: Any,
) -> Record:
    """A record of `actions` played from setup, with a hash after every action."""
    state = game.setup(list(seats), options, seed)
    entries = []
    for seat, action in actions:
        if isinstance(action, dict):
            action = game.parse_action(action)
        state, _ = game.apply(state, seat, action)
        entries.append(
            RecordedAction(seat=seat, action=action.model_dump(mode="json"), state_hash=state_hash(state))
        )
    outcome = game.outcome(state)
    return Record(
        game=game.id,
        options=options.model_dump(mode="json"),
        seed=seed,
        seats=list(seats),
        actions=entries,
        final_state_hash=state_hash(state),
        outcome=outcome.model_dump(mode="json") if outcome is not None else None,
        rules_version=game.rules_version,
        **extra,
    )


def record_from_playout(game: Game, playout: Playout, seed: int, options: Model | None = None) -> Record:
    return make_record(game, list(playout.state.seats), options or game.Options(), seed, playout.actions)


async def record_from_store(store: Store, channel_id: int) -> Record:
    """The record of the game stored for a channel (what `/game export` will write).

    Step hashes come from replaying the stored action log; `final_state_hash` is the
    stored state's, so a replay that does not reach the state the service saved fails.
    """
    row = await store.get_table(channel_id)
    if row is None or row.state is None or row.seed is None:
        raise ReplayError(f"channel {channel_id} has no started game to export")
    game = games.get(row.game)
    seats = [s for s in await store.get_seats(channel_id) if s.seat is not None]
    state = game.load_state(row.state)
    actions = [(a.seat, json.loads(a.action)) for a in await store.get_actions(channel_id)]
    # Lobby.start passes the stored options (plus seat preferences, for a game
    # whose Options has a `preferences` field) to setup; the record must carry the same.
    options = dict(row.options)
    if "preferences" in game.Options.model_fields:
        options["preferences"] = {s.seat: s.preference for s in seats if s.preference}
    try:
        record = make_record(
            game,
            # the seats in the order setup was given them (every game's state keeps that
            # list): join order differs after preferences or an import's free seats
            list(state.seats),
            game.Options.model_validate(options),
            row.seed,
            actions,
            names={s.seat: s.name for s in seats},
        )
    except (GameError, ValidationError) as exc:
        raise ReplayError(f"the stored action log does not replay: {exc}") from None
    record.final_state_hash = state_hash(state)
    return record


def load_record(path: Path) -> Record:
    try:
        raw = parse_json(path.read_bytes())
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read it: {exc.strerror}") from None
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None
    try:
        check_format(raw)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None
    try:
        record = Record.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ReplayError(f"{path}: not a game record: {problems}") from None
    return record


def _short(digest: str) -> str:
    return digest[:12]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def options_problem(game: Game, options: dict[str, Any]) -> str | None:
    """What is wrong with a record's options for `game`, in words (None when nothing): the
    options another game takes are named, and a value the game refuses is named with why."""
    unknown = sorted(k for k in options if k not in game.Options.model_fields)
    if unknown:
        named = _and([f"`{k}`" for k in unknown])
        return (
            f"This record's options are not {game.title}'s: it has {named}, "
            f"which {game.title} does not take."
        )
    try:
        game.Options.model_validate(options)
    except ValidationError as exc:
        wrong = [
            f"`{'.'.join(str(p) for p in e['loc'])}` ({e['msg'][0].lower() + e['msg'][1:]})" if e["loc"] else e["msg"]
            for e in exc.errors()
        ]
        return f"This record's options do not suit {game.title}: {_and(wrong)}."
    return None


def replay(game: Game, record: Record) -> ReplayResult:
    """Re-run `record` from setup; OK, or the first divergence in words. A record that
    carries the `seed_commitment` posted at the start must hold the seed it commits to."""
    committed = getattr(record, "seed_commitment", None)
    if committed is not None and committed != seed_commitment(record.seed):
        return ReplayResult(
            False, 0, "The seed does not match the commitment posted at the start", diverged_at=0
        )
    if record.rules_version != game.rules_version:
        return ReplayResult(
            False,
            0,
            f"This record was played under {game.title} rules version {record.rules_version}; this "
            f"version referees version {game.rules_version} (see docs/rulings.md for what changed), "
            "so its actions would not play out the same",
            diverged_at=0,
        )
    wrong = options_problem(game, record.options)
    if wrong is not None:
        return ReplayResult(False, 0, wrong, diverged_at=0)
    try:
        options = game.Options.model_validate(record.options)
        state = game.setup(list(record.seats), options, record.seed)
    except GameError as exc:
        return ReplayResult(False, 0, f"Setup failed: {exc}", diverged_at=0)

    for index, entry in enumerate(record.actions, start=1):
        where = f"Action {index} ({entry.seat} {entry.action.get('kind', '?')})"
        try:
            action = game.parse_action(entry.action)
        except ValidationError as exc:
            return ReplayResult(
                False, index - 1, f"{where}: not a valid action: {exc.errors()[0]['msg']}", index
            )
        try:
            state, _ = game.apply(state, entry.seat, action)
        except GameError as exc:  # IllegalAction and NotYourTurn both derive from it
            return ReplayResult(False, index - 1, f"{where} was refused: {exc}", index)
        text = state.model_dump_json()
        if game.load_state(text).model_dump_json() != text:
            return ReplayResult(
                False, index - 1, f"{where}: the state does not round-trip through JSON", index
            )
        broken = game.invariants(state)
        if broken:
            return ReplayResult(False, index - 1, f"{where} broke invariants: {'; '.join(broken)}", index)
        if entry.state_hash is not None and entry.state_hash != state_hash(state):
            return ReplayResult(
                False,
                index - 1,
                f"{where}: state {_short(state_hash(state))} differs from the recorded {_short(entry.state_hash)}",
                index,
            )

    steps = len(record.actions)
    if record.final_state_hash is not None and record.final_state_hash != state_hash(state):
        return ReplayResult(
            False,
            steps,
            f"Final state {_short(state_hash(state))} differs from the recorded {_short(record.final_state_hash)}",
            steps,
        )
    outcome = game.outcome(state)
    if record.outcome is not None:
        got = outcome.model_dump(mode="json") if outcome is not None else None
        if got != record.outcome:
            return ReplayResult(
                False, steps, f"The outcome differs: replay gives {got}, recorded {record.outcome}", steps
            )
    ending = f"; {outcome.reason}" if outcome is not None else "; game still running"
    return ReplayResult(True, steps, f"OK: {steps} actions replayed{ending}")
