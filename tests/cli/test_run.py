"""`run` without a token opens the console over the configured database; with one, Discord."""

from __future__ import annotations

import asyncio
import gc
import io
import os
import pathlib
import subprocess
import sys

from bot.__main__ import main
from bot.process.runtime import GC_YOUNG_THRESHOLD
from bot.store import open_store

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONSOLE_CHANNEL = 1  # the console's one table


def _table(db: pathlib.Path):
    async def read():
        store = await open_store(db)
        try:
            return await store.get_table(CONSOLE_CHANNEL), await store.get_seats(CONSOLE_CHANNEL)
        finally:
            await store.close()

    return asyncio.run(read())


def test_run_without_a_token_explains_and_opens_the_console(envoys, clean_env):
    db = clean_env / "here" / "tables.sqlite3"
    stdin = io.StringIO("as alice /game new game:envoys\nas bob /game join\nquit\n")
    out = io.StringIO()
    assert main(["run", "--db", str(db)], stdin=stdin, stdout=out) == 0
    text = out.getvalue()
    assert "No Discord token is configured" in text
    assert "https://discord.com/developers/applications" in text and "DISCORD_TOKEN" in text
    assert str(db) in text
    assert text.index("To connect to Discord") < text.index("Chancellery console")
    # the console acted on the very database `run` was given
    table, seats = _table(db)
    assert table is not None and table.game == "envoys" and table.status == "lobby"
    assert [s.name for s in seats] == ["alice", "bob"]


def test_run_uses_the_configured_database(envoys, clean_env):
    (clean_env / "config.toml").write_text('database = "cfg/db.sqlite3"\n', encoding="utf-8")
    stdin = io.StringIO("as carol /game new game:envoys\n")  # end of input ends the console
    assert main(["run"], stdin=stdin, stdout=io.StringIO()) == 0
    table, seats = _table(clean_env / "cfg" / "db.sqlite3")
    assert table is not None and [s.name for s in seats] == ["carol"]


def test_run_with_a_token_starts_the_discord_bot(monkeypatch, clean_env):
    import bot.discord

    started = []
    monkeypatch.setattr(bot.discord, "run_discord", started.append)
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    out = io.StringIO()
    assert main(["run", "--db", str(clean_env / "d.sqlite3")], stdin=io.StringIO(), stdout=out) == 0
    assert out.getvalue() == ""  # no console, no how-to
    [config] = started
    assert config.token == "secret-token" and config.database == clean_env / "d.sqlite3"


def test_console_script_runs_a_game_on_the_given_database(envoys, clean_env):
    script = clean_env / "game.txt"
    script.write_text(
        "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:5\n"
        "as alice /envoys commit value:2\n",
        encoding="utf-8",
    )
    out = io.StringIO()
    db = clean_env / "c.sqlite3"
    assert main(["console", "--script", str(script), "--db", str(db)], stdout=out) == 0
    assert "[private to alice] You committed 2." in out.getvalue()
    table, _ = _table(db)
    assert table.status == "running" and '"commits":{"s1":2}' in table.state


def test_python_m_bot_run_in_a_fresh_directory(clean_env):
    """The real entry point, as ./scripts/run starts it: no token, input from a pipe."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("CHANCELLERY_")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        input="help\nquit\n",
        capture_output=True,
        text=True,
        cwd=clean_env,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "To connect to Discord" in done.stdout and "Chancellery console" in done.stdout
    assert (clean_env / "data" / "chancellery.sqlite3").exists()  # the default database, created on first run


def test_the_bot_and_the_console_collect_garbage_less_often_than_the_default(monkeypatch, clean_env):
    import bot.discord

    monkeypatch.setattr(bot.discord, "run_discord", lambda config: None)
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        assert main(["replay", str(clean_env / "missing.json")], stdout=io.StringIO()) == 2
        assert gc.get_threshold() == (700, 10, 10)  # a one-off command keeps the default
        assert main(["run", "--db", str(clean_env / "d.sqlite3")], stdout=io.StringIO()) == 0
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, 10, 10)
    finally:
        gc.set_threshold(*before)
