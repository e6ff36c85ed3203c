"""SIGTERM or SIGINT stops the bot cleanly: what is in flight finishes, the database is
closed intact with every acknowledged action in it, and the process exits 0 within the
grace period (`shutdown_grace_seconds`)."""

from __future__ import annotations

import asyncio
import signal

from bot.service.records import record_from_store, replay
from bot.store import open_store
from engine import games

from .conftest import SETUP, actions_in, integrity

GRACE = 5.0


def _replays(db) -> bool:
    async def check() -> bool:
        store = await open_store(db)
        try:
            record = await record_from_store(store, 1)
            return replay(games.get(record.game), record).ok
        finally:
            await store.close()

    return asyncio.run(check())


def test_sigterm_at_the_prompt_exits_0_with_every_acknowledged_action_kept(clean_env, children):
    db = clean_env / "data" / "tables.sqlite3"
    child = children(["run", "--db", str(db)], clean_env, shutdown_grace_seconds=str(GRACE))
    for line in SETUP:
        child.type(line)
    for _ in range(6):
        child.type("auto 1")  # acknowledged: the console answered and prompts again
    acknowledged = actions_in(db)
    assert acknowledged >= 6
    code, seconds = child.stop(signal.SIGTERM)
    assert code == 0, child.proc.stderr.read().decode()
    assert seconds < GRACE
    assert integrity(db) == [("ok",)]
    assert actions_in(db) == acknowledged
    assert _replays(db)
    # closed cleanly: the write-ahead log was checkpointed into the file and removed
    assert not db.with_name(db.name + "-wal").exists()


def test_sigint_at_the_prompt_also_exits_0(clean_env, children):
    db = clean_env / "tables.sqlite3"
    child = children(["run", "--db", str(db)], clean_env)
    for line in SETUP:
        child.type(line)
    code, _ = child.stop(signal.SIGINT)
    assert code == 0
    assert integrity(db) == [("ok",)]


def test_a_line_in_flight_is_finished_before_the_console_stops(clean_env, children):
    """SIGTERM lands while `auto 30` plays thirty moves: all thirty are played and saved,
    and the script's next line never runs."""
    db = clean_env / "tables.sqlite3"
    script = clean_env / "script.txt"
    script.write_text("\n".join([*SETUP, "auto 30", *["wait 1"] * 200]) + "\n", encoding="utf-8")
    child = children(
        ["console", "--script", str(script), "--db", str(db)], clean_env, shutdown_grace_seconds="20"
    )
    child.wait_for(lambda: "> auto 30" in child.text())
    code, seconds = child.stop(signal.SIGTERM, timeout=30)
    assert code == 0, child.proc.stderr.read().decode()
    assert seconds < 20
    assert "> wait 1" not in child.text()  # stopped before the next line
    assert actions_in(db) == 30
    assert integrity(db) == [("ok",)]
    assert _replays(db)


def test_without_a_signal_a_script_runs_to_its_end(clean_env, children):
    """The stop machinery changes nothing when no signal comes."""
    db = clean_env / "tables.sqlite3"
    script = clean_env / "script.txt"
    script.write_text("\n".join([*SETUP, "auto 3", "wait 1"]) + "\n", encoding="utf-8")
    child = children(["console", "--script", str(script), "--db", str(db)], clean_env)
    assert child.proc.wait(60) == 0
    assert "> wait 1" in child.text()
    assert actions_in(db) >= 3
