"""Crisis: 1914 solitaire: the share of games per Victory tier (rules/crisis-1914.txt,
Solitaire Game, Victory Conditions) for one automatic Berchtold.

    python bench/crisis1914_solitaire.py --player playout --games 2000 --seed 16000
    python bench/crisis1914_solitaire.py --player quick --games 30 --seed 16000

Game g is set up with seed `seed + g`. `playout` is the strong player's playout statesman
(`engine.crisis1914.fast_policy.fast_action`) alone; any other name is an `engine.core.players`
player ("basic", "quick", "strong"). Prints the mean Prestige, each tier's share with its
95% (Wilson) interval, and the share lost to war.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.players import player  # noqa: E402
from engine.crisis1914 import GAME  # noqa: E402
from engine.crisis1914.fast_policy import fast_action  # noqa: E402

TIERS = [(40, "40+"), (35, "35-39"), (30, "30-34"), (25, "25-29 (tie)"), (-99, "24 or fewer (loss)")]


def wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--player", default="playout")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=16000)
    args = ap.parse_args()
    policy = fast_action if args.player == "playout" else player(GAME, args.player)
    counts = {label: 0 for _, label in TIERS}
    wars = total = 0
    start = time.process_time()
    for g in range(args.games):
        state = GAME.setup(["s1"], GAME.Options(), args.seed + g)
        rng = random.Random(args.seed + g)
        while prompts := GAME.prompts(state):
            seat = prompts[0].seat
            state, _ = GAME.apply(state, seat, policy(state, seat, rng))
        p = next(iter(state.players.values()))
        prestige = 0 if p.lost else p.prestige
        wars += bool(p.lost)
        total += prestige
        counts[next(label for floor, label in TIERS if prestige >= floor)] += 1
    n = args.games
    print(f"{args.player}, {n} games from seed {args.seed}: mean Prestige {total / n:.1f}")
    won = 0
    for floor, label in TIERS:
        lo, hi = wilson(counts[label], n)
        print(f"  {label}: {counts[label] / n:.1%} (95% {lo:.1%}-{hi:.1%})")
        won += counts[label] if floor >= 30 else 0
    lo, hi = wilson(won, n)
    print(f"  a Victory (30+): {won / n:.1%} (95% {lo:.1%}-{hi:.1%}); lost to war {wars / n:.1%}")
    print(f"  {time.process_time() - start:.1f} s of CPU")


if __name__ == "__main__":
    main()
