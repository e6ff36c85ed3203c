"""Crisis: 1914 in Discord: when it is a player's turn they get buttons for the legal
actions; choices that involve their Hand appear only to them.

A real Crisis table with three members. The member who owes a decision gets buttons in
their own ephemeral reply and in their turn-notice DM, never in the channel; a click
applies exactly that legal action; a button from before the table moved on is refused
with fresh ones; a stranger's click is refused privately and changes nothing.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord import create_bot
from bot.discord.choices import option_label
from bot.discord.private import NOTICE_GRACE
from bot.discord.views import choices_view
from bot.service import tables
from bot.service.tables import TurnChoice
from engine.crisis1914 import GAME
from engine.crisis1914.state import CrisisState
from engine.origins import GAME as ORIGINS

from .conftest import BotConfig
from .test_crisis_e2e import CrisisTable
from .test_origins_e2e import OriginsTable

pytestmark = pytest.mark.simcord

SEED = 1914
TURN_IDS = ("chan:act:", "chan:pick:", "chan:menu:", "chan:back:")


@pytest.fixture
def simcord_bot(service):
    """The bot over the real game registry (conftest's default narrows it to the test game)."""
    return create_bot(BotConfig(), service)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "secrets", SimpleNamespace(randbits=lambda bits: SEED))


def _ids(components: list[Any]) -> list[str]:
    """Every turn button's and menu's custom_id in raw component rows (dicts) or discord.py
    rows (objects); the Full status button beside them in /game me is not one."""
    out: list[str] = []
    for row in components:
        children = row.get("components", []) if isinstance(row, dict) else getattr(row, "children", [])
        for c in children:
            cid = c.get("custom_id") if isinstance(c, dict) else getattr(c, "custom_id", None)
            if cid and cid.startswith(TURN_IDS):
                out.append(cid)
    return out


def _labels(components: list[dict[str, Any]]) -> list[str]:
    return [c["label"] for row in components for c in row.get("components", []) if c.get("label")]


def _public_turn_ids(table: CrisisTable, first_call: int = 0) -> list[str]:
    """Turn-button ids the bot ever sent or edited into the channel or its threads."""
    public = {table.channel.id} | {t.id for t in table.channel.threads}
    found = []
    for call in table.env.http_requests[first_call:]:
        parts = call.path.strip("/").split("/")
        if parts[0] != "channels" or int(parts[1]) not in public or not isinstance(call.json, dict):
            continue
        found += [i for i in _ids(call.json.get("components") or []) if i.startswith(TURN_IDS)]
    return found


async def _owing(table: CrisisTable) -> tuple[CrisisState, str, str]:
    state = await table.state()
    seat = GAME.prompts(state)[0].seat
    return state, seat, table.seats[seat]


async def test_the_player_who_owes_gets_private_buttons_that_play_exactly_that_action(env, store):
    table = CrisisTable(env, store)
    await table.start(SEED)
    state, seat, name = await _owing(table)
    legal = GAME.legal_actions(state, seat)
    assert legal, "the seat that owes has actions to list"
    wanted = [GAME.action_label(state, seat, x) for x in legal]

    # Their own view, privately, carries every legal action: one grouped menu for more
    # than a row of buttons, each option in the game's words ("Play ▸ Moltke (3 DP)").
    assert 5 < len(legal) <= 25, "the seed's first turn fits one menu"
    mine = await table.members[name].slash(table.channel, "game me")
    assert mine.ephemeral
    ids = _ids(mine.response.components)
    assert ids == [f"chan:menu:{table.channel.id}:{state.step}:"]
    menu = mine.response.components[0]["components"][0]
    step, choices = await env.bot.service.turn_menu(table.channel.id, table.members[name].id)
    assert [o["value"] for o in menu["options"]] == [f"{c.index}:{c.key}" for c in choices]
    assert [o["label"] for o in menu["options"]] == [option_label(c, True) for c in choices]
    assert [c.label for c in choices] == wanted
    assert any(" ▸ " in o["label"] for o in menu["options"]), "grouped by what each does"
    assert _labels(mine.response.components) == ["Full status"]  # the public status last
    for other in set(table.members) - {name}:  # nobody else gets any
        theirs = await table.members[other].slash(table.channel, "game me")
        assert not _ids(theirs.response.components)

    # A choice applies exactly the legal action at that index: one that hands the turn on.
    index = next(
        i for i, x in enumerate(legal) if GAME.prompts(GAME.apply(state, seat, x)[0])[0].seat != seat
    )
    expected, _ = GAME.apply(state, seat, legal[index])
    button, value = ids[0], menu["options"][index]["value"]
    assert value.startswith(f"{index}:")
    clicked = await table.members[name].select(mine.response.message, [value], custom_id=button)
    assert clicked.ephemeral and clicked.response.content.startswith("You"), clicked.response.content
    assert await table.state() == expected

    # The next player's turn notice comes by DM once the grace is over, with their buttons.
    state, seat2, name2 = await _owing(table)
    await env.advance_time(NOTICE_GRACE + 1)
    dm = table.members[name2].user.dm_channel
    assert dm is not None and dm.history(), "the turn notice was not DMed"
    notice = dm.history()[-1]
    legal2 = GAME.legal_actions(state, seat2)
    dm_ids = _ids(notice.components)
    assert dm_ids and all(i.startswith(TURN_IDS) and f":{state.step}:" in i for i in dm_ids)
    if dm_ids[0].startswith("chan:act:"):
        index2 = len(legal2) - 1
        clicked = await table.members[name2].user.click(notice, custom_id=dm_ids[index2])
    else:  # many choices: a select menu, values "index:key" (a group's "g:…" opens it)
        option = next(o for o in notice.components[0].children[0].options if not o.value.startswith("g:"))
        index2 = int(option.value.split(":")[0])
        clicked = await table.members[name2].user.select(notice, [option.value], custom_id=dm_ids[0])
    assert clicked.ephemeral and clicked.response.content.startswith("You"), clicked.response.content
    expected, _ = GAME.apply(state, seat2, legal2[index2])
    assert await table.state() == expected

    # The first choice again: expired, nothing changes, current options (if any) offered.
    stale = await table.members[name].select(mine.response.message, [value], custom_id=button)
    assert stale.ephemeral
    assert stale.response.content.startswith("That choice has expired"), stale.response.content
    assert await table.state() == expected
    now_ids = _ids(stale.response.components)
    owes_now = any(p.seat == seat for p in GAME.prompts(expected))
    assert bool(now_ids) == (owes_now and bool(GAME.legal_actions(expected, seat)))
    assert all(i.startswith(TURN_IDS) and f":{expected.step}:" in i for i in now_ids)
    assert _public_turn_ids(table) == [], "turn buttons reached the channel"


async def test_a_stranger_or_another_member_clicking_is_refused_privately(env, store):
    """Discord shows the buttons to their owner alone; should the same button still reach
    someone else (here posted into the channel by hand, as a relayed copy would be), the
    service's own seat check refuses it, privately, and nothing changes."""
    table = CrisisTable(env, store)
    await table.start(SEED)
    state, _, name = await _owing(table)
    mine = await table.members[name].slash(table.channel, "game me")
    ids = _ids(mine.response.components)
    assert ids
    step, choices = await env.bot.service.turn_menu(table.channel.id, table.members[name].id)
    copy = await env.bot.get_channel(table.channel.id).send(
        "a relayed copy", view=choices_view(table.channel.id, step, choices)
    )
    assert _ids(copy.components) == ids

    stranger = table.guild.add_member(env.create_user("dmitri"))
    other = next(n for n in table.members if n != name)
    value = f"{choices[0].index}:{choices[0].key}"
    for who in (stranger, table.members[other]):
        refused = await who.select(copy, [value], custom_id=ids[0])
        assert refused.ephemeral, refused.response.content
        assert not refused.response.content.startswith("Done"), refused.response.content
        assert not _ids(refused.response.components)
        assert await table.state() == state


def test_many_choices_go_in_one_select_menu_of_groups_of_at_most_25():
    # beyond 125 (five menus of 25 side by side), a menu of groups
    choices = [
        TurnChoice(i, f"Seize the Initiative, discarding card {i}", f"{i:010x}", "Seize the Initiative")
        for i in range(130)
    ]
    view = choices_view(123456789012345678, 4321, choices)
    (menu,) = [m.item for m in view.children]
    assert [o.label for o in menu.options] == [
        *(f"Seize the Initiative ▸ 25 choices ({n} of 6)" for n in range(1, 6)),
        "Seize the Initiative ▸ 5 choices (6 of 6)",
    ]
    assert len(menu.custom_id) <= 100 and menu.custom_id.startswith("chan:menu:")
    few = choices_view(1, 2, choices[:3])
    assert [b.item.custom_id for b in few.children] == [f"chan:act:1:2:{i}:{i:010x}" for i in range(3)]
    assert choices_view(1, 2, []) is None


async def test_menu_options_carry_the_text_of_the_card_they_play(env, store):
    """Under each menu option, the card it plays or discards in a few words (DP,
    type, effects, discard pile), for its owner alone. (Buttons have no room: the Hand
    above them lists each card's whole text.)"""
    from engine.crisis1914.cards import card, card_dp
    from engine.crisis1914.texts import card_summary

    table = CrisisTable(env, store)
    await table.start(SEED)
    service = env.bot.service
    while True:  # to the first Play Step turn
        state = await table.state()
        seat = GAME.prompts(state)[0].seat
        if state.phase == "play" and not state.pending:
            break
        await service.auto(table.channel.id)
    user = table.members[table.seats[seat]].id
    step, choices = await service.choices(table.channel.id, user)
    details = await service.choice_details(table.channel.id, user, step)
    p, legal = state.player_of(seat), GAME.legal_actions(state, seat)
    plays = [i for i, x in enumerate(legal) if x.kind == "play"]
    assert plays
    for i in plays:
        c = card(legal[i].card)
        assert details[i] == card_summary(c, card_dp(state, p, c))
    assert all(legal[i].kind in ("play", "deliberate", "reorganize") for i in details)
    other = next(m for n, m in table.members.items() if n != table.seats[seat])
    assert await service.choice_details(table.channel.id, other.id, step) == {}  # owes nothing now
    assert await service.choice_details(table.channel.id, user, step - 1) == {}  # moved on

    step, listed = await service.turn_menu(table.channel.id, user)
    assert {c.index: c.detail for c in listed if c.detail} == details
    many = [TurnChoice(i, f"Choice {i}", f"{i:010x}", "Choice", details[plays[0]]) for i in range(20)]
    view = choices_view(1, 2, many)
    assert all(o.description == details[plays[0]] for m in view.children for o in m.item.options)


async def test_a_dm_submit_button_still_works_after_another_member_submitted(env, store):
    """In a simultaneous phase another member's order does not expire
    my button; it expires only when its own choice is no longer legal."""
    table = OriginsTable(env, store, players=3)
    await table.start(SEED)
    for _ in range(60):  # everyone passes in the bidding; the last pass opens Phase 4 (secret sheets)
        state = await table.state()
        if state.phase != "bidding":
            break
        await table.order(ORIGINS.prompts(state)[0].seat, "pass")
    state = await table.state()
    assert state.phase == "placement", state.phase
    await env.advance_time(NOTICE_GRACE + 1)

    buttons = {}  # member -> (their DM notice, its Submit button)
    for prompt in ORIGINS.prompts(state):
        name = table.seats[prompt.seat]
        dm = table.members[name].user.dm_channel
        notices = [m for m in (dm.history() if dm else []) if _ids(m.components)]
        if notices:
            buttons[name] = (notices[-1], _ids(notices[-1].components)[0])
    assert len(buttons) >= 2, "at least two members got their Submit button by DM"
    (first, (notice1, submit1)), (second, (notice2, submit2)) = list(buttons.items())[:2]
    assert f":{state.step}:" in submit1 and f":{state.step}:" in submit2

    done = await table.members[first].user.click(notice1, custom_id=submit1)
    assert done.response.content.startswith("You"), done.response.content
    moved = await table.state()
    assert moved.step > state.step  # the table moved on past the step the buttons were made at

    still = await table.members[second].user.click(notice2, custom_id=submit2)
    assert still.response.content.startswith("You"), still.response.content
    seats = {n: s for s, n in table.seats.items()}
    assert seats[second] not in {p.seat for p in ORIGINS.prompts(await table.state())}

    # Its own choice is taken: the notice, and its button, are gone from the DMs.
    await env.advance_time(1)
    dm = table.members[second].user.dm_channel
    assert [m for m in dm.history() if m.id == notice2.id] == []


async def test_the_answer_to_a_choice_shows_the_next_buttons_without_reading_the_table(env, store, monkeypatch):
    """The member's next buttons come with their action's outbox (read in the action's own
    lock, bot/service/menus.py), not from a second read of the table while answering."""
    table = CrisisTable(env, store)
    await table.start(SEED)
    service = env.bot.service
    asked: list[str] = []
    for name in ("turn_menu", "own_sheets"):
        real = getattr(service, name)

        async def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            asked.append(_name)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(service, name, counted)
    answered = again = 0
    for _ in range(12):  # turns that keep the turn with the same player show their next buttons
        _, _, name = await _owing(table)
        mine = await table.members[name].slash(table.channel, "game me")
        (button,) = [i for i in _ids(mine.response.components) if i.startswith("chan:")][:1]
        menu = mine.response.components[0]["components"][0]
        value = menu["options"][0]["value"] if "options" in menu else None
        asked.clear()
        if value is not None:
            clicked = await table.members[name].select(mine.response.message, [value], custom_id=button)
        else:
            clicked = await table.members[name].click(mine.response.message, custom_id=button)
        assert clicked.ephemeral and asked == [], asked
        answered += 1
        _, choices = await env.bot.service.turn_menu(table.channel.id, table.members[name].id)
        if choices:  # they owe again: the answer carried their next buttons
            assert _ids(clicked.response.components), "the answer shows the next buttons"
            again += 1
    assert answered == 12 and again, "some answers carried next buttons"
