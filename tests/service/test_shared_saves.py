"""A change saved by one process while another saves the same table in between.

Two `TableService`s stand for two bot processes on one PostgreSQL database (each its own
pool, cache and locks). A hook on the first service's saves lets the second one save the
table at an exact moment: after the player's action is stored and before the automatic
seat's move that follows it. What must hold: the player is told their action was done
(never "try again"), it is stored once, the automatic seat still plays, and what the
saved part says is in the outbox rows.

The table: Envoys (tests/tinygame.py) with alice and bob and one automatic seat. When
the last of them ends a diplomacy phase, the next round's commit phase opens and the
automatic seat commits at once, a second save in alice's call.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from bot.discord.markup import markup
from bot.service.loaded import BUSY, SAVED_UNFINISHED
from bot.service.play import STALE_RELOADS
from bot.service.tables import TableError, TableService
from engine import games

from .conftest import ALICE, BOB, CHANNEL

ENVOYS = "envoys"
AUTOMATIC = -1  # the automatic seat's user id (`automatic_row`: below every member's)


async def _table(a: TableService) -> None:
    """alice (host) and bob, one automatic seat; started, the automatic seat has committed."""
    await a.lobby.create(CHANNEL, 9, ENVOYS, ALICE, "alice")
    await a.lobby.join(CHANNEL, BOB, "bob")
    await a.controls.set_automatic(CHANNEL, ALICE, None, True)
    await a.lobby.start(CHANNEL, ALICE, seed=5)


async def _owing(service: TableService) -> dict[int, str]:
    """Who owes what now: user id -> the prompt's kind, read from the database."""
    row = await service.store.get_table(CHANNEL)
    state = games.get(ENVOYS).load_state(row.state)
    holders = {s.seat: s.user_id for s in await service.store.get_seats(CHANNEL)}
    return {holders[p.seat]: p.kind for p in games.get(ENVOYS).prompts(state)}


async def _play_until_alice_ends_diplomacy(a: TableService) -> None:
    """Round 1 played up to alice's ready, the last one owed in its diplomacy phase."""
    await a.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    await a.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    owing = await _owing(a)
    presser = next(user for user, kind in owing.items() if kind == "press")  # the automatic seat's is played
    await a.act(CHANNEL, presser, {"kind": "yield"})
    await a.act(CHANNEL, BOB, {"kind": "ready"})
    assert await _owing(a) == {ALICE: "ready"}


async def elsewhere(change: Awaitable[object]) -> object:
    """`change` as another process makes it: in a context of its own, so what it saves is
    not counted as saved by the call it interrupts (`track_saves` follows the context)."""
    return await asyncio.create_task(change, context=contextvars.Context())


def _hook_saves(service: TableService, between: Callable[[], Awaitable[object]], times: int = 1) -> None:
    """After each of this service's next `times` saves, the other process's change
    (`between`) is made, before anything else this service does."""
    save = service.access.save
    left = [times]

    async def hooked(t, **kw):
        saved = await save(t, **kw)
        if left[0] > 0:
            left[0] -= 1
            await elsewhere(between())
        return saved

    service.access.save = hooked  # type: ignore[method-assign]


async def _actions(service: TableService) -> list[tuple[int | None, str]]:
    return [(x.user_id, json.loads(x.action)["kind"]) for x in await service.store.get_actions(CHANNEL)]


async def test_stored_action_is_acknowledged_when_automatic_seat_save_meets_other_process(two_processes):
    (a, b), _ = two_processes
    await _table(a)
    await _play_until_alice_ends_diplomacy(a)
    before = await _actions(a)
    # b saves the table after alice's ready is stored, before the automatic seat's commit
    _hook_saves(a, lambda: b.settings(CHANNEL, ALICE, {"phase_hours": "30"}))

    out = await a.act(CHANNEL, ALICE, {"kind": "ready"})

    assert out.reply == "Done: Ready."  # the normal confirmation
    after = await _actions(a)
    assert after[: len(before)] == before
    # alice's ready once, then the automatic seat's commit, played on the table as b left it
    assert after[len(before) :] == [(ALICE, "ready"), (AUTOMATIC, "commit")]
    assert await _owing(a) == {ALICE: "commit", BOB: "commit"}
    assert "phase_hours: 30" in (await a.settings(CHANNEL, ALICE, {})).reply  # b's change stands


async def test_stored_action_is_acknowledged_when_other_process_plays_the_automatic_seat_first(two_processes):
    (a, b), _ = two_processes
    await _table(a)
    await _play_until_alice_ends_diplomacy(a)
    before = await _actions(a)
    # bob commits through b after alice's ready is stored; b's call plays the automatic seat's
    # commit too, so a's own try at it meets b's save and finds nothing left to play
    _hook_saves(a, lambda: b.act(CHANNEL, BOB, {"kind": "commit", "value": 3}))

    out = await a.act(CHANNEL, ALICE, {"kind": "ready"})

    assert out.reply == "Done: Ready."
    assert (await _actions(a))[len(before) :] == [(ALICE, "ready"), (BOB, "commit"), (AUTOMATIC, "commit")]
    assert await _owing(a) == {ALICE: "commit"}


async def test_what_the_stored_part_says_is_kept_in_outbox_rows_when_a_later_save_meets_other_process(
    two_processes,
):
    (a, b), clock = two_processes
    await _table(a)
    await _play_until_alice_ends_diplomacy(a)
    for due in await a.deliveries.due(everything=True):  # what the set-up said: delivered
        await a.deliveries.done(due.ids)
    _hook_saves(a, lambda: b.settings(CHANNEL, ALICE, {"phase_hours": "30"}))

    out = await a.act(CHANNEL, ALICE, {"kind": "ready"})

    assert len(out.kept_ids) == 2  # alice's step and the automatic seat's, each with its save
    stored = [p.text for due in await a.deliveries.due(everything=True) for _, o in due.parts for p in o.posts]
    answered = [p.text for p in out.posts]
    assert stored == answered  # what the answer says is what the rows keep, nothing more or less
    assert sum("has committed" in markup(text) for text in stored) == 1  # the automatic seat's commit, once


async def test_a_change_is_never_run_again_once_saved_when_its_later_save_meets_other_process(two_processes):
    (a, b), _ = two_processes
    await _table(a)
    runs = []

    async def two_saves(t):
        runs.append(t.row.version)
        t = await a.access.save(t, row=replace(t.row, meta={**t.row.meta, "first": len(runs)}))
        await elsewhere(b.settings(CHANNEL, ALICE, {"phase_hours": "30"}))  # another process, in between
        await a.access.save(t, row=replace(t.row, meta={**t.row.meta, "second": len(runs)}))

    with pytest.raises(TableError) as refused:
        await a.access.with_table(CHANNEL, two_saves)

    assert str(refused.value) == SAVED_UNFINISHED and "try again" not in SAVED_UNFINISHED
    assert len(runs) == 1  # not run again on fresh rows: its first save is the change
    meta = (await a.store.get_table(CHANNEL)).meta
    assert meta.get("first") == 1 and "second" not in meta


async def test_a_change_that_stored_nothing_runs_again_on_fresh_rows(two_processes):
    (a, b), _ = two_processes
    await _table(a)
    runs = []

    async def one_save(t):
        runs.append(t.row.version)
        if len(runs) == 1:
            await elsewhere(b.settings(CHANNEL, ALICE, {"phase_hours": "30"}))  # a's copy is now old
        await a.access.save(t, row=replace(t.row, meta={**t.row.meta, "mine": True}))
        return "done"

    assert await a.access.with_table(CHANNEL, one_save) == "done"
    assert len(runs) == 2 and runs[1] == runs[0] + 1  # the second run on the table as b left it
    assert (await a.store.get_table(CHANNEL)).meta["mine"] is True
    assert BUSY.endswith("please try again.")  # said only when no run stored anything


async def test_automatic_moves_cut_short_by_other_process_again_and_again_are_played_at_the_next_tick(
    two_processes,
):
    (a, b), clock = two_processes
    await _table(a)
    await _play_until_alice_ends_diplomacy(a)
    before = await _actions(a)
    b_saved = []

    async def b_saves():
        await b.settings(CHANNEL, ALICE, {"phase_hours": str(30 + len(b_saved))})  # a change each time
        b_saved.append(1)

    _hook_saves(a, b_saves)  # after alice's ready…
    reload = a.access.reload

    async def reload_then_b_saves(channel_id):
        t = await reload(channel_id)
        await elsewhere(b_saves())  # …and after every fresh read of a's automatic moves
        return t

    a.access.reload = reload_then_b_saves  # type: ignore[method-assign]

    out = await a.act(CHANNEL, ALICE, {"kind": "ready"})

    assert out.reply == "Done: Ready."
    assert (await _actions(a))[len(before) :] == [(ALICE, "ready")]
    assert a.play.unsettled == {CHANNEL}
    assert await a.deadlines.next_wakeup() == clock()  # the deadline loop comes back at once
    assert len(b_saved) > STALE_RELOADS + 1  # b saved before each of a's tries and after the last

    a.access.reload = reload  # type: ignore[method-assign]
    outs = await a.deadlines.tick()

    assert (await _actions(a))[len(before) :] == [(ALICE, "ready"), (AUTOMATIC, "commit")]
    assert a.play.unsettled == set()
    assert [o.channel_id for o in outs] == [CHANNEL]
    assert any("has committed" in p.text for p in outs[0].posts)


async def test_a_used_up_standing_order_is_withdrawn_in_the_same_save_as_the_action_it_applied(service):
    """An Origins sheet left before Phase 4 becomes the draft, still owed: the order is used
    up. Were it withdrawn by a save of its own, another process's save in between would
    leave it in place, to be applied again from the stored table."""
    await service.lobby.create(CHANNEL, 9, "origins", 1, "p1")
    for uid in range(2, 6):
        await service.lobby.join(CHANNEL, uid, f"p{uid}")
    await service.lobby.start(CHANNEL, 1, seed=5)
    me = (await service.load(CHANNEL)).seat_of(1).seat
    await service.controls.standing(CHANNEL, 1, "sheet SER 2")
    saves = []
    save = service.store.save

    async def recorded(row, version, **kw):
        saves.append(([(x.seat, json.loads(x.action)["kind"]) for x in kw.get("actions", ())], row.meta))
        return await save(row, version, **kw)

    service.store.save = recorded  # type: ignore[method-assign]
    for _ in range(40):  # everyone passes: Phase 3 ends and Phase 4 begins
        t = await service.load(CHANNEL)
        if t.state.phase != "bidding":
            break
        await service.act(CHANNEL, t.holder(t.prompts[0].seat).user_id, {"kind": "pass"})

    applied = [meta for actions, meta in saves if any(seat == me and kind != "pass" for seat, kind in actions)]
    assert len(applied) == 1  # the sheet, applied once
    assert not (applied[0].get("standing") or {}).get(me)  # withdrawn by that very save
    assert "Your standing orders: none." in (await service.controls.standing(CHANNEL, 1)).reply
