"""A two-player Crisis: 1914 game through SimCord, started and played by the basic player
one action at a time: shared by the tests that count what a whole game's saves and
deliveries do (test_saves_per_action.py, test_delivery_reads_no_table.py)."""

from __future__ import annotations

import random
from typing import Any

from engine import games

GAME = "crisis1914"
PLAYERS = 2
MAX_ACTIONS = 600  # a cap, not a target: a two-player game takes about 200


async def started(env: Any, service: Any, game: str = GAME) -> tuple[Any, list[Any]]:
    """A new table's channel and its members, the game started with seed 7 and its opening
    delivered."""
    guild = env.create_guild()
    channel = guild.create_text_channel("table")
    players = [guild.add_member(env.create_user(f"p{i}")) for i in range(PLAYERS)]
    await players[0].slash(channel, "game new", game=game)
    for player in players[1:]:
        await player.slash(channel, "game join")
    with env.time_context():
        await env.bot.delivery.deliver(await service.lobby.start(channel.id, players[0].id, seed=7))
    return channel, players


async def next_action(service: Any, store: Any, channel_id: int, rng: random.Random) -> tuple[int, Any]:
    """The member who owes the next decision and a legal action of theirs."""
    game = games.get(GAME)
    state = game.load_state((await store.get_table(channel_id)).state)
    seat = game.prompts(state)[0].seat
    users = {s.seat: s.user_id for s in (await service.table_info(channel_id)).seats}
    return users[seat], game.bot_action(state, seat, rng)
