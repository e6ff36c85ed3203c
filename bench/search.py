"""How long the strong automatic player takes to decide (the goal: at most 1 s at
the default strength on a 2-core machine).

    .venv/bin/python bench/search.py                       # every title with a strong player
    .venv/bin/python bench/search.py --game origins --players 7 --strength quick --games 3
    .venv/bin/python bench/search.py --game origins --cpu    # CPU time per decision (loaded host)

Plays whole games with the named strong player in the first seat and the basic player in
the others (the lineup turns a seat each game), and times every decision the strong
player makes that has more than one choice (more than one legal action, or more than one
candidate of its search: Origins' Phase 4 lists one Submit, the sheets are the choice). Prints, per title and count, the decisions
timed and their median, 90th percentile and longest time. Not a test: the figures depend
on the machine and what else it runs; they go in bench/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import games  # noqa: E402
from engine.core.players import player  # noqa: E402
from engine.core.playout import play_out  # noqa: E402
from engine.core.search import STRENGTHS  # noqa: E402


def timed(
    game_id: str, players: int, strength: str, n_games: int, seed: int, clock=time.perf_counter
) -> list[float]:
    game = games.get(game_id)
    strong, basic = player(game, strength), player(game, "basic")
    knowledge = game.knowledge()
    times: list[float] = []

    def timing(state, seat, rng):
        # a choice: two legal actions, or a whole sheet written for a single Submit (Origins)
        if len(game.legal_actions(state, seat)) < 2 and len(knowledge.candidates(state, seat)) < 2:
            return strong(state, seat, rng)
        start = clock()
        action = strong(state, seat, rng)
        times.append(clock() - start)
        return action

    for index in range(n_games):
        seats = [f"s{i + 1}" for i in range(players)]
        strong_seat = seats[index % players]
        policies = {seat: (timing if seat == strong_seat else basic) for seat in seats}
        play_out(game, players, random.Random(seed + index).getrandbits(63), seat_policies=policies)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a title (default: every one with a strong player)")
    parser.add_argument("--players", type=int, help="player count (default: the largest and the smallest)")
    parser.add_argument("--strength", default="strong", choices=sorted(STRENGTHS))
    parser.add_argument("--games", type=int, default=2, help="games per title and count (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpu", action="store_true", help="time the process's CPU, not the wall clock (a loaded host)"
    )
    args = parser.parse_args()
    ids = args.game or [g for g in games.ids() if games.get(g).knowledge() is not None]
    for game_id in ids:
        game = games.get(game_id)
        if game.knowledge() is None:
            print(f"{game.title}: no strong player yet")
            continue
        counts = [args.players] if args.players else sorted({game.max_players, max(game.min_players, 2)})
        for n in counts:
            clock = time.process_time if args.cpu else time.perf_counter
            times = timed(game_id, n, args.strength, args.games, args.seed, clock)
            if not times:
                print(f"{game.title}, {n} players: no decision with a choice")
                continue
            q = statistics.quantiles(times, n=10)[-1] if len(times) >= 10 else max(times)
            print(
                f"{game.title}, {n} players, {args.strength} ({STRENGTHS[args.strength].iterations} iterations):"
                f" {len(times)} decisions, median {statistics.median(times) * 1000:.0f} ms,"
                f" p90 {q * 1000:.0f} ms, longest {max(times) * 1000:.0f} ms"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
