"""The CPU a finished game's review takes (engine/core/review.py, bot/service/reviews.py):
per seat, for each title at its largest player count, and whether it fits the automatic
players' workers.

    .venv/bin/python bench/review.py [--seats 1] [--seed 1] [--game crisis1914]

A game is played to its end by the basic players (engine/core/playout.py), then a seat's
review runs as the bot runs it: from the setup, in pieces of PIECE iterations, each
`engine.core.review.advance` as a worker calls it, at the default budgets (PER_DECISION
iterations a decision, PER_SEAT a seat). Printed per seat: its actions, the decisions
weighed, the iterations each got, the CPU seconds of the whole review and of its longest
piece. It fits when the longest piece stays well inside a live decision's budget
(bot/service/automatic.py, BUDGET: a live decision submitted behind a piece waits at most
for that piece), and the per-seat total is what the "ready in about N minutes" estimate
counts on one worker.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project's packages, not bench/engine.py

from bot.service.automatic import BUDGET  # noqa: E402
from bot.service.reviews import PIECE  # noqa: E402
from engine import games  # noqa: E402
from engine.core.playout import play_out  # noqa: E402
from engine.core.review import PER_DECISION, PER_SEAT, advance, finish, start, weighed  # noqa: E402
from engine.core.rng import seed_for  # noqa: E402

LARGEST = {"crisis1914": 5, "origins": 7, "schonbrunn": 6}  # each rulebook's most players (engine's max_players)


def seat_review(game_id: str, po: Any, seed: int, seat: str) -> dict[str, float]:
    game = games.get(game_id)
    seats = list(po.state.seats)
    actions = [(s, a.model_dump(mode="json")) for s, a in po.actions]
    progress = start(game, seats, game.Options(), seed, actions, seat)
    weighed_count, state = 0, game.setup(seats, game.Options(), seed)
    for s, a in po.actions:  # the decisions a review weighs, counted apart from the timing
        if s == seat and weighed(game, game.knowledge(), state, s, a):
            weighed_count += 1
        state = game.step(state, s, a).state
    longest = total = 0.0
    review_seed = seed_for(seed, "review")
    while not progress.done(actions):
        began = time.process_time()
        progress = advance(game, progress, actions, review_seed, PIECE)
        spent = time.process_time() - began
        total += spent
        longest = max(longest, spent)
    return {
        "actions": sum(1 for s, _ in actions if s == seat),
        "weighed": weighed_count,
        "iterations": progress.iterations,
        "cpu": total,
        "longest": longest,
        "shown": len(finish(progress)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=0, help="seats reviewed per title, from the first (0: every one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=sorted(LARGEST), action="append")
    args = parser.parse_args()
    print(f"budgets: {PER_DECISION} iterations a decision, {PER_SEAT} a seat, pieces of {PIECE}; live budget {BUDGET:g} s")
    worst = 0.0
    for game_id in args.game or sorted(LARGEST):
        players = LARGEST[game_id]
        assert games.get(game_id).max_players == players, game_id
        po = play_out(games.get(game_id), players, args.seed)
        total = 0.0
        for i, seat in enumerate(list(po.state.seats)[: args.seats or players]):
            r = seat_review(game_id, po, args.seed, seat)
            worst, total = max(worst, r["longest"]), total + r["cpu"]
            print(
                f"{game_id} {players} players, seat {i + 1}: {r['actions']:.0f} actions, {r['weighed']:.0f} decisions "
                f"weighed at {r['iterations']:.0f} iterations, CPU {r['cpu']:.1f} s for the seat, longest piece "
                f"{r['longest']:.2f} s, {r['shown']:.0f} turning points"
            )
        print(f"{game_id} {players} players: CPU {total:.1f} s for the seats reviewed", flush=True)
    fits = worst < BUDGET / 10
    print(f"longest piece {worst:.2f} s: {'fits' if fits else 'does NOT fit'} (under a tenth of the {BUDGET:g} s budget)")


if __name__ == "__main__":
    main()
