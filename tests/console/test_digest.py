"""The daily digest in the console: `/game notify digest:` and `wait` printing the digest
when its time comes (the service's tests are in tests/service/test_digest.py)."""

from __future__ import annotations

import pytest

from bot.store import open_store

from .test_console import run

# the console's clock starts at 1_800_000_000: Friday 15 January 2027, 08:00 UTC
SCRIPT = """\
as alice /game new game:envoys
as bob /game join
as bob /game notify digest:20:00
as bob /game notify digest:8pm
as alice /game start seed:7
wait 600
wait 120
"""


@pytest.fixture
async def store(tmp_path):
    s = await open_store(tmp_path / "console.sqlite3")
    yield s
    await s.close()


async def test_the_console_sets_a_digest_and_prints_it_when_its_time_comes(store):
    rc, out = await run(store, SCRIPT)
    assert rc == 0
    assert (
        "[private to bob] Turn notices and reminders come as a DM; timezone UTC; no quiet hours. "
        "Your digest comes daily at 20:00 UTC; turn notices now come only for decisions due before "
        "the next digest." in out
    )
    assert "[private to bob] Refused: Give the digest time as HH:MM, e.g. 08:00" in out
    before, after = out.split("wait 600")[1].split("wait 120")
    assert "Your daily digest" not in before  # 18:00: not yet
    assert "[private to bob] **Your daily digest** (20:00 UTC), 1 table:" in after
    assert "[private to bob] - You owe commit, due Saturday 16 January, 08:00." in after
    assert "[private to alice] **Your daily digest**" not in out
