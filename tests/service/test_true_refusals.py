"""A refusal gives the true reason: a second secret choice is refused as already made, not
as "It is not your turn" (Game.waiting_reason)."""

from __future__ import annotations

import pytest

from bot.service.tables import TableError

from .conftest import ALICE, BOB, CAROL, CHANNEL


async def test_a_second_commit_in_the_hierarchy_is_refused_as_already_committed(service):
    await service.lobby.create(CHANNEL, 9, "schonbrunn", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.join(CHANNEL, CAROL, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    for _ in range(200):  # automatic moves up to the first Hierarchy
        t = await service.access.load(CHANNEL)
        if t.state.stage == "commit" and len(t.state.queue) == 3:
            break
        await service.auto(CHANNEL)
    else:
        pytest.fail("no Hierarchy reached")
    user = next(s.user_id for s in t.seats if s.seat == t.state.queue[0])
    delegate = t.game.legal_actions(t.state, t.state.queue[0])[0].delegate
    await service.command(CHANNEL, user, "commit", {"delegate": delegate})
    with pytest.raises(TableError) as refused:
        await service.command(CHANNEL, user, "commit", {"delegate": delegate})
    text = str(refused.value)
    assert text.startswith("You have already committed a Delegate this round. Still to choose: ")
    assert "not your turn" not in text
