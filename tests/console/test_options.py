"""The console checks every typed option as Discord does, from the one description both
front ends read (bot/service/verbs.py; a game's own commands from its engine), and says
each refusal in words: never a traceback, and the console goes on to the next line."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console.console import Console, user_id_for
from bot.service.tables import TableService
from bot.store import open_store
from tests.service.conftest import Clock

from .test_console import run

ROOT = Path(__file__).resolve().parents[2]
TOO_BIG = "99999999999999999999"  # 20 digits: more than SQLite's INTEGER and Discord's 2^53
PAGE = "page: takes a whole number from 1 to 9,007,199,254,740,991"
STILL_HERE = "[private to zoe] You are not seated at any open table."
FORGET_REFUSED = "Refused: Nothing was removed. To be forgotten, type /community forget confirm:me."


@pytest.fixture
async def store(tmp_path):
    s = await open_store(tmp_path / "console.sqlite3")
    yield s
    await s.close()


async def said(store, line: str, before: str = "") -> tuple[int, str]:
    """Run `before`, then `line`, then a line that must still run: the console went on."""
    rc, out = await run(store, before + line + "\nas zoe /game mine\n")
    assert "Traceback" not in out
    assert out.rstrip().endswith(f"> as zoe /game mine\n{STILL_HERE}"), out
    return rc, out


@pytest.mark.parametrize(
    "line, refusal",
    [
        (f"/community history page:{TOO_BIG}", PAGE + f", not '{TOO_BIG}'"),
        ("/community history page:-5", PAGE + ", not '-5'"),
        ("/community history page:9007199254740992", PAGE),  # one past Discord's limit
        (f"/community leaderboard game:envoys page:{TOO_BIG}", PAGE),
        (f"/community tables page:{TOO_BIG}", PAGE),
        (f"/game log page:{TOO_BIG}", PAGE),
        (f"/community history id:{TOO_BIG}", "id: takes a whole number from 1 to 9,007,199,254,740,991"),
        ("/community history id:abc", "id: takes a whole number from 1 to 9,007,199,254,740,991, not 'abc'"),
        ("/community history id:-1", "id: takes a whole number from 1 to 9,007,199,254,740,991, not '-1'"),
        ("/community history id:1.5", "id: takes a whole number"),
        ("/community history id:²", "id: takes a whole number"),  # a digit to isdigit(), not to Discord
    ],
)
async def test_a_whole_number_out_of_range_or_not_a_number_is_refused_in_words(store, line, refusal):
    rc, out = await said(store, f"as alice {line}")
    assert f"! {refusal}" in out
    assert rc == 1  # a script's refused line fails the script, as any unreadable line does


async def test_the_largest_page_discord_allows_is_answered(store):
    rc, out = await said(store, "as alice /community history page:9007199254740991")
    assert rc == 0 and "[private to alice] No finished games on this page." in out


@pytest.mark.parametrize(
    "line, refusal",
    [
        ("/community rated rated:maybe", "rated: takes yes or no, not 'maybe'"),
        ("/community profile hidden:maybe", "hidden: takes yes or no, not 'maybe'"),
        ("/community tables open_seat:perhaps", "open_seat: takes yes or no, not 'perhaps'"),
        ("/game help aid:sure", "aid: takes yes or no, not 'sure'"),
        ("/deadline nudge:please", "nudge: takes yes or no, not 'please'"),
    ],
)
async def test_a_yes_or_no_given_anything_else_is_refused_not_read_as_no(store, line, refusal):
    rc, out = await said(store, f"as alice {line}", "as alice /game new game:envoys\n")
    assert f"! {refusal}" in out and rc == 1


async def test_hidden_maybe_leaves_the_profile_as_it_was(store):
    await said(store, "as bob /community profile hidden:yes")
    rc, out = await said(store, "as bob /community profile hidden:maybe\nas bob /community profile")
    assert "! hidden: takes yes or no, not 'maybe'" in out
    assert "**bob** (hidden from the leaderboards)" in out  # still hidden: maybe was not read as no


async def test_rated_maybe_leaves_the_table_rated(store):
    rc, out = await said(store, "as alice /community rated rated:maybe", "as alice /game new game:envoys\n")
    assert "! rated: takes yes or no, not 'maybe'" in out
    assert (await store.get_table(1)).meta.get("rated", True) is True


@pytest.mark.parametrize(
    "line, refusal",
    [
        ("/community rated", "! /community rated needs rated: (yes or no)"),
        ("/community forget", "! /community forget needs confirm:"),
        ("/community leaderboard", "! /community leaderboard needs game:"),
        ("/community watch", "! /community watch needs game:"),
        ("/game rules", "! /game rules needs game:"),
        ("/game card", "! /game card needs name:"),
        ("/game new", "! /game new needs game:"),
        ("/envoys commit", "! /envoys commit needs value: (a whole number from 1 to 3)"),
    ],
)
async def test_a_required_option_left_out_is_refused(store, line, refusal):
    before = "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:3\n"
    rc, out = await said(store, f"as alice {line}", before if "envoys" in line else "")
    assert refusal in out and rc == 1


@pytest.mark.parametrize(
    "line, refusal",
    [
        ("/game export format:pdf", "! format: takes json or html, not 'pdf'"),
        ("/game notify mode:pigeon", "! mode: takes dm or mention, not 'pigeon'"),
        ("/game log pages:2", "! /game log has no option pages: (it takes page:)"),
        ("/community history ID:abc", "! id: takes a whole number"),  # option names are case-blind
        ("/community mydata all:yes", "! /community mydata has no option all: (it takes no options)"),
        ("/deadline hours:1000", "! hours: takes a number from 0.25 to 720, not '1000'"),
        ("/deadline hours:nan", "! hours: takes a number from 0.25 to 720, not 'nan'"),
        ("/game session hours:soon", "! hours: takes a number, not 'soon'"),
        (f"/game start seed:{TOO_BIG}", "! seed: takes a whole number from -9,223,372,036,854,775,808"),
        ("/envoys commit value:abc", "! value: takes a whole number from 1 to 3, not 'abc'"),
        ("/envoys commit value:4", "! value: takes a whole number from 1 to 3, not '4'"),
    ],
)
async def test_a_choice_not_offered_an_unknown_option_or_a_wrong_type_is_refused(store, line, refusal):
    before = "as alice /game new game:envoys\nas bob /game join\n"
    if "envoys" in line:
        before += "as alice /game start seed:3\n"
    rc, out = await said(store, f"as alice {line}", before)
    assert refusal in out and rc == 1


async def test_a_game_command_receives_the_values_discord_would_send(store):
    before = "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:3\n"
    rc, out = await said(store, "as alice /envoys commit value:+2", before)
    assert rc == 0 and "[private to alice] You committed 2." in out


@pytest.mark.parametrize("word", ["no", "yes", "ME PLEASE"])
async def test_forget_without_confirm_me_is_refused_in_discords_words_and_erases_nothing(store, word):
    rc, out = await said(store, f"as alice /community forget confirm:{word!r}", "as alice /game new game:envoys\n")
    assert f"[private to alice] {FORGET_REFUSED}" in out
    assert [s.name for s in await store.get_seats(1)] == ["alice"]
    rc, out = await said(store, "as alice /community forget confirm:me")
    assert [s.name for s in await store.get_seats(1)] == ["a former member"]


async def test_deadline_takes_exactly_one_of_its_tools_as_discord_says(store):
    before = "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:3\n"
    rc, out = await said(store, "as alice /deadline hours:3 end_now:yes", before)
    assert "[private to alice] Refused: Give exactly one of hours:, end_now:True or nudge:True." in out
    assert "Time is up" not in out  # the phase was not ended
    rc, out = await said(store, "as alice /game deadline nudge:yes")  # the console's older form
    assert rc == 0 and "Refused" not in out


async def test_refusals_leave_an_interactive_console_running(store):
    """At the prompt, every refused line is answered and the next one is read."""
    lines = [
        f"as alice /community history page:{TOO_BIG}",
        f"as alice /community history id:{TOO_BIG}",
        "as alice /community forget confirm:no",
        "as alice /community rated rated:maybe",
        "as zoe /game mine",
    ]
    out = io.StringIO()
    from bot.console.console import run_console

    rc = await run_console(
        TableService(store, clock=Clock()), stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out
    )
    text = out.getvalue()
    assert rc == 0 and "Traceback" not in text
    assert text.count(f"! {PAGE}") == 1 and "! id: takes a whole number" in text
    assert FORGET_REFUSED in text and STILL_HERE in text


async def test_the_console_object_answers_every_refused_line_and_keeps_its_user(store):
    out = io.StringIO()
    console = Console(TableService(store, clock=Clock()), out, "alice")
    assert not await console.line(f"/community history page:{TOO_BIG}")
    assert await console.line("/community forget confirm:yes")  # a refusal is an answer, not a bad line
    assert console.user == "alice" and user_id_for("alice") in console.names


def test_a_real_console_process_refuses_in_words_and_keeps_going(tmp_path):
    """`python -m bot console`: the lines that used to end it with a traceback are answered."""
    script = tmp_path / "hostile.script"
    script.write_text(
        f"as alice /community history page:{TOO_BIG}\n"
        f"as alice /community history id:{TOO_BIG}\n"
        f"as alice /community leaderboard game:crisis1914 page:{TOO_BIG}\n"
        "as alice /community forget confirm:no\n"
        "as alice /game new game:crisis1914\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "c.sqlite3"), "--script", str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert done.returncode == 1  # three lines could not be read; the script says so and goes on
    assert done.stdout.count(f"! {PAGE}") == 2 and "! id: takes a whole number" in done.stdout
    assert FORGET_REFUSED in done.stdout
    assert "! line 3 of" in done.stdout and "! line 5 of" not in done.stdout
    assert "> as alice /game new game:crisis1914" in done.stdout and "Crisis: 1914" in done.stdout.split("new game")[-1]


async def test_substitute_without_options_asks_for_one_and_half_an_order_is_refused_as_discord_says(store):
    before = "as alice /game new game:envoys\nas bob /game join\nas alice /game start seed:3\n"
    rc, out = await said(store, "as bob /game substitute seat:alice", before)
    assert (
        "[private to bob] Refused: Name the member who takes the seat over, or give no options to ask for a "
        "substitute yourself." in out
    )
    rc, out = await said(store, "as alice /game substitute member:carol")
    assert "[private to alice] Refused: Choose the seat to hand over." in out
    rc, out = await said(store, "as bob /game substitute")
    assert rc == 0 and "Refused" not in out and "substitute" in out.split("> as bob /game substitute")[-1]


async def test_only_ones_own_profile_is_hidden_in_the_console_as_in_discord(store):
    rc, out = await said(store, "as alice /community profile member:bob hidden:yes\nas bob /community profile")
    assert "[private to alice] Refused: Only your own profile can be hidden or shown." in out
    assert "**bob** (hidden" not in out
