"""A full disk refuses the action in words, keeps every acknowledged one, and the bot goes
on once there is room again (docs/reliability.md). The database lives
on a 2 MB file system of its own, mounted in a private namespace so no root is needed."""

from __future__ import annotations

import pathlib

import pytest

from .conftest import PYTHON, in_namespace, namespace_reason

ROOT = pathlib.Path(__file__).resolve().parents[2]
NO_NAMESPACE = namespace_reason()

CHILD = '''
import asyncio, os, sqlite3, sys
from pathlib import Path
from bot.store import open_store
from bot.service.tables import TableError, TableService

async def main(folder):
    store = await open_store(folder / "db.sqlite3")
    service = TableService(store)
    # fill the file system to 300 KB of room: a few saves fit, then none
    room = os.statvfs(folder)
    (folder / "filler").write_bytes(bytes(max(0, room.f_bavail * room.f_frsize - 300_000)))
    acked, refusals, channel = 0, [], 0
    while len(refusals) < 3:
        channel += 1
        try:
            await service.lobby.create(channel, 1, "crisis1914", 1, "p1")
            await service.lobby.join(channel, 2, "p2")
            await service.lobby.start(channel, 1, seed=channel)
        except TableError as exc:
            refusals.append(str(exc))
            continue
        while len(refusals) < 3:
            try:
                out = await service.auto(channel)
            except TableError as exc:
                refusals.append(str(exc))
                continue
            if out is None:
                break
            acked += 1
    print("REFUSED", refusals[0])
    (folder / "filler").unlink()  # room again: the same process goes on
    for _ in range(5):
        if await service.auto(channel) is not None:
            acked += 1
    await store.close()
    conn = sqlite3.connect(folder / "db.sqlite3")
    print("INTEGRITY", conn.execute("PRAGMA integrity_check").fetchone()[0])
    print("STORED", conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0], "ACKED", acked)

asyncio.run(main(Path(sys.argv[1])))
'''


@pytest.mark.skipif(NO_NAMESPACE is not None, reason=f"disk-full test: {NO_NAMESPACE}")
def test_a_full_disk_refuses_in_words_and_loses_nothing(tmp_path):
    fs = tmp_path / "fs"
    fs.mkdir()
    child = tmp_path / "child.py"
    child.write_text(CHILD, encoding="utf-8")
    done = in_namespace(f"mount -t tmpfs -o size=2m tmpfs {fs}\ncd {ROOT}\n{PYTHON} {child} {fs}", timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.strip().splitlines())
    assert lines["REFUSED"].startswith("The bot's disk is full, so this was not saved and nothing changed.")
    assert lines["INTEGRITY"] == "ok"
    stored, _, acked = lines["STORED"].split()
    assert int(stored) == int(acked) > 0
    assert "disk holding the database is full" in done.stderr  # the operator's log says so
