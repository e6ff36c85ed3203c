"""Delivering an action reads only what its save stored (docs/architecture.md §3, "The
path of one action"): the outbox carries what the status message shows (`Shown`,
bot/service/shown.py), so the delivery loads, locks and saves no table; two deliveries
that finish out of order show the newer status; a restarted bot says a stored row again
from the row alone, the final standings with their board and score chart too.
"""

from __future__ import annotations

import dataclasses
import random
import traceback
from collections import Counter
from typing import Any

import pytest

from bot.discord import create_bot
from bot.discord.markup import markup
from bot.discord.status_layout import status_layout
from bot.service.shown import Shown
from bot.service.tables import TableService

from .conftest import BotConfig
from .reading import layout_texts, status_parts
from .whole_crisis import GAME, MAX_ACTIONS
from .whole_crisis import next_action as _next_action
from .whole_crisis import started as _started

pytestmark = pytest.mark.simcord

@pytest.fixture
def simcord_bot(service):
    return create_bot(BotConfig(), service)  # the real registry (conftest narrows it to a test game)


# reads of the table's log: the actions (a replay's) and the events
LOG_READS = ("get_actions", "get_events", "get_all_events", "count_events")


class TableReads:
    """Counts the table loads, lock takes and table row reads while `counting` (with
    `log`, the reads of its log too)."""

    def __init__(self, service: Any, store: Any, monkeypatch: pytest.MonkeyPatch, *, log: bool = False) -> None:
        self.counting = False
        self.seen: Counter[str] = Counter()
        access = service.access
        for owner, name in ((access, "load"), (access, "lock"), (store, "get_table")):
            self._wrap(owner, name, monkeypatch)
        for name in LOG_READS if log else ():
            self._wrap(store, name, monkeypatch)

    def _wrap(self, owner: Any, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        real = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            if self.counting:
                # a DM names its table's game (bot/discord/private.py reads it): counted apart
                dm = any(f.name == "_where" and f.filename.endswith("private.py") for f in traceback.extract_stack())
                self.seen[f"{name} for a DM's heading" if dm else name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)

    def watch(self, owner: Any, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        """Count while `owner.name` (a coroutine function) runs."""
        real = getattr(owner, name)

        async def watched(*args: Any, **kwargs: Any) -> Any:
            self.counting = True
            try:
                return await real(*args, **kwargs)
            finally:
                self.counting = False

        monkeypatch.setattr(owner, name, watched)

    async def during(self, work: Any) -> Counter[str]:
        before = Counter(self.seen)
        self.counting = True
        try:
            await work
        finally:
            self.counting = False
        return self.seen - before


@pytest.mark.parametrize("draw_pictures", [False])  # loads are counted: pictures only slow it
async def test_a_whole_game_is_delivered_without_loading_or_locking_the_table(env, store, service, monkeypatch, capsys):
    reads = TableReads(service, store, monkeypatch)
    channel, players = await _started(env, service)
    rng, turns, delivered = random.Random(7), 0, Counter[str]()
    final = Counter[str]()
    while turns < MAX_ACTIONS and (await store.get_table(channel.id)).status == "running":
        user, action = await _next_action(service, store, channel.id, rng)
        outbox = await service.act(channel.id, user, action)
        with env.time_context():
            env.bot.delivery.seen(channel.id, user)
            counted = await reads.during(env.bot.delivery.deliver(outbox, caller_id=user))
        if any(p.kind == "standings" for p in outbox.posts):
            final += counted
        else:
            delivered += counted
        turns += 1
    with capsys.disabled():
        print(f"\n{GAME}: {turns} actions delivered; table reads while delivering: {dict(delivered)}, "
              f"the last one's (the standings): {dict(final)}")
    assert (await store.get_table(channel.id)).status == "finished"
    # no load, no lock, no table row read for the status, the summary, the threads, nor for
    # a DM's heading (the game it names comes from the outbox), nor for the standings
    assert +delivered == Counter()
    assert +final == Counter()
    # the host publishes the history: its final board and chart come from its row too
    published = await service.history.publish(channel.id, players[0].id)
    with env.time_context():
        assert +await reads.during(env.bot.delivery.deliver(published, caller_id=players[0].id)) == Counter()
    (status,) = [m for m in channel.history() if status_parts(m)[0]][-1:]
    assert "The game is over" in status_parts(status)[0]


async def test_two_deliveries_finishing_out_of_order_show_the_newer_status(env, store, service):
    channel, _ = await _started(env, service)
    rng = random.Random(3)
    played = []  # (the member, the outbox of their action), none of them delivered yet
    while len(played) < 2 or _card_text(channel.id, played[-1][1].shown.card) == _card_text(
        channel.id, played[0][1].shown.card
    ):
        user, action = await _next_action(service, store, channel.id, rng)
        played.append((user, await service.act(channel.id, user, action)))
    (user, older), (user2, newer) = played[0], played[-1]
    assert newer.shown.version > older.shown.version
    with env.time_context():
        await env.bot.delivery.deliver(newer, caller_id=user2)
        await env.bot.delivery.deliver(older, caller_id=user)
    status = env.bot.delivery._status_ids[channel.id]
    message = next(m for m in channel.history() if m.id == status)
    card_text, summary = status_parts(message)
    assert card_text == _card_text(channel.id, await service.posts.status_card(channel.id))
    assert card_text != _card_text(channel.id, older.shown.card)
    # and the summary holds every action's public events, the older one's too
    said = [p.text for _, o in played for p in o.posts if p.to == "channel" and p.kind == "event"]
    assert said and all(text in summary for text in said)


def _card_text(channel_id: int, card: Any) -> str:
    """A status card as the status message shows it, above its summary."""
    return "\n".join(layout_texts(status_layout(channel_id, card).to_components()))


async def test_a_restarted_bot_says_a_stored_row_again_without_reading_the_table(env, store, service, monkeypatch):
    reads = TableReads(service, store, monkeypatch)
    channel, _ = await _started(env, service)
    user, action = await _next_action(service, store, channel.id, random.Random(5))
    await service.act(channel.id, user, action)  # saved with its outbox row; the bot dies before saying it
    assert (await service.deliveries.waiting())[0] == 1
    delivery = env.bot.delivery
    for memory in (delivery._status_ids, delivery._shown, delivery._pictured, delivery._fronts):
        memory.clear()
    service.access.cache.clear()  # a new process: nothing loaded
    delivery.pending._started = False  # its first look takes every row left waiting
    # the rows claimed and said (the turn notices held for their grace are restored apart)
    reads.watch(service.deliveries, "due", monkeypatch)
    reads.watch(delivery, "deliver_now", monkeypatch)
    with env.time_context():
        await delivery.pending.run_due()
    assert reads.seen == Counter()
    assert (await service.deliveries.waiting())[0] == 0
    latest = await service.posts.status_card(channel.id)
    status = [m for m in channel.history() if status_parts(m)[0]][-1]
    assert markup(latest.description).splitlines()[0] in status_parts(status)[0]


@pytest.mark.parametrize("older_row", [False, True])
async def test_a_restarted_bot_says_the_final_standings_with_their_pictures_from_the_row(
    env, store, service, monkeypatch, capsys, older_row
):
    """The save that ends the game stores the scores over it beside the final board's view
    (`Shown.scores`): the standings' board and chart are drawn from the stored row, with no
    table loaded and no log read, the same pictures as a process that never saw the game
    draws from the stored log (`TableService.final_pictures`). A row an older bot stored,
    without the scores, gets the same pictures from the table and its log."""
    reads = TableReads(service, store, monkeypatch, log=True)
    if older_row:
        read_back = Shown.from_body

        def without_scores(channel_id: int, body: dict[str, Any]) -> Shown:
            return dataclasses.replace(read_back(channel_id, body), scores=None)

        monkeypatch.setattr(Shown, "from_body", without_scores)
    channel, _ = await _started(env, service)
    rng, turns = random.Random(7), 0
    while turns < MAX_ACTIONS:
        user, action = await _next_action(service, store, channel.id, rng)
        outbox = await service.act(channel.id, user, action)
        turns += 1
        if any(p.kind == "standings" for p in outbox.posts):
            break  # saved with its outbox row; the bot dies before saying it
        with env.time_context():
            env.bot.delivery.seen(channel.id, user)
            await env.bot.delivery.deliver(outbox, caller_id=user)
    assert (await store.get_table(channel.id)).status == "finished"
    delivery = env.bot.delivery
    for memory in (delivery._status_ids, delivery._shown, delivery._pictured, delivery._fronts):
        memory.clear()
    service.access.cache.clear()  # a new process: nothing loaded, nothing worked out or drawn
    service.final_scores._kept.clear()
    service.pictures._pictures.clear()
    delivery.pending._started = False  # its first look takes every row left waiting
    reads.watch(service.deliveries, "due", monkeypatch)
    reads.watch(delivery, "deliver_now", monkeypatch)
    with env.time_context():
        await delivery.pending.run_due()
    with capsys.disabled():
        print(f"\n{GAME}: {turns} actions; table and log reads while saying the standings: {dict(reads.seen)}")
    if older_row:
        assert reads.seen["load"] >= 1 and reads.seen["get_actions"] >= 1  # read and replayed
    else:
        assert reads.seen == Counter()
    (standings,) = [m for m in channel.history() if "Final standings" in m.content]
    other = TableService(store, draw_pictures=True)  # a process that never saw the game
    try:
        expected = await other.final_pictures(channel.id)
    finally:
        other.close()
    assert [a.filename for a in standings.attachments] == [p.filename for p in expected] == [
        "crisis1914.png", "scores.png"
    ]
    assert [a.description for a in standings.attachments] == [p.description for p in expected]
    assert [await a.read() for a in standings.attachments] == [p.png for p in expected]
