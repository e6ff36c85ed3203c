"""Every save writes into its outbox what the status shows once it is stored (`Shown`,
bot/service/shown.py), and the outbox row the save stores holds it: the table's version,
the status card, the round summary's events and the public view the board is drawn from
are what the service reads of the table afterwards."""

from __future__ import annotations

import json
import random

from bot.render.pictures import draw
from bot.service.outbox import Outbox
from bot.service.shown import Shown, summary_of
from engine import games

from .conftest import ALICE, BOB, CHANNEL

GAME = "origins"


async def _started(service) -> None:
    await service.lobby.create(CHANNEL, 1, GAME, ALICE, "alice", {})
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=11)


async def test_a_saved_action_carries_what_its_status_shows(service, store):
    await _started(service)
    game = games.get(GAME)
    rng = random.Random(2)
    for _ in range(12):
        t = await service.load(CHANNEL)
        seat = t.prompts[0].seat
        out = await service.act(CHANNEL, t.holder(seat).user_id, game.bot_action(t.state, seat, rng))
        rows = await store.claim_outbox(service.clock(), 0.0, everything=True)
        (row,) = [r for r in rows if r.id == out.kept_ids[-1]]
        shown = Outbox.from_body(CHANNEL, row.body).shown  # as a restarted bot reads it
        assert isinstance(shown, Shown)
        t = await service.load(CHANNEL)
        assert shown.version == t.row.version
        assert shown.card == await service.posts.status_card(CHANNEL)
        summary = await service.posts.round_summary(CHANNEL)
        assert [p.text() for p in summary_of(shown.summary, shown.summary_start)] == [p.text() for p in summary.parts]
        assert shown.owing == [p.seat for p in t.prompts]
        # the board from the stored view alone is the board of the state
        assert shown.board is not None and shown.board.step == t.state.step
        view = game.view_from_dict(json.loads(json.dumps(shown.board.view)))
        assert draw(GAME, view).png == draw(GAME, game.view(t.state, None)).png
        await service.deliveries.done([r.id for r in rows])


async def test_a_change_saved_without_an_outbox_is_shown_from_the_table(service, store):
    """A status changed by a save that wrote no `Shown` (a lobby's join) gets one when the
    outbox is kept, read from the table as it is now."""
    await service.lobby.create(CHANNEL, 1, GAME, ALICE, "alice", {})
    out = await service.lobby.join(CHANNEL, BOB, "bob")
    await service.deliveries.keep(out)
    assert out.shown is not None and out.shown.lobby
    assert out.shown.version == (await service.load(CHANNEL)).row.version
    assert out.shown.card == await service.posts.status_card(CHANNEL)


async def test_what_each_save_shows_follows_the_last_one_as_the_log_would_give_it(service, store):
    """A save starts from what the save before it wrote (its summary lines, the front
    end's row as read) rather than reading the log again: over a whole game, with the
    summary moved to a new message now and then as a delivery does, every save's summary
    is the one the stored log gives."""
    await _started(service)
    game = games.get(GAME)
    rng = random.Random(5)
    moved = actions = 0
    counted, count = 0, store.count_events

    async def counting(*args, **kwargs):
        nonlocal counted
        counted += 1
        return await count(*args, **kwargs)

    while (t := await service.load(CHANNEL)).row.status == "running":
        seat = t.prompts[0].seat
        store.count_events = counting
        out = await service.act(CHANNEL, t.holder(seat).user_id, game.bot_action(t.state, seat, rng))
        store.count_events = count  # the log read below, as a check, is not the save's
        actions += 1
        summary = await service.posts.round_summary(CHANNEL)
        assert out.shown is not None and out.shown.summary is not None
        assert [p.text() for p in summary_of(out.shown.summary, out.shown.summary_start)] == [
            p.text() for p in summary.parts
        ]
        if t.state.step % 7 == 0:  # a delivery keeps a new status message holding the last part
            moved += 1
            await service.posts.summary_moved(CHANNEL, 1000 + moved, summary.parts[-1])
    assert moved > 5
    assert counted <= moved + 1, (counted, actions)  # the log read only after a keep, not per save
