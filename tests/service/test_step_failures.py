"""A step that fails leaves the table as stored (bot/service/play.py, `Play.step`): a
refusal, an exception halfway through a step or a failed save leaves the cached and the
stored table as they were; whoever reads the table while a save is awaited reads the stored
state; an earlier version of the table still reads as its own."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.tables import TableError
from bot.store import StorageFull
from engine.core import IllegalAction
from tests.tinygame import GAME

from .conftest import ALICE, CHANNEL, seated


async def _stored(service) -> tuple[str, int, int]:
    row = await service.store.get_table(CHANNEL)
    return row.state, row.version, len(await service.store.get_actions(CHANNEL))


async def _cached(service) -> str:
    return (await service.load(CHANNEL)).state.model_dump_json()


def _changes_then(error: BaseException):
    """A `play` that changes the state as a real one would, then fails."""

    def play(state, seat, action, rng):
        state.scores[seat] += 5
        state.commits[seat] = 3
        raise error

    return play


@pytest.mark.parametrize(
    "error", [IllegalAction("Not like that."), RuntimeError("a bug in the game")], ids=["refusal", "exception"]
)
async def test_a_step_that_fails_halfway_leaves_the_cached_and_the_stored_table_as_they_were(
    service, monkeypatch, error
):
    await seated(service, "alice", "bob")
    stored = await _stored(service)
    cached = await _cached(service)
    assert cached == stored[0]
    expected = TableError if isinstance(error, IllegalAction) else RuntimeError
    with monkeypatch.context() as m, pytest.raises(expected):
        m.setattr(GAME, "play", _changes_then(error))
        await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 2})
    assert await _stored(service) == stored
    assert await _cached(service) == cached
    # the table plays on from the stored state, as a copy of it would
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 2})
    expected_state = GAME.step(GAME.load_state(cached), "s1", {"kind": "commit", "value": 2}).state
    assert await _cached(service) == expected_state.model_dump_json() == (await _stored(service))[0]


async def test_a_failed_save_leaves_the_cached_and_the_stored_table_as_they_were(service, monkeypatch):
    await seated(service, "alice", "bob")
    stored, cached = await _stored(service), await _cached(service)

    async def full(*args, **kwargs):
        raise StorageFull("no space left")

    with monkeypatch.context() as m, pytest.raises(TableError, match="disk"):
        m.setattr(service.store, "save", full)
        await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 2})
    assert await _stored(service) == stored
    assert await _cached(service) == cached


async def test_while_a_save_is_awaited_the_table_reads_as_stored(service, monkeypatch):
    await seated(service, "alice", "bob")
    stored = await _stored(service)
    saving, go_on = asyncio.Event(), asyncio.Event()
    save = service.store.save

    async def slow_save(*args, **kwargs):
        saving.set()
        await go_on.wait()
        return await save(*args, **kwargs)

    monkeypatch.setattr(service.store, "save", slow_save)
    acting = asyncio.create_task(service.act(CHANNEL, ALICE, {"kind": "commit", "value": 2}))
    await saving.wait()
    assert service.access.cache[CHANNEL].state.model_dump_json() == stored[0]  # not the unsaved commit
    assert "s1" not in service.access.cache[CHANNEL].state.commits
    go_on.set()
    await acting
    assert service.access.cache[CHANNEL].state.commits["s1"] == 2
    assert await _cached(service) == (await _stored(service))[0]


async def test_an_earlier_version_of_the_table_still_reads_as_its_own(service):
    await seated(service, "alice", "bob")
    old = await service.load(CHANNEL)
    old_json = old.row.state
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 2})
    assert old.state.model_dump_json() == old_json  # read again from its own row, not changed
    assert (await service.load(CHANNEL)).state.commits == {"s1": 2}

