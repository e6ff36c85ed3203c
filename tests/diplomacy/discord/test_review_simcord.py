"""/diplomacy review end to end with SimCord: the real bot over a real table service. The
review reaches exactly the member who asks (an ephemeral answer: nothing in the channel,
no DM), refused in words before the end and to a member who did not play."""

from __future__ import annotations

import asyncio

import pytest

import tests.tinygame
from bot.service.reviews import NOT_OVER, NOT_PLAYED
from bot.service.tables import TableService
from engine.core.review import Turning
from tests.test_search import SearchingEnvoys

pytestmark = pytest.mark.simcord

GAME = SearchingEnvoys()  # the tiny game with a search, under the tiny game's id: a game that ends in seconds


@pytest.fixture(autouse=True)
def registry(monkeypatch):
    tests.tinygame.registered(monkeypatch, GAME)  # under the test game's id: it takes its place


@pytest.fixture
def service(store, clock) -> TableService:
    service = TableService(store, clock=clock, draw_pictures=False, automatic_workers=0)
    service.reviews.enabled = True
    service.reviews.per_decision, service.reviews.per_seat, service.reviews.piece = 16, 400, 16
    return service


def _held(service: TableService) -> asyncio.Event:
    """The review's pieces wait for the event before they go to the workers."""
    gate, background = asyncio.Event(), service.automatic.background

    async def held(*args):
        await gate.wait()
        return await background(*args)

    service.automatic.background = held
    return gate


def _texts(messages) -> str:
    return "\n".join(m.content for m in messages)


async def test_the_review_reaches_exactly_the_member_who_asks(env, service):
    guild = env.create_guild()
    channel = guild.create_text_channel("envoys")
    anna, boris, dave = (guild.add_member(env.create_user(n)) for n in ("anna", "boris", "dave"))
    await anna.slash(channel, "game new", game=GAME.id)
    await boris.slash(channel, "game join")
    await anna.slash(channel, "game start")

    gate = _held(service)  # the workers think only once the test has seen the review pending
    early = await anna.slash(channel, "diplomacy review")
    assert early.ephemeral and early.response.content == NOT_OVER
    while await service.auto(channel.id) is not None:
        pass
    t = await service.load(channel.id)
    assert t.row.status == "finished"

    pending = await anna.slash(channel, "diplomacy review")
    assert pending.ephemeral and "being computed: ready in about" in pending.response.content
    gate.set()
    await service.reviews.wait()
    answer = await anna.slash(channel, "diplomacy review")
    assert answer.ephemeral, "only anna sees her review"
    text = answer.response.content
    seat = t.seat_of(anna.user.id).seat
    assert text.startswith(f"**Your review of this {GAME.title} game**")
    rows = {r.seat: r for r in await service.store.community.get_reviews(channel.id, t.row.created_at)}
    for turning in rows[seat].turnings:
        assert Turning.from_json(turning).sentence() in text

    outsider = await dave.slash(channel, "diplomacy review")
    assert outsider.ephemeral and outsider.response.content == NOT_PLAYED
    said = _texts(channel.history()) + "".join(
        _texts(m.user.dm_channel.history()) for m in (anna, boris, dave) if m.user.dm_channel is not None
    )
    assert "Your review" not in said and "would have chosen" not in said
