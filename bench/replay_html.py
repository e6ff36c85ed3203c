"""How long the replay page of a finished game takes to write, and how large it is.

    python bench/replay_html.py [--seed 1] [--out FOLDER]

For the largest game of each title (7-player Origins of World War I, 5-player Crisis: 1914,
6-player Schönbrunn), one seeded game of the basic automatic players is recorded as
`/game export` records it, then `replay_page` turns the record into the HTML file (the
replay that checks the record, every step walked, the board and each player's own picture
drawn as SVG at every step, the page assembled) and the file is written. Prints per game:

    html: X s, Y MB for GAME Np (N actions; CPU Z s; P board pictures, S shapes)

with the CPU time beside the wall clock (on a shared machine the wall clock also counts
the time other processes held the core), how many different board pictures the page
holds and how many distinct SVG shapes they and the players' own pictures are made of.
Goals: under 10 s on one core and under 2 MB for each page. `--out` keeps the pages.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.render.replay_page import replay_page  # noqa: E402
from bot.store.records import record_from_playout  # noqa: E402
from engine import games  # noqa: E402
from engine.core.playout import play_out  # noqa: E402

GAMES = (("origins", 7), ("crisis1914", 5), ("schonbrunn", 6))


def _data(page: str) -> dict[str, Any]:
    """The JSON block the page's script reads."""
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    return dict(json.loads(found.group(1).replace("<\\/", "</")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="keep the pages in this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.out or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for game_id, players in GAMES:
            game = games.get(game_id)
            record = record_from_playout(game, play_out(game, players, seed=args.seed), seed=args.seed)
            data = record.model_dump(mode="json")
            data["names"] = {seat: f"Player {i + 1}" for i, seat in enumerate(data["seats"])}
            path = folder / f"{game_id}-{players}p.html"
            start, start_cpu = time.perf_counter(), time.process_time()
            path.write_bytes(replay_page(data))
            wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            size = path.stat().st_size / 1_000_000
            data = _data(path.read_text(encoding="utf-8"))
            print(
                f"html: {wall:.2f} s, {size:.2f} MB for {game.title} {players}p "
                f"({len(record.actions)} actions; CPU {cpu:.2f} s; "
                f"{len(set(data['picture']) - {-1})} board pictures, {len(data['shapes'])} shapes)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
