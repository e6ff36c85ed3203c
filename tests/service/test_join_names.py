"""A /game join preference is read as players type names: without accents and by the
nations' common names (engine/core/names.py `matches_seat`, `Game.nation_names`)."""

from __future__ import annotations

import pytest

from bot.service.tables import TableError

from .conftest import ALICE, BOB, CAROL, CHANNEL


async def _labels(service) -> dict[str, str]:
    info = await service.table_info(CHANNEL)
    return {s.name: s.label for s in info.seats}


async def test_crisis_preferences_poincare_without_accent_and_england_for_britain(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")  # France and Britain play at 5
    await service.lobby.join(CHANNEL, BOB, "bob", preference="Poincare")
    await service.lobby.join(CHANNEL, CAROL, "carol", preference="England")
    await service.lobby.join(CHANNEL, 4, "dora")
    await service.lobby.join(CHANNEL, 5, "emil")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    labels = await _labels(service)
    assert "France" in labels["bob"] and "Britain" in labels["carol"], labels


async def test_schonbrunn_preference_by_a_common_name(service):
    await service.lobby.create(CHANNEL, 9, "schonbrunn", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob", preference="England")
    await service.lobby.join(CHANNEL, CAROL, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    labels = await _labels(service)
    assert "Britain" in labels["bob"], labels


async def test_a_preference_naming_no_nation_is_refused_in_words(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    with pytest.raises(TableError):
        await service.lobby.join(CHANNEL, BOB, "bob", preference="Narnia")
