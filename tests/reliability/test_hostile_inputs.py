"""Hostile input, found by fuzzing and typed by hand: each is refused with a clear message,
never a traceback (docs/reliability.md)."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.__main__ import main
from bot.console.console import Console
from bot.service.tables import TableError, TableService
from bot.store import open_store
from bot.store.records import MAX_DEPTH, ReplayError, parse_json

CHANNEL, ALICE, BOB = 1, 1, 2
HUGE = "9" * 5000  # int() refuses more than 4,300 digits with a ValueError of its own


def _nested(depth: int) -> str:
    return '{"game": "envoys", "seed": 1, "seats": ["s1"], "options": ' + "[" * depth + "]" * depth + "}"


@pytest.fixture
async def service(registry, tmp_path):
    store = await open_store(tmp_path / "db.sqlite3")
    yield TableService(store)
    await store.close()


async def _running(service: TableService) -> None:
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=7)


async def test_a_seed_out_of_range_is_refused(service):
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    for seed in (2**63, -(2**63) - 1, 10**30):
        with pytest.raises(TableError, match="The seed must be a whole number from"):
            await service.lobby.start(CHANNEL, ALICE, seed=seed)
    await service.lobby.start(CHANNEL, ALICE, seed=2**63 - 1)  # the largest still fits


async def test_talk_with_a_huge_number_or_a_wall_of_text(service):
    await _running(service)
    with pytest.raises(TableError, match="No seated player has the id 9999") as refused:
        await service.controls.talk(CHANNEL, ALICE, [HUGE])
    assert len(str(refused.value)) < 200
    with pytest.raises(TableError, match="No seated player is called") as refused:
        await service.controls.talk(CHANNEL, ALICE, ["x" * 3000])
    assert len(str(refused.value)) < 200
    with pytest.raises(TableError):
        await service.controls.talk(CHANNEL, ALICE, ["²³"])  # digits to isdigit(), not to int()
    with pytest.raises(TableError, match="Which seat is"):
        await service.controls.substitute(CHANNEL, ALICE, "y" * 3000, 5, "eve")


async def test_a_huge_number_in_a_game_command_is_refused(service):
    await _running(service)
    with pytest.raises(TableError, match="whole number of a sensible size") as refused:
        await service.command(CHANNEL, ALICE, "commit", {"value": HUGE})
    assert len(str(refused.value)) < 200


async def test_autocomplete_in_a_channel_without_a_table_is_quiet(service, caplog):
    with caplog.at_level(logging.WARNING):
        for typed in ("", "Fr", "x" * 100):
            assert await service.suggest(555, ALICE, "commit", "value", {}, typed) == []
    assert caplog.records == []


@pytest.mark.parametrize(
    "line, said",
    [
        ("wait inf", "! wait takes minutes from 0 to"),
        ("wait nan", "! wait takes minutes from 0 to"),
        ("wait -5", "! wait takes minutes from 0 to"),
        ("wait 1e300", "! wait takes minutes from 0 to"),
        (f"auto {HUGE}", "! auto takes a number of moves"),
        (f"as alice /game log page:{HUGE}", "page: takes a whole number from 1 to 9,007,199,254,740,991"),
        (f"as alice /game start seed:{HUGE}", "seed: takes a whole number from -9,223,372,036,854,775,808"),
        ("as alice /game start seed:99999999999999999999", "seed: takes a whole number from -9,223,372,036,854,775,808"),
        ("as alice /game export file:/no/such/folder/record.json", "cannot write /no/such/folder/record.json"),
    ],
)
async def test_console_lines_are_refused_in_words(service, line, said):
    out = io.StringIO()
    console = Console(service, out, "alice")
    for setup in ("as alice /game new game:envoys", "as bob /game join"):
        assert await console.line(setup)
    if "export" in line:
        assert await console.line("as alice /game start seed:3")
    await console.line(line)
    assert said in out.getvalue()
    assert "Traceback" not in out.getvalue()


def test_replay_of_hostile_files_exits_2(tmp_path, capsys):
    cases = {
        "latin1.json": "{\"game\": \"envoys\", \"names\": \"Sch\xf6nbrunn\"}".encode("latin-1"),
        "deep.json": _nested(100_000).encode(),
        "deep-enough.json": _nested(MAX_DEPTH + 1).encode(),
        "folder.json": None,
    }
    for name, data in cases.items():
        path = tmp_path / name
        if data is None:
            path.mkdir()
        else:
            path.write_bytes(data)
        code = main(["replay", str(path)], stdout=io.StringIO())
        err = capsys.readouterr().err
        assert code == 2, name
        assert err.startswith("replay: ") and err.count("\n") == 1, err


async def test_import_of_nested_json_is_refused_before_anything_is_created(service):
    with pytest.raises(ReplayError, match="nested more than"):
        parse_json(_nested(100_000).encode())
    with pytest.raises(ReplayError, match="not UTF-8"):
        parse_json(b"\xff\xfe{}")
    record = json.loads(_nested(MAX_DEPTH + 5))
    with pytest.raises(TableError, match="nested more than"):
        await service.history.import_record(CHANNEL, 9, ALICE, "alice", record)
    assert await service.table_info(CHANNEL) is None


def test_a_console_script_that_is_not_text(tmp_path):
    script = tmp_path / "s.txt"
    script.write_bytes(b"as alice /game new game:envoys\n\xff\xfe")
    out = io.StringIO()
    assert main(["console", "--script", str(script), "--db", str(tmp_path / "d.sqlite3")], stdout=out) == 2
    assert "it is not UTF-8 text" in out.getvalue()
    assert main(["console", "--script", str(tmp_path / "none"), "--db", str(tmp_path / "d.sqlite3")], stdout=out) == 2
