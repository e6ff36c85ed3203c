"""Where the automatic players think (bot/service/automatic.py): in a worker process by
default, with the same decision as in this process for the same seeded inputs, from the
seat's own view only; a dead worker or a decision past its budget costs one decision of
the basic player, never a stalled table."""

from __future__ import annotations

import logging
import multiprocessing
import random
import time
from dataclasses import replace

import pytest

from bot.service.automatic import AutomaticPlayers, decide
from engine import games
from engine.core import rng_for
from engine.core.search import STRENGTHS, Strength
from tests.test_search import GAME as ENVOYS
from tests.tinygame import Commit

from .games import DyingEnvoys, SlowEnvoys

FEW = replace(STRENGTHS["strong"], iterations=24)  # the strong search, fewer iterations


@pytest.fixture
def pool(strong_automatic_seats):
    automatic = AutomaticPlayers(workers=1, strengths={**STRENGTHS, "strong": FEW})
    for started in automatic.start():
        started.result(timeout=120)
    yield automatic
    automatic.close()


def _positions(game, players: int, count: int, every: int) -> list:
    """Positions of a game the basic players play from a fixed seed."""
    seats = [f"s{i}" for i in range(1, players + 1)]
    state, rng, found = game.setup(seats, game.Options(), 20), random.Random(3), []
    while game.outcome(state) is None and len(found) < count:
        seat = game.prompts(state)[0].seat
        if state.step % every == 0:
            found.append((state.model_copy(deep=True), seat))
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng))
    return found


@pytest.mark.parametrize(("game_id", "players"), [("crisis1914", 3), ("schonbrunn", 4), ("origins", 3)])
async def test_a_decision_in_the_worker_is_the_decision_in_this_process(pool, game_id, players):
    game = games.get(game_id)
    name = "reserve" if game_id == "origins" else "strong"  # Origins' strong seats play its best player
    strength = FEW if name == "strong" else None
    for state, seat in _positions(game, players, 4, 9):
        rng = rng_for(state.seed, state.step, "auto")
        in_pool = await pool.choose(game, state, seat, rng, "strong")
        here = decide(game, name, strength, state, seat, rng_for(state.seed, state.step, "auto"))
        assert in_pool == here, (game_id, state.step)
    assert pool.overruns == 0 and pool.lost_workers == 0


async def test_the_worker_decides_from_the_seats_view_only(pool):
    state = ENVOYS.setup(["s1", "s2", "s3"], ENVOYS.Options(), 9)
    state, _ = ENVOYS.apply(state, "s2", Commit(value=3))
    state, _ = ENVOYS.apply(state, "s3", Commit(value=2))
    other = ENVOYS.vary_hidden(state, "s1", random.Random(1))
    other.seed = state.seed + 1  # the seed behind future dice is hidden too
    other.commits = {"s2": 1, "s3": 1}
    assert other.commits != state.commits and ENVOYS.view(other, "s1") == ENVOYS.view(state, "s1")
    pool.strengths["strong"] = Strength(iterations=60)
    decisions = [await pool.choose(ENVOYS, s, "s1", random.Random(7), "strong") for s in (state, other)]
    assert decisions[0] == decisions[1]


async def test_the_decisions_run_in_a_worker_process_and_close_stops_it(pool):
    state = ENVOYS.setup(["s1", "s2", "s3"], ENVOYS.Options(), 9)
    await pool.choose(ENVOYS, state, "s1", random.Random(1), "strong")
    workers = set(pool._executor._processes.values())
    assert len(workers) == 1 and workers <= set(multiprocessing.active_children())
    pool.close()
    deadline = time.monotonic() + 10
    while workers & set(multiprocessing.active_children()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not workers & set(multiprocessing.active_children())


async def test_the_worker_thinks_at_a_lower_priority_than_the_bot(pool):
    """Where cores are short, the bot's own process (every human table) is served first."""
    import os

    from bot.service.automatic import WORKER_NICENESS

    state = ENVOYS.setup(["s1", "s2", "s3"], ENVOYS.Options(), 9)
    await pool.choose(ENVOYS, state, "s1", random.Random(1), "strong")
    (worker,) = pool._executor._processes.values()
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, worker.pid) == min(mine + WORKER_NICENESS, 19)


async def test_workers_zero_decides_on_a_thread_of_this_process(strong_automatic_seats):
    automatic = AutomaticPlayers(workers=0, strengths={**STRENGTHS, "strong": FEW})
    state = ENVOYS.setup(["s1", "s2", "s3"], ENVOYS.Options(), 9)
    before = set(multiprocessing.active_children())  # an earlier test's worker may still be ending
    try:
        chosen = await automatic.choose(ENVOYS, state, "s1", random.Random(4), "strong")
        assert set(multiprocessing.active_children()) <= before
        assert chosen == decide(ENVOYS, "strong", FEW, state, "s1", random.Random(4))
    finally:
        automatic.close()


async def test_a_worker_that_dies_costs_one_basic_decision_and_a_new_worker_takes_over(pool, caplog):
    dying = DyingEnvoys()
    state = dying.setup(["s1", "s2", "s3"], dying.Options(), 9)
    with caplog.at_level(logging.WARNING, logger="bot.service.automatic"):
        chosen = await pool.choose(dying, state, "s1", random.Random(5), "strong")
    assert chosen == dying.bot_action(state, "s1", random.Random(5))
    assert pool.lost_workers == 1 and "worker process died" in caplog.text
    after = await pool.choose(ENVOYS, state, "s1", random.Random(6), "strong")
    assert after == decide(ENVOYS, "strong", FEW, state, "s1", random.Random(6))
    assert pool.lost_workers == 1


async def test_a_decision_past_its_budget_is_the_basic_players_and_warned_of_once(pool, caplog):
    slow = SlowEnvoys()
    state = slow.setup(["s1", "s2", "s3"], slow.Options(), 9)
    pool.budget = 0.3  # the search takes 24 x 0.05 s at least
    with caplog.at_level(logging.INFO, logger="bot.service.automatic"):
        for stream in (5, 6):
            began = time.monotonic()
            chosen = await pool.choose(slow, state, "s1", random.Random(stream), "strong")
            assert time.monotonic() - began < 1.0  # the table did not wait for the search
            assert chosen == slow.bot_action(state, "s1", random.Random(stream))
    assert pool.overruns == 2
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.INFO]


async def test_the_basic_player_decides_here_without_a_worker(strong_automatic_seats):
    automatic = AutomaticPlayers(workers=1)
    state = ENVOYS.setup(["s1", "s2", "s3"], ENVOYS.Options(), 9)
    before = set(multiprocessing.active_children())  # an earlier test's worker may still be ending
    chosen = await automatic.choose(ENVOYS, state, "s1", random.Random(4), "basic")
    assert chosen == ENVOYS.bot_action(state, "s1", random.Random(4))
    assert set(multiprocessing.active_children()) <= before
    automatic.close()
