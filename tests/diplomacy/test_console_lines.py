"""/diplomacy in the console: every verb reaches the service, options are checked as
Discord checks them, and what is private is printed labelled for its reader alone."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console.console import run_console
from bot.service.tables import TableService

from .conftest import Clock

SCRIPT = """\
as anna /game new game:crisis1914
as boris /game join
as carl /game join
as anna /game start seed:5
as anna /diplomacy show item:forgach to:boris
as anna /diplomacy show item:Hoyos to:boris
as anna /diplomacy pact text:"No attack on Ruritania" with:boris until:"week 2"
as boris /diplomacy pact confirm:1
as carl /diplomacy pacts
as boris /diplomacy pacts
"""


async def _run(store, text: str) -> tuple[int, str]:
    script = Path(store.path).with_name("diplomacy.script")
    script.write_text(text, encoding="utf-8")
    out = io.StringIO()
    rc = await run_console(TableService(store, clock=Clock()), script=script, stdin=io.StringIO(""), stdout=out)
    return rc, out.getvalue()


async def test_the_console_shows_and_records_pacts_with_private_lines_for_their_readers(store):
    rc, out = await _run(store, SCRIPT)
    assert rc == 0, out
    lines = out.splitlines()
    assert "anna showed something to boris." in lines  # the one public line of a showing
    shown = [line for line in lines if "Forgách" in line and "checked by the referee" in line]
    assert shown and all(line.startswith("[private to boris] ") for line in shown)
    assert "[private to anna] Refused: You do not hold Hoyos: your Hand is Mensdorff, Conrad, Forgách." in lines
    ruritania = [line for line in lines if "Ruritania" in line]
    assert ruritania and all(line.startswith(("[private to anna]", "[private to boris]", "> ")) for line in ruritania)
    assert "[private to carl] You are party to no pact at this table." in out
    assert "**Pact 1** (active) with anna" in out


async def test_options_are_checked_as_discord_checks_them(store):
    rc, out = await _run(
        store,
        "as anna /diplomacy pact confirm:none\n",
    )
    assert rc != 0 and "confirm: takes a whole number" in out
    rc, out = await _run(store, "as anna /diplomacy show item:x\n")
    assert rc != 0 and "/diplomacy show needs to:" in out
    rc, out = await _run(store, "as anna /diplomacy shout\n")
    assert rc != 0 and "diplomacy" in out and "show" in out
