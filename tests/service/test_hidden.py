"""What the service adds around a game's public view (seats, who owes what, deadlines)
must not depend on hidden facts either: the public status of a state and of the same
state with every hidden fact varied (the game's `vary_hidden`) are byte-identical."""

from __future__ import annotations

import random

import pytest

from engine import games
from tests import tinygame

from .conftest import CHANNEL


def _games() -> list[str]:
    try:
        names = games.ids()
    except Exception:  # noqa: BLE001 - a game package mid-edit elsewhere
        names = []
    return sorted({*names, tinygame.GAME.id})


@pytest.mark.parametrize("game_id", _games())
async def test_the_public_status_does_not_depend_on_hidden_facts(service, game_id):
    game = games.get(game_id)
    players = max(game.min_players, min(3, game.max_players))
    await service.lobby.create(CHANNEL, 9, game_id, 1, "p1")
    for uid in range(2, players + 1):
        await service.lobby.join(CHANNEL, uid, f"p{uid}")
    await service.lobby.start(CHANNEL, 1, seed=3)
    table = await service.load(CHANNEL)
    rng = random.Random(3)
    state = table.state
    for step in range(120):
        prompts = game.prompts(state)
        if not prompts or game.outcome(state) is not None:
            break
        if step % 2 == 0:
            varied = game.vary_hidden(state, None, random.Random(step))
            plain = service.posts.status(table.replaced(state=state))
            assert service.posts.status(table.replaced(state=varied)) == plain, f"{game_id}, step {step}"
        seat = rng.choice(prompts).seat
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng))
