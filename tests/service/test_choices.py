"""Turn buttons: `choices` lists the caller's legal actions with labels, and
`act_choice` plays one of them only while the table is still at the step they were listed for."""

from __future__ import annotations

import pytest

from bot.service.tables import ChoiceExpired, TableError, TableService
from engine.crisis1914 import GAME
from engine.crisis1914.content import load_content

from .conftest import CHANNEL

USERS = {1: "anna", 2: "boris", 3: "clara"}
GAME_CARDS = load_content().cards


async def _crisis(service: TableService) -> None:
    await service.lobby.create(CHANNEL, 9, "crisis1914", 1, USERS[1])
    for uid in (2, 3):
        await service.lobby.join(CHANNEL, uid, USERS[uid])
    await service.lobby.start(CHANNEL, 1, seed=1914)


async def _owing(service: TableService, store) -> tuple[int, str, object]:
    """(user, seat, state) of the first member who owes a decision."""
    row = await store.get_table(CHANNEL)
    state = GAME.load_state(row.state)
    seat = GAME.prompts(state)[0].seat
    user = next(s.user_id for s in await store.get_seats(CHANNEL) if s.seat == seat)
    return user, seat, state


async def test_choices_are_the_engines_legal_actions_for_the_caller_only(service, store):
    await _crisis(service)
    user, seat, state = await _owing(service, store)
    step, choices = await service.choices(CHANNEL, user)
    legal = GAME.legal_actions(state, seat)
    assert step == state.step and legal
    assert [(i, label) for i, label, _ in choices] == [
        (i, GAME.action_label(state, seat, x)) for i, x in enumerate(legal)
    ]
    assert all(0 < len(label) <= 80 for _, label, _ in choices)
    assert len({key for _, _, key in choices}) == len(choices)  # each choice has its own key
    labels = {i: label for i, label, _ in choices}
    for i, x in enumerate(legal):  # in the game's words: the card's printed name and its DP
        if x.kind == "play":
            c = GAME_CARDS[x.card]
            assert labels[i].startswith(f"Play {c.name} (") and " DP)" in labels[i], labels[i]
            assert ("with Belligerence" in labels[i]) == x.belligerence
        elif x.kind in ("draw", "pass"):
            assert labels[i] == x.kind.capitalize()
    for other in set(USERS) - {user}:  # the others owe nothing now: no buttons for them
        assert await service.choices(CHANNEL, other) == (state.step, [])
    with pytest.raises(TableError):
        await service.choices(CHANNEL, 99)


async def test_act_choice_plays_exactly_that_action_and_expires_after(service, store):
    await _crisis(service)
    user, seat, state = await _owing(service, store)
    legal = GAME.legal_actions(state, seat)
    index = len(legal) - 1
    expected, _ = GAME.apply(state, seat, legal[index])
    await service.act_choice(CHANNEL, user, state.step, index)
    after = GAME.load_state((await store.get_table(CHANNEL)).state)
    assert after == expected

    # The same button again: the table has moved on, nothing changes.
    with pytest.raises(ChoiceExpired):
        await service.act_choice(CHANNEL, user, state.step, index)
    assert GAME.load_state((await store.get_table(CHANNEL)).state) == after


async def test_act_choice_refuses_a_stranger_and_a_player_not_owing(service, store):
    await _crisis(service)
    user, _, state = await _owing(service, store)
    with pytest.raises(TableError):
        await service.act_choice(CHANNEL, 99, state.step, 0)
    other = next(u for u in USERS if u != user)
    with pytest.raises(TableError) as refused:
        await service.act_choice(CHANNEL, other, state.step, 0)
    assert not isinstance(refused.value, ChoiceExpired)
    assert GAME.load_state((await store.get_table(CHANNEL)).state) == state
