"""How long a board picture takes to draw.

    python bench/render.py [--states 40] [--seed 1]

For each game at its largest player count, `--states` states spread over one seeded game
of the automatic players are drawn from their public view, each timed once after one
warm-up drawing (fonts and content loaded), the PNG encoding included: what the bot does
once per state before it edits the status message. Prints per game the median, the 99th
percentile and the largest PNG, then last, over every image:

    render: median X ms, p99 Y ms per image

Goals: median at most 50 ms, every PNG at most 300 KB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.render.pictures import draw  # noqa: E402
from bot.render.pictures.sample import every_state  # noqa: E402
from engine import games  # noqa: E402

GAMES = ("origins", "crisis1914", "schonbrunn")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=40, help="states drawn per game (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    every: list[float] = []
    for game_id in GAMES:
        game = games.get(game_id)
        states = every_state(game, game.max_players, args.seed)
        picked = states[:: max(1, len(states) // args.states)][: args.states]
        views = [game.view(s, None) for s in picked]
        draw(game.id, views[0])  # warm-up: fonts, content
        times, cpu, largest = [], [], 0
        for view in views:
            start, start_cpu = time.perf_counter(), time.process_time()
            picture = draw(game.id, view)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            largest = max(largest, len(picture.png))
        every += times
        # CPU time beside the wall clock: on a shared machine the wall clock also counts
        # the time other processes held the core.
        print(
            f"{game.title}, {game.max_players} players: median {statistics.median(times):.1f} ms "
            f"(CPU {statistics.median(cpu):.1f} ms), p99 {p99(times):.1f} ms, "
            f"largest PNG {largest / 1024:.0f} KB ({len(times)} images)"
        )
    print(f"render: median {statistics.median(every):.1f} ms, p99 {p99(every):.1f} ms per image")
    return 0


if __name__ == "__main__":
    sys.exit(main())
