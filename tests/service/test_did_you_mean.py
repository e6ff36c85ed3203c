"""A typo is answered with "Did you mean …?" naming the nearest one or two (engine/core/names.py
`did_you_mean`), before the list of valid choices: an unknown game command, a `/game join`
preference, a card typed wrong."""

from __future__ import annotations

import pytest

from bot.service.tables import TableError

from .conftest import ALICE, BOB, CAROL, CHANNEL, seated


async def test_a_misspelt_game_command_is_answered_with_the_nearest_command(service):
    await seated(service, "alice", "bob", "carol")
    with pytest.raises(TableError) as refused:
        await service.command(CHANNEL, ALICE, "comit", {"value": "1"})
    assert str(refused.value) == (
        "There is no /envoys comit. Did you mean /envoys commit? Commands: commit, press, yield, ready, hand."
    )


async def test_a_command_like_no_other_is_answered_with_the_commands_alone(service):
    await seated(service, "alice", "bob", "carol")
    with pytest.raises(TableError) as refused:
        await service.command(CHANNEL, ALICE, "bid", {})
    assert "Did you mean" not in str(refused.value) and "Commands: commit, press" in str(refused.value)


async def test_a_misspelt_nation_preference_is_answered_with_the_nearest_nation(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    with pytest.raises(TableError) as refused:
        await service.lobby.join(CHANNEL, BOB, "bob", preference="germny")
    text = str(refused.value)
    assert "has no nation or seat called" in text and " Did you mean Germany" in text
    assert text.index("Did you mean") < text.index("Choose one of: ")


async def test_a_misspelt_statesman_preference_is_answered_with_the_nearest_statesman(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    with pytest.raises(TableError) as refused:
        await service.lobby.join(CHANNEL, CAROL, "carol", preference="sazanov")
    assert "Did you mean Sazonov" in str(refused.value)
