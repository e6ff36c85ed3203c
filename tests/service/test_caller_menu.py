"""An action's answer carries what the member who acted may do next (`Outbox.caller_menu`,
bot/service/menus.py), from the table version their action left: the same turn choices and
Origins sheets the service gives when asked afterwards, so the front end shows them with
no second read of the table."""

from __future__ import annotations

import random

from engine import games

from .conftest import ALICE, BOB, CHANNEL

GAME = "origins"  # the only game with sheets to write, and decisions that follow each other


async def test_each_answer_carries_the_callers_next_choices_and_sheets(service):
    await service.lobby.create(CHANNEL, 1, GAME, ALICE, "alice", {})
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=3)
    game, rng = games.get(GAME), random.Random(4)
    owed_again = with_sheets = 0
    for _ in range(150):
        t = await service.load(CHANNEL)
        if t.row.status != "running":
            break
        seat = t.prompts[0].seat
        user = t.holder(seat).user_id
        out = await service.act(CHANNEL, user, game.bot_action(t.state, seat, rng))
        assert out.caller_menu is not None
        menu = out.caller_menu.read()
        assert (menu.step, menu.choices) == await service.turn_menu(CHANNEL, user)
        assert menu.sheets == await service.own_sheets(CHANNEL, user)
        owed_again += bool(menu.choices)
        with_sheets += bool(menu.sheets)
    assert owed_again and with_sheets  # both kinds were carried, not only empty menus
