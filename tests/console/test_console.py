"""The console: scripted whole games of the test game over a real SQLite file."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console.console import run_console, user_id_for
from bot.service.tables import TableService
from bot.store import open_store
from tests.service.conftest import Clock

SCRIPT = Path(__file__).with_name("envoys.script")


@pytest.fixture
async def store(tmp_path):
    s = await open_store(tmp_path / "console.sqlite3")
    yield s
    await s.close()


async def run(
    store, text: str | None = None, *, script: Path | None = None, stdin: str = "", clock=None
) -> tuple[int, str]:
    if text is not None:
        script = Path(store.path).with_name(f"s{abs(hash(text))}.script")
        script.write_text(text, encoding="utf-8")
    out = io.StringIO()
    rc = await run_console(
        TableService(store, clock=clock or Clock()), script=script, stdin=io.StringIO(stdin), stdout=out
    )
    return rc, out.getvalue()


async def test_a_scripted_whole_game_runs_to_its_standings(store):
    rc, out = await run(store, script=SCRIPT)
    assert rc == 0
    # the standings agree with the final scores on the board (s1 is alice, s2 is bob)
    final = re.findall(r"round 3, over\ns1: (\d+)\ns2: (\d+)", out)[-1]
    scores = sorted([(int(final[0]), "alice"), (int(final[1]), "bob")], reverse=True)
    ranks = [1, 1 if scores[0][0] == scores[1][0] else 2]
    expected = "".join(f"{r}. **{name}** · {score}\n" for r, (score, name) in zip(ranks, scores, strict=True))
    assert "**Final standings** — three rounds played\n" + expected in out
    # the refusals in the script are shown to their caller only
    assert "[private to carol] Refused: You are not seated at this table." in out
    assert "[private to alice] Refused: It is not your turn: bob owes commit." in out
    assert out.rstrip().endswith("[private to bob] Refused: The game is over.")
    # `wait` ran the deadlines: the diplomacy phase after 10 minutes, bob's commit after a day
    assert out.count("Time is up. Played for those who still owed: bob (the default order).") == 2
    assert "Due in 10 min." in out and "<t:" not in out  # timestamps read as words here


async def test_secrets_appear_only_in_lines_labelled_for_their_owner(store):
    _, out = await run(store, script=SCRIPT)
    for line in out.splitlines():
        if "You committed" in line or "Your commit" in line:
            assert re.match(r"\[private to (alice|bob)\] ", line), line
    # bob's secret commit of round 3 reaches only bob before the reveal
    assert "[private to bob] You committed 2." in out
    assert "[private to alice] You committed 2." in out  # alice's own, in round 1


async def test_an_unreadable_line_is_reported_and_fails_the_script(store):
    rc, out = await run(store, "as alice /game new game:envoys\nas alice game start\nwait soon\n")
    assert rc == 1
    assert "! expected /<command>" in out and "! line 2 of" in out and "! wait takes minutes" in out


async def test_an_unknown_game_command_names_the_right_group(store):
    _, out = await run(
        store,
        "as alice /game new game:envoys\nas bob /game join\nas alice /game start\n"
        "as alice /origins bid country:GER\nas alice /envoys bid\n",
    )
    assert "[private to alice] Refused: This table plays envoys; its commands are /envoys …." in out
    assert (
        "[private to alice] Refused: There is no /envoys bid. Commands: commit, press, yield, ready, hand."
        in out
    )


async def test_interactive_lines_act_as_the_current_user_and_as_switches(store):
    stdin = "/game new game:envoys\nas bob\n/game join\n/game status\nquit\n"
    rc, out = await run(store, stdin=stdin)
    assert rc == 0
    assert "[private to you] Table created" in out and "[private to bob] You are seated." in out
    assert "1. you\n2. bob" in out


async def test_a_second_console_session_continues_the_saved_table(store):
    clock = Clock()
    await run(
        store, "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:3\n", clock=clock
    )
    rc, out = await run(store, "as bob /envoys commit value:2\nas bob /game me\n", clock=clock)
    assert rc == 0 and "[private to bob] You committed 2." in out
    assert "[private to bob] Your commit: 2" in out


def test_console_user_ids_are_stable_per_name_across_processes():
    # Python's hash() differs per process; a saved console table must keep its players.
    assert user_id_for("Alice") == user_id_for("alice") != user_id_for("bob")
    code = "from bot.console.console import user_id_for; print(user_id_for('alice'))"
    root = Path(__file__).resolve().parents[2]
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
        )
        assert int(done.stdout) == user_id_for("alice")


async def test_long_game_controls_from_the_console(store, tmp_path):
    record = tmp_path / "game.json"
    rc, out = await run(
        store,
        "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:3\n"
        "as alice /envoys commit value:2\nas alice /game undo\nas bob /game pause\nas alice /game pause\n"
        "as alice /game resume\nas alice /game substitute seat:bob member:dave\nas alice /game bot seat:dave\n"
        "as alice /game publish\nas dave /game mine\nas dave /game notify mode:mention\n"
        f"as alice /game export file:{record}\n",
    )
    assert rc == 0, out
    assert "alice took back alice's last action." in out
    assert "bob asks to pause the game" in out and "alice paused the game" in out
    assert "[private to dave] **Envoys (test game)**: you now play **s2** from bob." in out
    assert "[private to alice] Refused: The full history" in out  # not before the end
    assert "[private to dave] #table Envoys (test game) as s2" in out  # the console names its channel
    assert "[private to dave] Turn notices and reminders come as a mention" in out
    assert '"game": "envoys"' in record.read_text()


async def test_card_reads_a_content_entry_privately_in_the_console(store):
    rc, out = await run(store, "as anna /game card name:conrad\nas anna /game card name:nothing-like-this\n")
    assert rc == 0
    assert "[private to anna] 4 DP, National Interests" in out
    assert "[private to anna] Refused: Nothing in any game is called “nothing-like-this”" in out


async def test_help_explains_a_games_turn_and_every_console_line(store):
    rc, out = await run(store, "help\nhelp crisis\nhelp chess\n")
    assert rc == 1  # `help chess` names no game
    assert "**How a table works here**" in out and "wait <minutes>" in out
    assert "**Crisis: 1914: a Week, step by step**" in out and "`/crisis play card:Conrad`" in out
    assert "`/crisis refresh`: " in out  # every command of the game, from its declaration
    rc, out = await run(store, "as anna /game help game:origins aid:yes\n")
    assert "[private to anna] **Origins of World War I, player aid**" in out


async def test_console_options_are_checked_like_discords(store):
    """An option a command does not take, or a yes/no given anything
    else, is refused and fails the script, never silently ignored."""
    for line, said in [
        ("as anna /game join natoin:Russia", "! /game join has no option natoin: (it takes nation:, preference:)"),
        ("as anna /game bot off:maybe", "! off: takes yes or no, not 'maybe'"),
        ("as anna /game new game:crisis1914 congres:no", "Crisis: 1914 has no option “congres”"),
        ("as anna /game new game:crisis1914 congress:sometimes", "congress takes yes or no, not “sometimes”"),
    ]:
        rc, out = await run(store, line + "\n")
        assert said in out, out
    script = (
        "as anna /game new game:crisis1914\nas bob /game join\nas anna /game start seed:7\n"
        "as anna /crisis pass loudly:yes\nas anna /crisis place belligerence:perhaps\n"
    )
    rc, out = await run(store, script)
    assert rc == 1
    assert "! /crisis pass has no option loudly: (it takes no options)" in out
    assert "! belligerence: takes yes or no, not 'perhaps'" in out


@pytest.mark.processes
def test_ctrl_c_at_the_prompt_ends_the_console_at_once(tmp_path):
    import signal
    import time

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "c.sqlite3")],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seen = ""
        deadline = time.monotonic() + 60
        while "you> " not in seen and time.monotonic() < deadline:
            seen += proc.stdout.read(1)
        assert "you> " in seen, seen
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        proc.kill()


async def test_the_replay_page_is_written_from_the_console_after_the_end_only(store, tmp_path):
    page = tmp_path / "replay.html"
    early = "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:3\n"
    rc, out = await run(store, early + f"as alice /game export format:html file:{page}\n")
    assert rc == 0 and "Refused: The replay page comes when the game ends" in out and not page.exists()
    rc, out = await run(store, "auto all\n" + f"as alice /game export format:html file:{page}\n")
    assert rc == 0, out
    assert f"[private to alice] The replay page is in {page}" in out
    assert page.read_bytes().startswith(b"<!DOCTYPE html>")
    rc, out = await run(store, "as alice /game export format:pdf\n")
    assert rc == 1 and "format: takes json or html, not 'pdf'" in out


async def test_a_misspelt_game_verb_is_answered_with_the_nearest_verbs(store):
    _, out = await run(store, "as alice /game new game:envoys\nas alice /game statsu\n")
    assert "There is no /game statsu. Did you mean /game status" in out
    assert "/game takes one of: new, join" in out  # the verbs still follow
