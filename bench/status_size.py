"""How long the public status gets at the largest table of each game.

    python bench/status_size.py [--seeds 3]

Plays `--seeds` whole games of each game at its largest player count through the table
service (the automatic players deciding, members named anna, boris, …) and prints, per
game, the largest status card (the Discord embed: title, description, fields, footer) and
the largest whole status text (`/game status`, the Full status button, the console) seen
at any step, the end included. The card's goal is under 1,000 characters.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service.tables import TableService  # noqa: E402
from bot.store import open_store  # noqa: E402
from engine import games  # noqa: E402

GAMES = ("crisis1914", "origins", "schonbrunn")
NAMES = ["anna", "boris", "clara", "dmitri", "emil", "fritz", "gustav"]
CHANNEL = 10


class _Clock:
    def __call__(self) -> float:
        return 1_800_000_000.0


async def largest(game_id: str, seed: int) -> tuple[int, int]:
    game = games.get(game_id)
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "status.sqlite3")
        try:
            service = TableService(store, clock=_Clock(), draw_pictures=False)
            await service.lobby.create(CHANNEL, 1, game_id, 1, NAMES[0])
            for user in range(2, game.max_players + 1):
                await service.lobby.join(CHANNEL, user, NAMES[user - 1])
            await service.lobby.start(CHANNEL, 1, seed=seed)
            rng = random.Random(seed)
            card = text = 0
            while True:
                card = max(card, (await service.posts.status_card(CHANNEL)).size())
                text = max(text, len(await service.status(CHANNEL)))
                row = await store.get_table(CHANNEL)
                if row.status != "running":
                    return card, text
                state = game.load_state(row.state)
                seat = game.prompts(state)[0].seat
                users = {s.seat: s.user_id for s in await store.get_seats(CHANNEL)}
                await service.act(CHANNEL, users[seat], game.bot_action(state, seat, rng))
        finally:
            await store.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games per title (seeds 1..N, default 3)")
    args = parser.parse_args()
    for game_id in GAMES:
        sizes = [await largest(game_id, seed) for seed in range(1, args.seeds + 1)]
        print(
            f"{game_id}, {games.get(game_id).max_players} players: largest card "
            f"{max(c for c, _ in sizes)} characters, largest whole status {max(t for _, t in sizes)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
