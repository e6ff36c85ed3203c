"""Whole random games per second per core, for each title at its largest player count.

    python bench/engine.py [--seconds 10] [--game crisis1914|origins|schonbrunn]

Each game is played from `setup` to its outcome, every decision chosen uniformly among
`legal_actions` (a prompt that lists none is answered by `bot_action` and counted), one
process, one core. Two ways of stepping are timed:

- `step`: the engine's pure path (`Game.step` copies the state, then plays), what the
  service and a search that keeps its states use;
- `in place`: `Game.play` on one state, what a playout that throws its state away needs.

The last line reads `engine: <title> X games/s, ...` for the pure path (goal: 100 each).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from engine import games  # noqa: E402
from engine.core.rng import rng_for  # noqa: E402

TITLES = {"crisis1914": 5, "origins": 7, "schonbrunn": 6}


def one_game(game, players: int, seed: int, in_place: bool) -> tuple[int, int]:
    """(decisions, decisions with no listed actions) of one uniform random game."""
    state = game.setup([f"s{i + 1}" for i in range(players)], game.Options(), seed)
    pick = random.Random(seed)
    decisions = unlisted = 0
    while game.outcome(state) is None:
        prompts = game.prompts(state)
        seat = pick.choice(prompts).seat
        legal = game.legal_actions(state, seat)
        if legal:
            action = pick.choice(legal)
        else:
            action = game.bot_action(state, seat, pick)
            unlisted += 1
        if in_place:
            game.play(state, seat, action, rng_for(seed, decisions, "bench"))
            state.step += 1
        else:
            state = game.step(state, seat, action, prompts=prompts).state
        decisions += 1
    return decisions, unlisted


def measure(
    game_id: str, seconds: float, in_place: bool, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, float, float]:
    """(games per second, decisions per game, share of decisions with nothing listed).
    `clock`: wall time, or this process's CPU time (`--cpu`), which other processes on a
    shared host disturb far less, for comparing two versions side by side."""
    game = games.get(game_id)
    players = TITLES[game_id]
    n = decisions = unlisted = 0
    start = clock()
    while clock() - start < seconds or n < 3:
        d, u = one_game(game, players, 1000 + n, in_place)
        n, decisions, unlisted = n + 1, decisions + d, unlisted + u
    elapsed = clock() - start
    return n / elapsed, decisions / n, unlisted / decisions


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="time per title and way (default 10)")
    parser.add_argument("--game", choices=list(TITLES), action="append", help="only these titles")
    parser.add_argument(
        "--cpu", action="store_true", help="time by this process's CPU time, not wall time (shared hosts)"
    )
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    titles = args.game or list(TITLES)
    summary = []
    for game_id in titles:
        rate, per_game, share = measure(game_id, args.seconds, in_place=False, clock=clock)
        rate_in_place, _, _ = measure(game_id, args.seconds, in_place=True, clock=clock)
        print(
            f"{game_id} ({TITLES[game_id]} players): {rate:.1f} games/s by step, {rate_in_place:.1f} in place; "
            f"{per_game:.0f} decisions a game, {share:.1%} of them with no listed actions"
        )
        summary.append(f"{game_id} {rate:.1f} games/s")
    print("engine: " + ", ".join(summary) + " (per core, uniform legal actions, goal 100)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
