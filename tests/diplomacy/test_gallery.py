"""The gallery (bot/service/gallery.py): a spectator follows a table by DM some rounds
behind, never sees the round in play through any command, gets everything held back when
the game ends, and is kept with the table across a restart."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import tests.tinygame
from bot.discord.markup import markup
from bot.service.gallery import CHANNEL_SHOWS_ALL, NOT_HERE, PLAYS_HERE, Rounds, rounds_behind
from bot.service.outbox import Outbox
from bot.service.tables import TableError, TableService
from bot.store import open_store
from engine.core import Event, Layout
from tests.tinygame import Envoys, EnvoyState

CHANNEL, OTHER = 100, 101
ALICE, BOB, SPECTATOR, LATE = 1, 2, 50, 51


class RoundEnvoys(Envoys):
    """Envoys with a public line that opens each round after the first, the kind of event
    the round summary starts a new message at (as Crisis: 1914's "Week 2 begins.")."""

    id = "roundenvoys"
    title = "Round Envoys (test game)"
    round_event = "round"

    def play(self, state: EnvoyState, seat: str, action: Any, rng: random.Random) -> list[Event]:
        before = state.round
        events = super().play(state, seat, action, rng)
        if state.round != before:
            events.append(Event(kind="round", text=f"Round {state.round} begins."))
        return events

    def layout(self, view: dict[str, Any]) -> Layout:
        return replace(super().layout(view), round=f"Round {view['round']}")  # the opening round's name


GAME = RoundEnvoys()


@pytest.fixture(autouse=True)
def registry(monkeypatch):
    tests.tinygame.registered(monkeypatch, GAME)


@pytest.fixture
def path(tmp_path):
    return tmp_path / "gallery.sqlite3"


@pytest.fixture
async def service(path):
    store = await open_store(path)
    yield TableService(store, clock=lambda: 1_800_000_000.0, draw_pictures=False)
    await store.close()


async def _table(service: TableService, *, rounds: int = 4, delay: str | None = None) -> None:
    await service.lobby.create(CHANNEL, 9, "roundenvoys", ALICE, "alice", {"rounds": rounds})
    await service.lobby.join(CHANNEL, BOB, "bob")
    if delay is not None:
        await service.settings(CHANNEL, ALICE, {"spectator_delay": delay})
    await service.lobby.start(CHANNEL, ALICE, seed=11)


async def _round(
    service: TableService, values: tuple[int, int] = (3, 1), players: tuple[int, int] = (ALICE, BOB)
) -> list[Outbox]:
    """One whole round: both commit, the first seat of the round yields, both say ready."""
    outs = [await service.command(CHANNEL, uid, "commit", {"value": str(v)}) for uid, v in zip(players, values, strict=True)]
    t = await service.load(CHANNEL)
    first = t.game.prompts(t.state)[0].seat
    holder = t.holder(first)
    assert holder is not None
    outs.append(await service.command(CHANNEL, holder.user_id, "yield", {}))
    outs += [await service.command(CHANNEL, uid, "ready", {}) for uid in players]
    return outs


def _dms(outs: list[Outbox], user_id: int = SPECTATOR) -> list[str]:
    """The DMs `user_id` reads, as Discord shows them."""
    return [markup(p.text) for out in outs for p in out.posts if p.to == "seat" and p.user_id == user_id and p.dm]


async def _public(service: TableService) -> list[str]:
    return [e.text for e in await service.store.get_all_events(CHANNEL) if e.audience is None]


def _round_lines(log: list[str], k: int) -> list[str]:
    """Round k's lines (1 is the first) of a public log of the test game."""
    starts = [0] + [i for i, line in enumerate(log) if line.endswith(" begins.")]
    ends = starts[1:] + [len(log)]
    return log[starts[k - 1] : ends[k - 1]]


async def test_each_round_comes_by_dm_once_one_more_round_is_over(service):
    await _table(service)  # the default delay: 1
    reply = (await service.gallery.spectate(CHANNEL, SPECTATOR)).reply
    assert "/diplomacy spectate stop:yes" in reply and rounds_behind(1) in reply
    assert _dms(await _round(service)) == []  # round 1 is over, but no round after it yet
    dms = _dms(await _round(service))  # round 2 is over: round 1 comes
    log = await _public(service)
    assert dms == ["**Round Envoys (test game)**, Round 1:\n" + "\n".join(_round_lines(log, 1))]
    dms = _dms(await _round(service))  # round 3 is over: round 2 comes, nothing of round 3
    log = await _public(service)
    assert dms == ["**Round Envoys (test game)**, Round 2:\n" + "\n".join(_round_lines(log, 2))]
    end = await _round(service)  # the last round: the game is over, the rest comes with the standings
    log = await _public(service)
    dms = _dms(end)
    assert dms[:2] == [
        f"**Round Envoys (test game)**, Round {k} (the game is over):\n" + "\n".join(_round_lines(log, k))
        for k in (3, 4)
    ]
    standings = [markup(p.text) for out in end for p in out.posts if p.kind == "standings"]
    assert dms[2:] == standings and len(standings) == 1
    # nothing to anyone else: the players get no gallery post
    assert not [p for out in end for p in out.posts if p.kind == "gallery" and p.user_id != SPECTATOR]


async def test_a_longer_delay_holds_back_more_rounds_and_a_spectator_is_sent_each_round_once(service):
    await _table(service, rounds=5, delay="2")
    await service.gallery.spectate(CHANNEL, SPECTATOR)
    sent = []
    for _ in range(4):
        sent.append(len(_dms(await _round(service))))
    assert sent == [0, 0, 1, 1]  # round 1 once rounds 2 and 3 are over, round 2 once round 4 is
    assert len(_dms(await _round(service))) == 3 + 1  # the end: rounds 3, 4, 5 and the standings


async def test_a_spectator_reads_nothing_of_the_rounds_held_back_through_any_command(service):
    await _table(service)
    await service.gallery.spectate(CHANNEL, SPECTATOR)
    for _ in range(2):
        await _round(service)
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})  # round 3 in play
    await service.controls.substitute(CHANNEL, ALICE, "s2", LATE, "lena")  # news of round 3
    log = await _public(service)
    shown = _round_lines(log, 1)
    held = [line for line in log[len(shown) :]]
    assert "Round 2 begins." in held

    status = markup(await service.status(CHANNEL, SPECTATOR))
    assert "the table as Round 1 ended" in status
    assert "round 1, diplomacy" in status  # the state before the move that began round 2
    assert "round 3" not in status and "Waiting for" not in status
    assert "2. bob" in status and "lena" not in status  # who sat there then
    assert "round 3, commit" in markup(await service.status(CHANNEL, BOB))  # a player reads it live
    assert "round 3, commit" in markup(await service.status(CHANNEL, LATE))  # so does a member not watching

    page = await service.history.log(CHANNEL, 1, SPECTATOR)
    assert page.splitlines()[0] == "You watch this table and see each round once one more round is over: " \
        "the record up to the end of Round 1."
    assert page.splitlines()[2:] == shown[-15:]
    assert "Round 2 begins." not in await service.history.log(CHANNEL, 2, SPECTATOR)

    record = await service.history.export(CHANNEL, SPECTATOR)
    assert [e["text"] for e in record["public_log"]] == shown
    assert record["public_view"]["round"] == 1 and "Round 1" in record["note"]
    assert "seed" not in record and "actions" not in record
    assert record["names"] == {"s1": "alice", "s2": "bob"} and "lena" not in str(record)
    with pytest.raises(TableError, match="replay page comes when the game ends"):
        await service.history.export_html(CHANNEL, SPECTATOR)

    with pytest.raises(TableError, match="not seated"):
        await service.me(CHANNEL, SPECTATOR)
    assert await service.my_picture(CHANNEL, SPECTATOR) is None
    with pytest.raises(TableError, match="not seated"):
        await service.choices(CHANNEL, SPECTATOR)
    assert await service.choice_details(CHANNEL, SPECTATOR, 0) == {}
    assert await service.suggest(CHANNEL, SPECTATOR, "commit", "value", {}, "") == []
    assert await service.aid(CHANNEL, SPECTATOR) == GAME.aid(None, None)

    # once the game is over, everything
    await service.command(CHANNEL, LATE, "commit", {"value": "1"})
    t = await service.load(CHANNEL)
    first = t.game.prompts(t.state)[0].seat
    await service.command(CHANNEL, t.holder(first).user_id, "yield", {})
    for uid in (ALICE, LATE):
        await service.command(CHANNEL, uid, "ready", {})
    await _round(service, players=(ALICE, LATE))
    assert (await service.load(CHANNEL)).row.status == "finished"
    assert await service.status(CHANNEL, SPECTATOR) == await service.status(CHANNEL, LATE)
    assert await service.history.log(CHANNEL, 1, SPECTATOR) == await service.history.log(CHANNEL, 1)
    assert (await service.history.export(CHANNEL, SPECTATOR))["seed"] == 11


async def test_spectators_are_kept_with_the_table_across_a_restart(path):
    store = await open_store(path)
    first = TableService(store, draw_pictures=False)
    await _table(first)
    await first.gallery.spectate(CHANNEL, SPECTATOR)
    await _round(first)
    await store.close()

    store = await open_store(path)
    again = TableService(store, draw_pictures=False)
    try:
        dms = _dms(await _round(again))  # round 2 over: round 1 comes, from the new process
        assert len(dms) == 1 and dms[0].startswith("**Round Envoys (test game)**, Round 1:")
        assert "the table as Round 1 ended" in markup(await again.status(CHANNEL, SPECTATOR))
        reply = (await again.gallery.spectate(CHANNEL, SPECTATOR, stop=True)).reply
        assert reply.startswith("You no longer watch this table")
        assert _dms(await _round(again)) == []
        assert "round 4, commit" in markup(await again.status(CHANNEL, SPECTATOR))  # no longer held back
    finally:
        await store.close()


async def test_abandoning_the_game_sends_what_was_held_back(service):
    await _table(service)
    await service.gallery.spectate(CHANNEL, SPECTATOR)
    await _round(service)
    out = await service.abandon(CHANNEL, ALICE)
    dms = _dms([out])
    assert [d.splitlines()[0] for d in dms] == [
        "**Round Envoys (test game)**, Round 1 (the game is over):",
        "**Round Envoys (test game)**, Round 2 (the game is over):",
        "The game was abandoned.",
    ]


async def test_the_host_sets_the_delay_and_is_told_the_channel_still_shows_everything(service):
    await service.lobby.create(CHANNEL, 9, "roundenvoys", ALICE, "alice")
    out = await service.settings(CHANNEL, ALICE, {"spectator_delay": "2"})
    assert "spectator_delay: 2" in out.reply and CHANNEL_SHOWS_ALL in out.reply
    assert [p.text for p in out.posts] == ["Settings changed: spectator_delay = 2. It applies at once."]
    assert (await service.load(CHANNEL)).settings.spectator_delay == 2
    for wrong in ("6", "-1", "two", "1.5"):
        with pytest.raises(TableError, match="`spectator_delay` is a whole number of rounds from 0 to 5"):
            await service.settings(CHANNEL, ALICE, {"spectator_delay": wrong})
    with pytest.raises(TableError, match="Did you mean spectator_delay"):
        await service.settings(CHANNEL, ALICE, {"spectator_dealy": "2"})
    with pytest.raises(TableError, match="Only the host"):
        await service.settings(CHANNEL, BOB, {"spectator_delay": "0"})


def test_rounds_are_cut_where_the_round_summary_starts_a_message():
    from bot.store import EventRow

    events = [EventRow(1, i, None, kind, text, 0.0) for i, (kind, text) in enumerate(
        [("round", "Round 1 begins."), ("x", "a"), ("round", "Round 2 begins."), ("x", "b"), ("round", "R3")]
    )]
    rounds = Rounds.of(events, "round")
    assert rounds.opens == [0, 2, 4] and len(rounds) == 3
    assert rounds.lines(0) == ["Round 1 begins.", "a"] and rounds.lines(2) == ["R3"]
    assert [rounds.shown(d) for d in (0, 1, 2, 3)] == [2, 1, 0, 0]  # never the round in play


async def test_spectate_refusals(service):
    with pytest.raises(TableError) as no_table:
        await service.gallery.spectate(OTHER, SPECTATOR)
    assert str(no_table.value) == NOT_HERE
    await _table(service)
    with pytest.raises(TableError) as seated:
        await service.gallery.spectate(CHANNEL, BOB)
    assert str(seated.value) == PLAYS_HERE
    with pytest.raises(TableError, match="not watching"):
        await service.gallery.spectate(CHANNEL, SPECTATOR, stop=True)
    await service.gallery.spectate(CHANNEL, SPECTATOR)
    with pytest.raises(TableError, match="already watch"):
        await service.gallery.spectate(CHANNEL, SPECTATOR)
    await service.controls.substitute(CHANNEL, ALICE, "s2", SPECTATOR, "carol")  # seated now: live
    assert "round 1, commit" in markup(await service.status(CHANNEL, SPECTATOR))


@pytest.mark.whole_game
@pytest.mark.parametrize("game,players", [("schonbrunn", 3), ("origins", 3), ("crisis1914", 2)])
async def test_a_real_game_reaches_its_spectator_round_by_round_as_its_summary_cuts_it(service, game, players):
    """Schönbrunn's rounds, Origins' turns, Crisis: 1914's Weeks: each comes whole, in
    order, once one more is over; at the end the spectator has read the whole public log."""
    await service.lobby.create(CHANNEL, 9, game, ALICE, "alice")
    for uid in range(2, players + 1):
        await service.lobby.join(CHANNEL, uid, f"player{uid}")
    await service.lobby.start(CHANNEL, ALICE, seed=5)
    await service.gallery.spectate(CHANNEL, SPECTATOR)
    g = (await service.load(CHANNEL)).game
    dms: list[tuple[int, str]] = []  # (rounds begun when it was sent, the DM)
    while (out := await service.auto(CHANNEL)) is not None:
        if sent := _dms([out]):
            begun = 1 + sum(e.kind == g.round_event for e in (await service.store.get_all_events(CHANNEL))[1:])
            dms += [(begun, text) for text in sent]
    log = await _public(service)
    rounds = Rounds.of([e for e in await service.store.get_all_events(CHANNEL) if e.audience is None], g.round_event)
    assert len(rounds) >= 4
    texts = [text for _, text in dms]
    assert ["\n".join(text.splitlines()[1:]) for text in texts[: len(rounds)]] == [
        "\n".join(rounds.lines(k)) for k in range(len(rounds))
    ]
    # round k (0 the opening) was sent only once round k + 2 had begun, or at the end
    for k, (begun, text) in enumerate(dms[: len(rounds) - 2]):
        assert begun == k + 3, (k, text.splitlines()[0])
    assert sum(len(rounds.lines(k)) for k in range(len(rounds))) == len(log)
    assert texts[len(rounds)].startswith("**Final standings**") and len(texts) == len(rounds) + 1
