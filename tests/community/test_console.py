"""The console's /community verbs: the archive and ratings of tables outside any server."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from bot.console.console import run_console
from bot.service.tables import TableService
from tests.service.conftest import Clock

SCRIPT = """\
as alice /game new game:envoys
as bob /game join
as alice /community rated rated:yes
as alice /game start seed:7
auto all
as carol /community history
as carol /community leaderboard game:envoys
as bob /community profile
as bob /community history id:1
as alice /community mydata
as alice /community forget confirm:me
as carol /community history
"""


async def test_a_console_game_reaches_the_history_the_leaderboard_and_a_profile(store, tmp_path: Path):
    script = tmp_path / "community.script"
    script.write_text(SCRIPT, encoding="utf-8")
    out = io.StringIO()
    rc = await run_console(TableService(store, clock=Clock()), script=script, stdin=io.StringIO(), stdout=out)
    text = out.getvalue()
    assert rc == 0, text
    assert "[private to alice] This table is rated" in text
    histories = re.findall(r"\[private to carol\] \*\*Finished games\*\*.*\n(.*\n.*)", text)  # an entry's 2 lines
    assert len(histories) == 2 and "alice" in histories[0] and "bob" in histories[0]
    assert "alice" not in histories[1] and "a former member" in histories[1]
    assert "**Envoys (test game) leaderboard**" in text and " · 1 game" in text
    assert "**Envoys (test game)**: 1 finished" in text
    assert "#1 Envoys (test game)**, finished" in text and "bob as s" in text
    lines = text.splitlines()
    start = lines.index("[private to alice] {")
    end = lines.index("[private to alice] }", start)
    data = json.loads("\n".join(line.removeprefix("[private to alice] ") for line in lines[start : end + 1]))
    assert data["format"] == "chancellery-member-data/1" and len(data["finished_games"]) == 1
