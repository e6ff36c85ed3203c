"""The data folder removed under a running bot: nothing more is acknowledged, the player
and the log are told, what the bot still held is copied out, and the next start refuses
to begin an empty database in its place (docs/reliability.md)."""

from __future__ import annotations

import logging
import shutil
import sqlite3

import pytest

from bot.service.tables import TableError, TableService
from bot.store import DatabaseUnusable, open_store
from bot.store.guard import LOST_MESSAGE, _read_marker, marker_path

CHANNEL, ALICE, BOB = 100, 1, 2


@pytest.fixture
async def setup(registry, tmp_path):
    db = tmp_path / "data" / "tables.sqlite3"
    store = await open_store(db)
    service = TableService(store)
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    yield db, store, service
    await store.close()


async def test_an_action_after_the_folder_is_removed_is_refused_and_told(setup, caplog):
    db, store, service = setup
    await service.lobby.start(CHANNEL, ALICE, seed=4)
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})  # acknowledged before the loss
    shutil.rmtree(db.parent)
    with caplog.at_level(logging.ERROR), pytest.raises(TableError) as refused:
        await service.command(CHANNEL, BOB, "commit", {"value": "3"})
    assert str(refused.value) == LOST_MESSAGE
    assert store.lost
    [record] = [r for r in caplog.records if "while the bot was running" in r.getMessage()]
    assert str(db) in record.getMessage() and "removed with its folder" in record.getMessage()
    # and every later change is refused at once, without touching the store
    with pytest.raises(TableError, match="removed while it was running"):
        await service.command(CHANNEL, ALICE, "press", {})
    assert await service.deadlines.tick() == []
    # the copy beside the recreated marker holds everything acknowledged
    rescued = _read_marker(marker_path(db))["rescued"]
    conn = sqlite3.connect(rescued)
    actions = conn.execute("SELECT seat, action FROM actions WHERE channel_id=?", (CHANNEL,)).fetchall()
    conn.close()
    assert len(actions) >= 1 and '"value":2' in actions[0][1].replace(" ", "")
    # the next start refuses, and says where the copy is
    with pytest.raises(DatabaseUnusable) as start:
        await open_store(db)
    assert "the file is missing" in str(start.value) and rescued in str(start.value)
    assert not db.exists()


async def test_an_idle_bot_notices_at_its_heartbeat(setup, caplog):
    db, store, service = setup
    db.unlink()
    with caplog.at_level(logging.ERROR):
        await service.deadlines.heartbeat()
    assert store.lost
    assert any(str(db) in r.getMessage() and "removed" in r.getMessage() for r in caplog.records)
    with pytest.raises(TableError, match="removed while it was running"):
        await service.lobby.join(CHANNEL, 3, "carol")
    with pytest.raises(TableError, match="removed while it was running"):
        await service.lobby.create(CHANNEL + 1, 9, "envoys", 3, "carol")
    await service.deadlines.heartbeat()  # quiet after the first notice
    assert sum("while the bot was running" in r.getMessage() for r in caplog.records) == 1


async def test_a_file_replaced_under_the_bot_is_noticed(setup):
    db, store, service = setup
    db.rename(db.with_name("moved.sqlite3"))
    db.write_bytes(b"")
    with pytest.raises(TableError, match="removed while it was running"):
        await service.lobby.join(CHANNEL, 3, "carol")
    assert "replaced" in (_read_marker(marker_path(db)).get("lost") or "")
