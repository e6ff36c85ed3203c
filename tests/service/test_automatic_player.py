"""The table's automatic player (bot/service/automatic.py): the game's search by default, its basic
player when the table says so, and the basic one where the game has no search."""

from __future__ import annotations

import json

import pytest

from bot.service.automatic import name_for
from bot.service.tables import TableError
from tests.test_search import SearchingEnvoys
from tests.tinygame import Yield

from .conftest import ALICE, CHANNEL


class Judged(SearchingEnvoys):
    """Envoys whose basic player always yields: only the search presses for the point."""

    id = "judged"
    title = "Judged Envoys"

    def bot_action(self, state, seat, rng):
        return Yield() if state.phase == "press" else super().bot_action(state, seat, rng)


async def _pressed_by_the_automatic_seat(service, setting: str | None) -> list[str]:
    await service.lobby.create(CHANNEL, 9, "judged", ALICE, "alice")
    await service.controls.set_automatic(CHANNEL, ALICE, None, True)
    if setting is not None:
        await service.settings(CHANNEL, ALICE, {"automatic_player": setting})
    await service.lobby.start(CHANNEL, ALICE, seed=5)
    auto = next(s for s in (await service.table_info(CHANNEL)).seats if s.automatic).seat
    game = Judged()
    for _ in range(40):
        t = await service.load(CHANNEL)
        if t.row.status != "running":
            break
        owing = [p for p in t.prompts if p.seat != auto]
        await service.act(CHANNEL, ALICE, game.default_action(t.state, owing[0].seat))
    return [
        json.loads(a.action)["kind"]
        for a in await service.store.get_actions(CHANNEL)
        if a.seat == auto and json.loads(a.action)["kind"] in ("press", "yield")
    ]


@pytest.fixture
def judged(registry, strong_automatic_seats):
    registry.register(Judged())


async def test_an_automatic_seat_plays_the_games_search_by_default(service, judged):
    assert set(await _pressed_by_the_automatic_seat(service, None)) == {"press"}


async def test_a_table_may_ask_for_the_basic_automatic_player(service, judged):
    assert set(await _pressed_by_the_automatic_seat(service, "basic")) == {"yield"}


async def test_a_setting_that_names_no_automatic_player_is_refused_with_the_choices(service, judged):
    await service.lobby.create(CHANNEL, 9, "judged", ALICE, "alice")
    with pytest.raises(TableError, match="automatic_player must be strong .* quick .* or basic"):
        await service.settings(CHANNEL, ALICE, {"automatic_player": "grandmaster"})


def test_a_game_without_a_search_plays_its_basic_player_whatever_the_setting(strong_automatic_seats):
    from tests.tinygame import Envoys

    assert name_for(Envoys(), "strong") == "basic"
    assert name_for(Judged(), "strong") == "strong"
    assert name_for(Judged(), "basic") == "basic"


def test_the_suite_caps_automatic_seats_at_the_basic_player():
    assert name_for(Judged(), "strong") == "basic"  # tests/conftest.py, basic_automatic_seats
