"""`/diplomacy review` in the table service (bot/service/reviews.py), on both store
backends: refused before the end with nothing computed, computed after it behind the live
decisions (here on the service's thread: automatic_workers=0), stored with the archived
game, kept across a restart, and each member's own seat only."""

from __future__ import annotations

import asyncio
import html
import io
import json

import pytest

import tests.tinygame
from bot.console.console import Console
from bot.render.replay_page import replay_page
from bot.service.automatic import AutomaticPlayers
from bot.service.errors import TableError
from bot.service.reviews import NOT_OVER, NOT_PLAYED
from bot.service.tables import TableService
from bot.store import open_store
from bot.store.review_rows import DONE, PENDING
from engine.core.review import Turning, review
from engine.core.rng import seed_for
from tests.test_search import SearchingEnvoys

CHANNEL = 100
ALICE, BOB, CAROL, DORA = 1, 2, 3, 4


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class ReviewedEnvoys(SearchingEnvoys):
    """The tiny game with a search (tests/test_search.py), under the tiny game's id."""


GAME = ReviewedEnvoys()


@pytest.fixture(autouse=True)
def registry(monkeypatch):
    tests.tinygame.registered(monkeypatch, GAME)  # under the test game's id: it takes its place
    assert tests.tinygame.GAME.id == GAME.id


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


def _held(service: TableService) -> asyncio.Event:
    """The review's pieces wait for the event before they go to the workers, so a test sees
    the review pending however fast the machine is."""
    gate, background = asyncio.Event(), service.automatic.background

    async def held(*args):
        await gate.wait()
        return await background(*args)

    service.automatic.background = held
    return gate


def _service(store, *, enabled: bool = True) -> TableService:
    service = TableService(store, clock=Clock(), automatic_workers=0, draw_pictures=False)
    service.reviews.enabled = enabled
    service.reviews.per_decision, service.reviews.per_seat, service.reviews.piece = 16, 400, 16
    return service


async def _play(service: TableService, *, until_end: bool = True) -> None:
    await service.lobby.create(CHANNEL, 9, GAME.id, ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.join(CHANNEL, CAROL, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=7)
    while (await service.load(CHANNEL)).row.status == "running":
        if not until_end and len(await service.store.get_actions(CHANNEL)) >= 10:
            return
        await service.auto(CHANNEL)


async def _seat(service: TableService, user: int) -> str:
    seat = (await service.load(CHANNEL)).seat_of(user)
    assert seat is not None and seat.seat is not None
    return seat.seat


async def test_a_game_in_play_is_refused_and_nothing_is_computed(store) -> None:
    service = _service(store)
    await _play(service, until_end=False)
    with pytest.raises(TableError) as refused:
        await service.reviews.text(CHANNEL, ALICE)
    assert str(refused.value) == NOT_OVER
    t = await service.load(CHANNEL)
    assert await store.community.get_reviews(CHANNEL, t.row.created_at) == []
    assert await store.community.pending_reviews() == []
    assert service.reviews.computing and not service.reviews._queue and service.reviews._task is None


async def test_the_review_is_computed_after_the_end_stored_and_each_member_reads_their_own(store) -> None:
    service = _service(store)
    gate = _held(service)
    await _play(service)
    t = await service.load(CHANNEL)
    pending = await service.reviews.text(CHANNEL, ALICE)
    assert "being computed: ready in about" in pending and "/diplomacy review" in pending
    gate.set()
    await service.reviews.wait()
    rows = {r.seat: r for r in await store.community.get_reviews(CHANNEL, t.row.created_at)}
    assert sorted(rows) == sorted(t.state.seats) and all(r.status == DONE for r in rows.values())

    # each seat's stored review is the engine's review of that seat, from the same record
    actions = [(a.seat, json.loads(a.action)) for a in await store.get_actions(CHANNEL)]
    for seat, row in rows.items():
        expected = review(
            GAME, list(t.state.seats), GAME.Options(), 7, actions, seat, seed_for(7, "review"),
            per_decision=16, per_seat=400,
        )
        assert [Turning.from_json(x) for x in row.turnings] == expected

    alice, bob = await _seat(service, ALICE), await _seat(service, BOB)
    mine = await service.reviews.text(CHANNEL, ALICE)
    assert mine.startswith(f"**Your review of this {GAME.title} game**, as {t.label(alice)}")
    for turning in rows[alice].turnings:
        assert Turning.from_json(turning).sentence() in mine
    for turning in rows[bob].turnings:
        if turning not in rows[alice].turnings:
            assert Turning.from_json(turning).sentence() not in mine
    assert any(rows[s].turnings for s in rows), "the basic players leave the search something to prefer"

    with pytest.raises(TableError) as refused:
        await service.reviews.text(CHANNEL, DORA)
    assert str(refused.value) == NOT_PLAYED
    assert bob != alice

    # the finished game's record carries every seat's review, and its replay page shows them
    record = await service.history.export(CHANNEL)
    assert record["reviews"] == {seat: row.turnings for seat, row in rows.items()}
    page = (await service.history.export_html(CHANNEL)).decode()
    assert "Where the automatic player would have chosen otherwise" in page
    for row in rows.values():
        for turning in row.turnings:
            assert html.escape(Turning.from_json(turning).sentence()) in page
    del record["reviews"]  # a record of before the reviews: the same page without them
    older = replay_page(record).decode()
    assert "Where the automatic player would have chosen otherwise" not in older
    assert older == page.replace(page[page.index('<section id="reviews"') : page.index("</section>\n</main>") + 11], "")


async def test_a_review_survives_a_restart_computed_or_still_pending(store) -> None:
    first = _service(store, enabled=False)  # stops before computing: the reviews stay pending
    await _play(first)
    t = await first.load(CHANNEL)
    assert {r.status for r in await store.community.get_reviews(CHANNEL, t.row.created_at)} == {PENDING}

    second = _service(store)  # the bot started again
    gate = _held(second)
    assert "being computed" in await second.reviews.text(CHANNEL, BOB)
    gate.set()
    await second.reviews.wait()
    done = await second.reviews.text(CHANNEL, BOB)
    assert done.startswith("**Your review of this")

    third = _service(store)  # and again: the review is read, not computed
    assert await third.reviews.text(CHANNEL, BOB) == done
    assert third.reviews._task is None


async def test_the_reviews_a_stopped_bot_left_pending_are_computed_once_it_is_back(store) -> None:
    from bot.discord import create_bot
    from tests.discord.conftest import BotConfig

    first = _service(store, enabled=False)  # stops before computing: the reviews stay pending
    await _play(first)
    t = await first.load(CHANNEL)
    second = _service(store)  # the bot started again; nobody asks for a review, no game ends
    await create_bot(BotConfig(), second).catch_up(None)
    await second.reviews.wait()
    assert {r.status for r in await store.community.get_reviews(CHANNEL, t.row.created_at)} == {DONE}


async def test_the_console_answers_diplomacy_review_to_the_caller_alone(store) -> None:
    service = _service(store)
    out = io.StringIO()
    console = Console(service, out)
    await console.line(f"as alice /game new game:{GAME.id}")
    await console.line("as bob /game join")
    await console.line("as carol /game join")
    await console.line("as alice /game start seed:7")
    await console.line("as alice /diplomacy review")
    assert NOT_OVER in out.getvalue()
    await console.line("auto all")
    await service.reviews.wait()
    out.seek(0), out.truncate()
    await console.line("as bob /diplomacy review")
    lines = out.getvalue().splitlines()
    assert lines and all(line.startswith("[private to bob] ") for line in lines), lines
    assert "Your review of this" in lines[0]


async def test_review_work_waits_behind_the_live_decisions() -> None:
    """A piece of review work goes to the workers only once no live decision is waiting."""
    players = AutomaticPlayers(workers=0)
    ran: list[str] = []
    try:
        players._live = 1  # a live decision submitted, not yet answered
        piece = asyncio.ensure_future(players.background(ran.append, "piece"))
        await asyncio.sleep(0.3)
        assert ran == [] and not piece.done()
        players._live = 0
        await asyncio.wait_for(piece, 5)
        assert ran == ["piece"]
    finally:
        players.close()


@pytest.mark.processes
async def test_the_review_is_computed_in_the_automatic_players_worker_process(tmp_path) -> None:
    store = await open_store(tmp_path / "workers.sqlite3")
    try:
        service = TableService(store, clock=Clock(), automatic_workers=1, draw_pictures=False)
        service.reviews.enabled = True
        service.reviews.per_decision, service.reviews.per_seat, service.reviews.piece = 16, 400, 16
        await _play(service)
        await service.reviews.wait()
        t = await service.load(CHANNEL)
        rows = await store.community.get_reviews(CHANNEL, t.row.created_at)
        assert rows and {r.status for r in rows} == {DONE}
        actions = [(a.seat, json.loads(a.action)) for a in await store.get_actions(CHANNEL)]
        seat = await _seat(service, CAROL)
        expected = review(
            GAME, list(t.state.seats), GAME.Options(), 7, actions, seat, seed_for(7, "review"),
            per_decision=16, per_seat=400,
        )
        assert [Turning.from_json(x) for x in next(r for r in rows if r.seat == seat).turnings] == expected
        assert service.automatic.lost_workers == 0
        service.close()
    finally:
        await store.close()


async def test_a_review_under_way_when_the_bot_stops_stays_pending_for_the_next_start(store) -> None:
    service = _service(store)
    gate = _held(service)
    await _play(service)
    t = await service.load(CHANNEL)
    task = service.reviews._task
    assert task is not None and not task.done()  # computing, held at its first piece
    service.close()  # the process shuts down (its store closes next)
    gate.set()
    await asyncio.sleep(0.1)
    assert task.cancelled()  # stopped, not run on into a closed store
    assert {r.status for r in await store.community.get_reviews(CHANNEL, t.row.created_at)} == {PENDING}
