"""The service plays each action on its cached state itself, not on a copy (bot/service/tables.py,
`_step`): a refusal, an exception halfway through a step or a failed save leaves the
cached and the stored table as they were; whoever reads the table while a save is awaited
reads the stored state; an action shares nothing with the state it changes; and each
confirmation reads the same as one written from a copy of the state before the action."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from bot.service.play import confirm_after, confirm_before, kept_for_confirm
from bot.service.tables import TableError
from bot.store import StorageFull
from engine import games
from engine.core import IllegalAction
from engine.crisis1914 import actions as crisis_actions
from tests.tinygame import GAME

from .conftest import ALICE, BOB, CHANNEL, seated


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


async def test_an_action_built_from_the_state_shares_none_of_its_lists(service, monkeypatch):
    g = games.get("crisis1914")
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=3)
    t = await service.load(CHANNEL)
    seat = t.prompts[0].seat
    user = t.holder(seat).user_id
    hand = next(p.hand for p in t.state.players.values() if p.seat == seat)
    seen = []
    real_play = g.play

    def spy(state, seat, action, rng):
        mine = next(p.hand for p in state.players.values() if p.seat == seat)
        seen.append(action.discards is not mine and action.discards == mine)
        return real_play(state, seat, action, rng)

    monkeypatch.setattr(g, "play", spy)
    # as a command or an automatic player may build it: the Hand list itself, not a copy
    with contextlib.suppress(TableError):
        await service.act(CHANNEL, user, crisis_actions.Seize.model_construct(kind="seize", discards=hand))
    assert seen == [True]


@pytest.mark.parametrize("game_id", ["crisis1914", "origins", "schonbrunn"])
def test_every_confirmation_reads_as_one_written_from_a_copy_of_the_state_before(game_id):
    """Whole games of uniform legal actions, at the fewest and the most players."""
    g = games.get(game_id)
    for players in (g.min_players if g.min_players > 1 else 2, g.max_players):
        seats = [f"s{i}" for i in range(1, players + 1)]
        pick = random.Random(players)
        state = g.setup(seats, g.Options(), seed=players)
        for _ in range(2000):
            prompts = g.prompts(state)
            if g.outcome(state) is not None or not prompts:
                break
            seat = prompts[pick.randrange(len(prompts))].seat
            action = pick.choice(g.legal_actions(state, seat))
            before = state.model_dump_json()
            copy = g.load_state(before)
            reply = confirm_before(g, state, seat, action)
            kept = kept_for_confirm(g, state) if reply is None else None
            applied = g.step(state, seat, action, in_place=True)
            if reply is None:
                reply = confirm_after(g, kept, before, seat, action, applied.events)
            assert reply == g.confirm(copy, seat, action, applied.events), (players, action)
            state = applied.state
        assert g.outcome(state) is not None, f"{game_id} at {players} did not end"


def test_a_step_in_place_plays_on_the_state_itself_as_a_copy_would():
    state = GAME.setup(["a", "b"], GAME.Options(), seed=1)
    copied = GAME.step(state, "a", {"kind": "commit", "value": 2})
    assert state.commits == {}  # the copying step leaves its input alone
    applied = GAME.step(state, "a", {"kind": "commit", "value": 2}, in_place=True)
    assert applied.state is state
    assert state.model_dump_json() == copied.state.model_dump_json()
    assert applied.events == copied.events


async def test_a_picture_is_drawn_from_a_state_of_its_own(service, monkeypatch):
    """Pictures are drawn in a worker thread, while the next action may change the cached
    state on the event loop."""
    await seated(service, "alice", "bob")
    given = []

    async def board(channel_id, version, game, state):
        given.append(state)

    monkeypatch.setattr(service.pictures, "board", board)
    await service.picture(CHANNEL)
    cached = service.access.cache[CHANNEL].state
    assert given[0] is not cached and given[0] == cached
