"""The replay page where people ask for it: the table service's export (what
`/game export format:html` attaches), `python -m bot export --html` and
`python -m bot replay FILE --html OUT`."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from bot.__main__ import main
from bot.service.tables import TableError, TableService
from bot.store import open_store
from engine.core import seed_commitment

CHANNEL = 100
ALICE = 1


async def _table(db, *, finish: bool, seed: int = 1914) -> TableService:
    """A Crisis: 1914 table of three seats, all automatic when `finish` (so it plays to the end)."""
    service = TableService(await open_store(db))
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "Alice")
    for _ in range(2):
        await service.controls.set_automatic(CHANNEL, ALICE, None, True)
    await service.lobby.start(CHANNEL, ALICE, seed=seed)
    if finish:
        await service.controls.set_automatic(CHANNEL, ALICE, "Alice", True)
    return service


def _data(page: bytes) -> dict:
    found = re.search(rb'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    return json.loads(found.group(1).decode("utf-8").replace("<\\/", "</"))


@pytest.mark.whole_game
async def test_the_service_gives_a_finished_games_page_with_every_hand(tmp_path):
    service = await _table(tmp_path / "t.sqlite3", finish=True)
    try:
        assert (await service.table_info(CHANNEL)).status == "finished"
        page = await service.history.export_html(CHANNEL)
    finally:
        await service.store.close()
    text = page.decode("utf-8")
    assert "Alice" in text and "seed <code>1914</code>" in text
    assert "It matches the commitment posted at the start of the game." in text
    data = _data(page)
    assert not data["publicOnly"] and any("Your Hand" in line for line in data["lines"])


async def test_the_service_refuses_the_page_of_a_game_in_play(tmp_path):
    service = await _table(tmp_path / "t.sqlite3", finish=False)
    try:
        with pytest.raises(TableError, match="The replay page comes when the game ends"):
            await service.history.export_html(CHANNEL)
    finally:
        await service.store.close()


async def test_an_abandoned_tables_page_keeps_its_secrets(tmp_path):
    service = await _table(tmp_path / "t.sqlite3", finish=False, seed=8675309)
    try:
        await service.abandon(CHANNEL, ALICE)
        page = await service.history.export_html(CHANNEL)
    finally:
        await service.store.close()
    text = page.decode("utf-8")
    data = _data(page)
    assert data["publicOnly"] and "8675309" not in text and "Your Hand" not in text
    assert seed_commitment(8675309) in text and "abandoned" in text


def _finished_db(tmp_path):
    db = tmp_path / "cli.sqlite3"

    async def play() -> None:
        service = await _table(db, finish=True)
        await service.store.close()

    asyncio.run(play())
    return db


def test_python_m_bot_export_html_writes_the_page(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    db = _finished_db(tmp_path)
    out = tmp_path / "game.html"
    assert main(["export", "--db", str(db), "--channel", str(CHANNEL), "--html", str(out)]) == 0
    assert "Wrote the replay page to" in capsys.readouterr().out
    assert out.read_bytes().startswith(b"<!DOCTYPE html>") and "Alice" in out.read_text(encoding="utf-8")
    assert main(["export", "--db", str(db), "--channel", str(CHANNEL)]) == 2  # neither FILE nor --html
    assert "give FILE" in capsys.readouterr().err


def test_python_m_bot_replay_html_checks_then_writes_the_page(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    db = _finished_db(tmp_path)
    record = tmp_path / "game.json"
    assert main(["export", "--db", str(db), "--channel", str(CHANNEL), str(record)]) == 0
    capsys.readouterr()
    out = tmp_path / "replay.html"
    assert main(["replay", str(record), "--html", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("OK: ") and "Wrote the replay page to" in said
    assert _data(out.read_bytes())["steps"] == len(json.loads(record.read_text())["actions"]) + 1

    tampered = json.loads(record.read_text())
    tampered["seed"] += 1
    record.write_text(json.dumps(tampered), encoding="utf-8")
    out.unlink()
    assert main(["replay", str(record), "--html", str(out)]) == 1 and not out.exists()
