"""`replay`: an honest record replays OK; any tampering is found at the first bad step."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service.tables import TableService
from bot.store import open_store
from bot.store.records import (
    FORMAT,
    Record,
    ReplayError,
    load_record,
    make_record,
    record_from_playout,
    record_from_store,
    replay,
    state_hash,
)
from engine import games
from engine.core.playout import play_out


@pytest.fixture
def record(envoys) -> Record:
    return record_from_playout(envoys, play_out(envoys, 3, seed=9), seed=9)


def _save(path: Path, record: Record | dict) -> Path:
    data = record.model_dump(mode="json") if isinstance(record, Record) else record
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def _other_commit(value: int) -> int:
    return value % 3 + 1


def test_an_honest_record_replays_ok(envoys, record):
    assert record.format == FORMAT and len(record.actions) == 21
    result = replay(envoys, record)
    assert result.ok and result.steps == 21 and result.diverged_at is None
    assert str(result) == "OK: 21 actions replayed; three rounds played"


def test_the_record_survives_a_file(envoys, record, clean_env):
    again = load_record(_save(clean_env / "game.json", record))
    assert again == record and replay(envoys, again).ok


def test_a_changed_secret_commit_is_caught_at_that_action(envoys, record):
    record.actions[1].action["value"] = _other_commit(record.actions[1].action["value"])
    result = replay(envoys, record)
    assert not result.ok and result.diverged_at == 2 and result.steps == 1
    assert "Action 2 (s2 commit): state" in result.message and "differs from the recorded" in result.message


def test_without_step_hashes_the_final_hash_catches_it(envoys, record):
    for entry in record.actions:
        entry.state_hash = None
    record.actions[0].action["value"] = _other_commit(record.actions[0].action["value"])
    result = replay(envoys, record)
    assert not result.ok and result.message.startswith("Final state ")


def test_a_changed_seed_is_caught(envoys, record):
    # the state carries its seed, so the first hash already differs
    record.seed += 1
    result = replay(envoys, record)
    assert not result.ok and result.diverged_at == 1


def test_an_action_out_of_turn_is_refused(envoys, record):
    press = next(i for i, a in enumerate(record.actions) if a.action["kind"] in ("press", "yield"))
    record.actions[press].seat = "s2"  # round 1's press belongs to s1
    result = replay(envoys, record)
    assert not result.ok and result.diverged_at == press + 1
    assert "was refused: You owe no decision right now." in result.message


def test_a_dropped_action_is_caught(envoys, record):
    del record.actions[5]
    assert not replay(envoys, record).ok


def test_a_changed_outcome_is_caught(envoys, record):
    record.outcome["reason"] = "resigned"
    assert "The outcome differs" in replay(envoys, record).message


def test_a_game_still_running_replays_ok(envoys):
    actions = play_out(envoys, 2, seed=3).actions[:4]
    partial = make_record(envoys, ["s1", "s2"], envoys.Options(), 3, actions)
    assert partial.outcome is None and partial.final_state_hash is not None
    assert str(replay(envoys, partial)) == "OK: 4 actions replayed; game still running"


def test_state_hash_is_of_the_state_json(envoys):
    state = envoys.setup(["a", "b"], envoys.Options(), 1)
    other = envoys.setup(["a", "b"], envoys.Options(), 2)
    assert state_hash(state) == state_hash(envoys.load_state(state.model_dump_json()))
    assert state_hash(state) != state_hash(other)


def test_cli_ok_tampered_and_unreadable(envoys, record, clean_env, capsys):
    good = _save(clean_env / "good.json", record)
    out = io.StringIO()
    assert main(["replay", str(good)], stdout=out) == 0
    assert out.getvalue().startswith("OK: 21 actions")

    data = record.model_dump(mode="json")
    data["actions"][0]["action"]["value"] = _other_commit(data["actions"][0]["action"]["value"])
    out = io.StringIO()
    assert main(["replay", str(_save(clean_env / "bad.json", data))], stdout=out) == 1
    assert out.getvalue().startswith("Action 1 (s1 commit)")

    (clean_env / "junk.json").write_text("{not json", encoding="utf-8")
    assert main(["replay", str(clean_env / "junk.json")], stdout=io.StringIO()) == 2
    assert "not JSON" in capsys.readouterr().err

    data = record.model_dump(mode="json")
    data["format"] = "someone-else/2"
    assert main(["replay", str(_save(clean_env / "other.json", data))], stdout=io.StringIO()) == 2
    assert "record format 'someone-else/2'" in capsys.readouterr().err


def test_a_record_of_other_rules_is_refused_by_its_rules_version(clean_env):
    """A rules correction that changes play raises the game's rules version; a record of an
    older version (no field: 1) is refused by name, not reported as a divergence."""
    game = games.get("crisis1914")
    record = record_from_playout(game, play_out(game, 2, seed=3), seed=3)
    assert record.rules_version == game.rules_version == 3
    data = record.model_dump(mode="json")
    del data["rules_version"]
    result = replay(game, Record.model_validate(data))
    assert not result.ok and result.diverged_at == 0
    assert "played under Crisis: 1914 rules version 1" in result.message
    assert replay(game, record).ok


@pytest.mark.parametrize("game_id", ["crisis1914", "origins", "schonbrunn"])
def test_every_shipped_game_round_trips_through_a_record_file(game_id, clean_env):
    """The record format carries each real game's actions as they are (nested, typed)."""
    game = games.get(game_id)
    seed = 17
    playout = play_out(game, game.min_players, seed)
    path = _save(clean_env / f"{game.id}.json", record_from_playout(game, playout, seed))
    out = io.StringIO()
    assert main(["replay", str(path)], stdout=out) == 0, out.getvalue()
    assert out.getvalue().startswith(f"OK: {len(playout.actions)} actions replayed; ")

    data = json.loads(path.read_text(encoding="utf-8"))
    data["seed"] += 1
    out = io.StringIO()
    assert main(["replay", str(_save(clean_env / "other-seed.json", data))], stdout=out) == 1
    assert not out.getvalue().startswith("OK")


async def _played_table(game, db: Path, seed: int):
    """A whole game of the test game played through the table service on a SQLite file."""
    store = await open_store(db)
    service = TableService(store)
    users = {"s1": 11, "s2": 22, "s3": 33}
    await service.lobby.create(5, None, game.id, users["s1"], "ann")
    await service.lobby.join(5, users["s2"], "ben")
    await service.lobby.join(5, users["s3"], "cas")
    await service.lobby.start(5, users["s1"], seed=seed)
    for seat, action in play_out(game, 3, seed).actions:  # the service names seats s1..s3 too
        await service.act(5, users[seat], action)
    return store


async def test_a_game_played_through_the_service_exports_and_replays(envoys, clean_env):
    db = clean_env / "tables.sqlite3"
    store = await _played_table(envoys, db, seed=8)
    try:
        record = await record_from_store(store, 5)
        assert record.seed == 8 and record.seats == ["s1", "s2", "s3"] and len(record.actions) == 21
        assert record.names == {"s1": "ann", "s2": "ben", "s3": "cas"}
        assert str(replay(envoys, record)) == "OK: 21 actions replayed; three rounds played"
        with pytest.raises(ReplayError, match="no started game"):
            await record_from_store(store, 6)
    finally:
        await store.close()

    # a stored state that the log does not lead to (tampered, or an engine that changed)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE tables SET state = replace(state, '\"round\":3', '\"round\":2') WHERE channel_id = 5"
        )
    store = await open_store(db)
    try:
        tampered = await record_from_store(store, 5)
    finally:
        await store.close()
    assert replay(envoys, tampered).message.startswith("Final state ")
