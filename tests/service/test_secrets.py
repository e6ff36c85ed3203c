"""Secrets: nobody gets the seed or a hidden action of a game still in play by
any route (export, publish, import, console), the host included; an abandoned game's
secrets stay secret for ever. The service enforces it, so every front end obeys."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console.console import run_console
from bot.service.tables import TableError, TableService
from bot.store.records import PUBLIC_FORMAT, Record, replay
from engine import games
from tests import tinygame

from .conftest import ALICE, BOB, CAROL, CHANNEL, Clock, seated

OTHER = CHANNEL + 1
ROOT = Path(__file__).resolve().parents[2]


async def _private_only(service: TableService, channel: int) -> set[str]:
    """Lines told to one seat only, and never said publicly."""
    events = await service.store.get_all_events(channel)
    public = {e.text for e in events if e.audience is None}
    return {e.text for e in events if e.audience is not None} - public


def _leaks(data: dict, seed: int, private: set[str]) -> list[str]:
    text = json.dumps(data)
    found = [f"seed {seed}"] if "seed" in data or str(seed) in text else []
    found += ["actions"] if "actions" in data else []
    return found + [line for line in private if line in text]


async def test_a_seated_host_exporting_mid_game_gets_no_seed_and_no_hidden_action(service):
    await seated(service, "alice", "bob", seed=424242)
    await service.command(CHANNEL, ALICE, "commit", {"value": "3"})  # alice is the host
    data = await service.history.export(CHANNEL)
    assert data["format"] == PUBLIC_FORMAT and data["status"] == "running"
    assert _leaks(data, 424242, {"You committed 3."}) == []
    assert "my_commit" not in json.dumps(data["public_view"])
    # what the channel saw is there
    assert [e["text"] for e in data["public_log"]] == ["s1 has committed."]
    assert data["names"] == {"s1": "alice", "s2": "bob"}


# the games that tell players secrets in private lines (Origins keeps its sheets in the
# state and says nothing privately: the export holds neither state nor actions)
@pytest.mark.parametrize("game", ["crisis1914", "schonbrunn"])
async def test_no_real_game_in_play_exports_a_secret(service, game):
    await service.lobby.create(CHANNEL, 9, game, ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.join(CHANNEL, CAROL, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=987654321)
    private: set[str] = set()
    for _ in range(400):  # until someone has been told a secret
        await service.auto(CHANNEL)
        private = await _private_only(service, CHANNEL)
        if private:
            break
    assert (await service.table_info(CHANNEL)).status == "running"
    assert private, f"{game} has told nobody a secret yet; the check would be empty"
    data = await service.history.export(CHANNEL)
    assert _leaks(data, 987654321, private) == []


async def test_the_full_record_comes_once_the_game_is_finished(service):
    await seated(service, "alice", "bob", seed=31)
    await service.controls.set_automatic(CHANNEL, ALICE, "bob", True)
    await service.controls.set_automatic(CHANNEL, ALICE, "alice", True)  # played to the end
    data = await service.history.export(CHANNEL)
    assert data["format"] == "chancellery-record/1" and data["seed"] == 31 and data["actions"]
    assert replay(games.get("envoys"), Record.model_validate(data)).ok


async def test_an_abandoned_games_secrets_stay_secret_and_it_cannot_be_continued(service):
    await seated(service, "alice", "bob", seed=5150)
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    # what an older version exported, to anyone, for an abandoned game
    old_style = {**await service.history.operator_export(CHANNEL), "status": "abandoned"}
    await service.abandon(CHANNEL, ALICE)

    data = await service.history.export(CHANNEL)
    assert data["format"] == PUBLIC_FORMAT and data["status"] == "abandoned"
    assert "secrets stay secret" in data["note"]
    assert _leaks(data, 5150, {"You committed 2."}) == []
    with pytest.raises(TableError, match="secrets stay secret"):
        await service.history.publish(CHANNEL, ALICE)
    with pytest.raises(TableError, match="abandoned game cannot be continued"):
        await service.history.import_record(OTHER, 9, BOB, "bob", old_style)
    with pytest.raises(TableError, match="cannot be replayed or continued"):
        await service.history.import_record(OTHER, 9, BOB, "bob", data)
    assert await service.table_info(OTHER) is None


async def test_the_console_exports_only_the_public_record_before_the_end(store, tmp_path):
    path = tmp_path / "mid.json"
    script = tmp_path / "mid.script"
    script.write_text(
        "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:8675309\n"
        f"as alice /envoys commit value:3\nas alice /game export\nas alice /game export file:{path}\n",
        encoding="utf-8",
    )
    out = io.StringIO()
    rc = await run_console(TableService(store, clock=Clock()), script=script, stdout=out, stdin=io.StringIO())
    assert rc == 0, out.getvalue()
    printed = out.getvalue().split("as alice /game export", 1)[1]
    written = json.loads(path.read_text(encoding="utf-8"))
    for text in (printed, json.dumps(written)):
        assert "8675309" not in text and '"seed"' not in text and '"actions"' not in text
        assert "You committed 3" not in text
    assert written["format"] == PUBLIC_FORMAT


async def test_replay_of_a_public_record_says_why_it_cannot(service, tmp_path, capsys):
    await seated(service, "alice", "bob")
    path = tmp_path / "public.json"
    path.write_text(json.dumps(await service.history.export(CHANNEL)), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "public record" in err and "cannot be replayed" in err and "once it has ended" in err


def test_the_operator_exports_a_running_game_from_the_command_line(tmp_path, capsys):
    from bot.store import open_store

    db = tmp_path / "op.sqlite3"

    async def running_game() -> None:
        store = await open_store(db)
        try:
            await seated(TableService(store, clock=Clock()), "alice", "bob", seed=99)
        finally:
            await store.close()

    asyncio.run(running_game())
    out = tmp_path / "full.json"
    assert main(["export", "--db", str(db), "--channel", str(CHANNEL), str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["seed"] == 99 and record["secret"] is True
    assert "keep it from the players" in capsys.readouterr().out
    assert main(["export", "--db", str(db), "--channel", "5", str(tmp_path / "none.json")]) == 2
    assert "There is no table in this channel." in capsys.readouterr().err
    assert not Path(tmp_path / "none.json").exists()


class Leaky(tinygame.Envoys):
    """Envoys whose automatic player and default order fail quoting a hidden fact."""

    id = "leaky"
    title = "Leaky"

    def bot_action(self, state, seat, rng):
        raise RuntimeError(f"the hidden commits are {state.commits}")

    def default_action(self, state, seat):
        raise KeyError(f"no default: commits {state.commits}")


async def test_an_engine_failure_is_announced_without_its_text(service, registry, clock, caplog):
    from bot.process.logsafe import WITHHELD

    registry.register(Leaky())
    await service.lobby.create(CHANNEL, 9, "leaky", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=7)
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    out = await service.controls.set_automatic(CHANNEL, ALICE, "alice", True)  # alice's automatic move fails
    (notice,) = [p for p in out.public() if "failed" in p.text]
    assert "an error in the game's program; the details are in the bot's log" in notice.text
    assert "commits" not in notice.text and "s2" not in notice.text

    await service.controls.set_automatic(CHANNEL, ALICE, "alice", False)
    await service.controls.resume(CHANNEL, ALICE)
    clock.advance(48 * 3600)  # alice's default order fails too
    (out,) = await service.deadlines.tick()
    text = "\n".join(p.text for p in out.posts)
    assert "The default order for alice failed (an error in the game's program" in text
    assert "commits" not in text
    # the log has where it failed, not what the exception said
    assert "automatic move failed" in caplog.text and "default order failed" in caplog.text
    assert caplog.text.count(WITHHELD) >= 2 and "in bot_action" in caplog.text
    assert "'s2': 2" not in caplog.text  # bob's hidden commit (the code's source lines may show)


async def test_a_join_preference_must_name_a_nation_of_the_game(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    for text in ("@everyone", "x" * 2000, "Narnia"):
        with pytest.raises(TableError, match="has no nation or seat called") as refused:
            await service.lobby.join(CHANNEL, BOB, "bob", preference=text)
        assert "Choose one of: " in str(refused.value) and "France" in str(refused.value)
        assert len(str(refused.value)) < 400  # 2,000 typed characters are not echoed back
    assert [s.name for s in (await service.table_info(CHANNEL)).seats] == ["alice"]
    out = await service.lobby.join(CHANNEL, BOB, "bob", preference="germany")
    assert "hoping for Germany" in out.posts[0].text  # in the game's words, not as typed


async def test_an_imported_games_free_seat_must_be_named_right(service):
    await seated(service, "alice", "bob")
    await service.history.import_record(OTHER, 9, BOB, "bob", await service.history.operator_export(CHANNEL))
    with pytest.raises(TableError, match="No free seat is called “Narnia”. Free: s1, s2."):
        await service.lobby.join(OTHER, ALICE, "alice", preference="Narnia")
    out = await service.lobby.join(OTHER, ALICE, "alice", preference="s2")
    assert out.reply == "You play s2."


# -- logs -------------------------------------------------------------------------------------

WHOLE_GAMES = "".join(
    f"as alice /game new game:{game}\nas bob /game join\nas carol /game join\n"
    f"as alice /game start seed:{seed}\nauto all\n"
    for game, seed in (("crisis1914", 8675309001), ("schonbrunn", 8675309002), ("origins", 8675309003))
)


@pytest.mark.whole_game
def test_whole_games_at_debug_log_no_seed_and_no_private_line(tmp_path):
    """Three whole games through the console at log_level DEBUG: the log (stderr) holds
    none of the seeds and none of the lines told to one player (Hands, sheets, commits,
    face-down Delegates). Before, aiosqlite logged every saved state, seed included."""
    script = tmp_path / "games.script"
    script.write_text(WHOLE_GAMES, encoding="utf-8")
    env = {**os.environ, "CHANCELLERY_LOG_LEVEL": "DEBUG", "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--script", str(script), "--db", str(tmp_path / "g.sqlite3")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("Final standings") == 3  # each game played to its end
    assert "DEBUG" in done.stderr  # the level took effect: the check is not vacuous
    lines = done.stdout.splitlines()
    public = {line for line in lines if not line.startswith("[")}
    private = {
        text
        for line in lines
        if line.startswith("[private to ")
        and len(text := line.split("] ", 1)[1].strip()) >= 15
        and text not in public
    }
    assert len(private) > 100, "too few private lines: the games told nobody anything"
    leaks = [seed for seed in ("8675309001", "8675309002", "8675309003") if seed in done.stderr]
    leaks += [text for text in private if text in done.stderr]
    assert leaks == [], leaks[:5]


def test_an_exception_from_the_games_code_is_logged_without_its_message(caplog):
    from bot.process.logsafe import WITHHELD, protect

    stream = io.StringIO()
    handler = protect(logging.StreamHandler(stream))
    log = logging.getLogger("tests.secrets")
    log.addHandler(handler)
    try:
        g = games.get("envoys")
        state = g.setup(["s1", "s2"], g.Options(), 1)
        state.commits["s2"] = 3
        try:
            g.step(state, "s1", {"kind": "commit", "value": 7})  # IllegalAction from the game's code
        except Exception:
            log.exception("a game failed")
        try:
            raise OSError("disk full at /data/chancellery.sqlite3")
        except OSError:
            log.exception("the store failed")
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert "Commit 1, 2 or 3, not 7" not in text and WITHHELD in text
    assert "tinygame.py" in text  # the traceback stays: where it failed
    assert "disk full at /data/chancellery.sqlite3" in text  # not the game's: kept
