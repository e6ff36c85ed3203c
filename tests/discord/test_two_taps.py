"""Every decision of every game in at most two taps from the turn notice.

Seeded games of Crisis: 1914, Origins of World War I and Schönbrunn are played by the
automatic players (and, for the rarer large decisions, by random legal choices); at each
decision the notice's view is built for the seat that owes it, exactly as the bot builds
it, and walked the way a player taps: a button or a menu option plays its choice (one
tap), a group's option opens the group's own menu (the view its callback shows, one tap
more). Every legal action must be reachable, in at most two taps, within Discord's
limits. A SimCord game then taps through a group in a DM notice.

`python -m pytest -s -q tests/discord/test_two_taps.py -k every_decision` prints the
largest number of taps and of choices for each kind of decision.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import discord
import pytest

from bot.discord.choices import (
    MAX_BUTTONS,
    ActBack,
    ActChoice,
    ActMenu,
    arrange,
    branch_view,
    choices_view,
    find,
)
from bot.discord.private import NOTICE_GRACE
from bot.service.tables import turn_choices
from engine import games
from engine.core.playout import play_out
from engine.origins import GAME as ORIGINS
from engine.origins.actions import Bid

from .test_origins_e2e import OriginsTable
from .test_turn_buttons import fixed_seed, simcord_bot  # noqa: F401 - fixtures

pytestmark = pytest.mark.simcord

CHANNEL = 123456789012345678
MAX_TAPS = 2
PLAYERS = {"crisis1914": (2, 3), "origins": (2, 3), "schonbrunn": (3,)}  # Schönbrunn takes 3 to 6


def walk(step: int, choices: list[Any]) -> dict[int, int]:
    """Each reachable choice's index -> the taps it takes, walking the notice's view."""
    view = choices_view(CHANNEL, step, choices)
    return _walk(view, step, choices, 1, arrange(choices)) if view is not None else {}


def _walk(view: discord.ui.View, step: int, choices: list[Any], taps: int, tree: list[Any]) -> dict[int, int]:
    reached: dict[int, int] = {}
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows), "Discord: 5 rows of 5"
    for child in view.children:
        assert len(child.custom_id or "") <= 100
        if isinstance(child, ActChoice):
            assert 0 < len(child.item.label or "") <= 80
            assert child.key == choices[child.index].key
            reached[child.index] = taps
        elif isinstance(child, ActMenu):
            menu = child.item
            assert 0 < len(menu.options) <= 25 and len(menu.placeholder or "") <= 150
            for option in menu.options:
                assert 0 < len(option.label) <= 100 and len(option.value) <= 100
                assert len(option.description or "") <= 100
                if option.value.startswith("g:"):  # a group: its own menu, as the callback shows it
                    _, path, tag = option.value.split(":")
                    branch = find(tree, path)
                    assert branch is not None and branch.tag() == tag
                    inner = branch_view(CHANNEL, step, path, branch)
                    assert any(isinstance(c, ActBack) for c in inner.children), "a group's menu has Back"
                    reached |= _walk(inner, step, choices, taps + 1, tree)
                else:
                    index, _, key = option.value.partition(":")
                    assert key == choices[int(index)].key
                    reached[int(index)] = taps
        else:
            assert isinstance(child, ActBack), child
    return reached


def _random_player(game: Any) -> Any:
    def choose(state: Any, seat: str, rng: random.Random) -> Any:
        legal = game.legal_actions(state, seat)
        return rng.choice(legal) if legal else game.default_action(state, seat)

    return choose


def survey(game_ids: tuple[str, ...] = tuple(PLAYERS)) -> dict[tuple[str, str], tuple[int, int]]:
    """(game, decision kind) -> (most choices, most taps), over the seeded games."""
    found: dict[tuple[str, str], tuple[int, int]] = defaultdict(lambda: (0, 0))
    walked: dict[tuple[tuple[str, str, str], ...], dict[int, int]] = {}  # the view is the choices'

    def each(game: Any) -> Any:
        def on_step(state: Any, *_: Any) -> None:
            for prompt in game.prompts(state):
                choices = turn_choices(game, state, prompt.seat, prompt.phase)
                same = tuple((c.label, c.group, c.key) for c in choices)
                reached = walked[same] if same in walked else walked.setdefault(same, walk(state.step, choices))
                assert set(reached) == set(range(len(choices))), (game.id, prompt.kind, len(choices))
                most, taps = found[game.id, prompt.kind]
                found[game.id, prompt.kind] = (max(most, len(choices)), max([taps, *reached.values()]))

        return on_step

    for game_id in game_ids:
        game = games.get(game_id)
        for n in PLAYERS[game_id]:
            play_out(game, n, seed=1914 + n, on_step=each(game))  # the automatic players
            for seed in (1, 2, 3):  # random legal choices reach the long lists
                play_out(game, n, seed=seed, on_step=each(game), policy=_random_player(game))
    return dict(found)


def _before(choices: int) -> str:
    """The earlier layout: 20 buttons, then up to five menus of 25, the rest by command."""
    if choices <= 20:
        return "1 (a button)"
    return f"1 (in one of {-(-choices // 25)} menus)" if choices <= 125 else "by slash command only"


KINDS = {  # the decisions each game's seeded games must reach, at least
    "crisis1914": {"turn", "choose", "reorder", "congress"},
    "origins": {"bid", "sheet", "attack", "ready"},
    "schonbrunn": {"assign", "plot", "activate", "commit", "head", "move"},
}


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_every_decision_of_every_game_is_at_most_two_taps_from_the_notice(game_id):
    found = survey((game_id,))
    assert KINDS[game_id] <= {kind for _, kind in found}
    print(f"\n{'game':<12}{'decision':<12}{'choices':>8}{'taps':>6}  before")
    for (game, kind), (most, taps) in sorted(found.items()):
        print(f"{game:<12}{kind:<12}{most:>8}{taps:>6}  {_before(most)}")
    assert max(taps for _, taps in found.values()) <= MAX_TAPS
    assert max(most for most, _ in found.values()) > 25, "some decision needs groups"


def _choice(index: int, group: str, label: str) -> Any:
    from bot.service.tables import TurnChoice

    return TurnChoice(index, label, f"{index:010x}", group)


def test_few_choices_are_one_row_of_buttons_and_more_one_grouped_menu():
    few = [_choice(i, "Commit", f"Commit your {i}") for i in range(MAX_BUTTONS)]
    view = choices_view(1, 2, few)
    assert [c.custom_id for c in view.children] == [f"chan:act:1:2:{i}:{i:010x}" for i in range(5)]
    assert len(view.to_components()) == 1  # one row

    crisis = [
        _choice(0, "Draw", "Draw"),
        _choice(1, "Play", "Play Wangenheim (2 DP)"),
        _choice(2, "Play with Belligerence", "Play Wangenheim (2 DP) with Belligerence"),
        _choice(3, "Play", "Play Conrad (4 DP)"),
        _choice(4, "Deliberate", "Deliberate, discarding Wangenheim"),
        _choice(5, "Reorganize", "Reorganize, discarding Conrad"),
        _choice(6, "Pass", "Pass"),
    ]
    (menu,) = choices_view(1, 2, crisis).children
    assert isinstance(menu, ActMenu)
    assert [o.label for o in menu.item.options] == [
        "Draw",
        "Play ▸ Wangenheim (2 DP)",
        "Play with Belligerence ▸ Wangenheim (2 DP)",
        "Play ▸ Conrad (4 DP)",
        "Deliberate ▸ discarding Wangenheim",
        "Reorganize ▸ discarding Conrad",
        "Pass",
    ]
    assert menu.item.placeholder == "Draw, play, deliberate, reorganize or pass…"
    assert walk(2, crisis) == dict.fromkeys(range(7), 1)


def test_beyond_25_the_first_tap_chooses_a_group_and_the_second_its_choice():
    bids = [_choice(0, "Pass", "Pass in the bidding")]
    for card in ("Russia", "France", "Italy"):
        for to in range(1, 11):
            bids.append(_choice(len(bids), f"Move {card}", f"Bid 1 PF: move {card} to {to}"))
    (menu,) = choices_view(1, 2, bids).children
    labels = [o.label for o in menu.item.options]
    assert labels == ["Pass in the bidding", *(f"Move {c} ▸ 10 choices" for c in ("Russia", "France", "Italy"))]
    assert menu.item.options[0].value == f"0:{0:010x}"  # a group of one plays at once
    branch = find(arrange(bids), menu.item.options[2].value.split(":")[1])
    assert branch is not None and branch.name == "Move France"
    inner = branch_view(1, 2, "1", branch)
    assert [o.label for o in inner.children[0].item.options][:2] == ["Bid 1 PF: to 1", "Bid 1 PF: to 2"]
    assert inner.children[0].item.placeholder == "Move France…"
    assert inner.children[1].custom_id == "chan:back:1:2:"
    assert walk(2, bids) == {0: 1, **dict.fromkeys(range(1, 31), 2)}

    huge = [_choice(i, "Activate", f"Activate Treaty with Aid, target {i}") for i in range(60)]
    assert [o.label for o in choices_view(1, 2, huge).children[0].item.options] == [
        "Activate ▸ 25 choices (1 of 3)",
        "Activate ▸ 25 choices (2 of 3)",
        "Activate ▸ 10 choices (3 of 3)",
    ]
    assert set(walk(2, huge).values()) == {2}

    # Beyond 25 x 25 (Schönbrunn's Treaties at 4 to 6 players: thousands of activations)
    # no two menus can hold them all: a third tap, by runs of 25 groups.
    vast = [_choice(i, f"Activate with Aid {i // 20}", f"Activate with Aid {i // 20}, target {i}") for i in range(700)]
    taps = walk(2, vast)
    assert set(taps) == set(range(700)) and set(taps.values()) == {3}
    assert choices_view(1, 2, vast).children[0].item.options[0].label.startswith("Activate with Aid 0 … ")


async def test_a_bid_in_a_dm_notice_is_two_taps_and_back_returns_to_the_groups(env, store):
    """Origins at three: the bidding's choices (more than 25) come as a menu of order cards
    to move; choosing one turns the notice into that card's bids, with Back; a bid
    chosen there is played exactly."""
    table = OriginsTable(env, store, players=3)
    await table.start(1914)
    state = await table.state()
    assert state.phase == "bidding"
    seat = ORIGINS.prompts(state)[0].seat
    member = table.members[table.seats[seat]].user
    legal = ORIGINS.legal_actions(state, seat)
    assert len(legal) > 25
    await env.advance_time(NOTICE_GRACE + 1)
    notice = member.dm_channel.history()[-1]
    (menu,) = notice.components[0].children
    assert menu.custom_id.startswith(f"chan:menu:{table.channel.id}:{state.step}:")
    group = next(o for o in menu.options if o.value.startswith("g:"))
    assert group.label.startswith("Move ") and group.label.endswith(" choices")

    opened = await member.select(notice, [group.value], custom_id=menu.custom_id)  # tap 1
    assert opened.acknowledged
    assert await table.state() == state  # nothing played yet
    notice = member.dm_channel.history()[-1]
    inner, back = notice.components[0].children[0], notice.components[1].children[0]
    assert inner.placeholder == group.label.split(" ▸ ")[0] + "…"
    assert back.label == "Back"
    value = inner.options[-1].value
    index = int(value.split(":")[0])
    assert isinstance(legal[index], Bid) and group.label.startswith(f"Move {_name(legal[index].card)} ")

    await member.click(notice, custom_id=back.custom_id)  # Back: the groups again
    notice = member.dm_channel.history()[-1]
    assert [o.value for o in notice.components[0].children[0].options] == [o.value for o in menu.options]
    await member.select(notice, [group.value], custom_id=menu.custom_id)

    notice = member.dm_channel.history()[-1]
    played = await member.select(notice, [value], custom_id=notice.components[0].children[0].custom_id)  # tap 2
    assert played.response.content.startswith("You bid"), played.response.content
    expected, _ = ORIGINS.apply(state, seat, legal[index])
    assert await table.state() == expected


def _name(code: str) -> str:
    from engine.origins import content

    return content.names()[code]


async def test_a_group_opened_after_the_decision_passed_answers_with_the_current_choices(env, store):
    """A group's option is a place in the choices of the decision it was made for: once the
    table has moved on, opening it changes nothing and says the choice has expired."""
    table = OriginsTable(env, store, players=3)
    await table.start(1914)
    state = await table.state()
    seat = ORIGINS.prompts(state)[0].seat
    member = table.members[table.seats[seat]]
    mine = await member.slash(table.channel, "game me")
    menu = mine.response.components[0]["components"][0]
    group = next(o for o in menu["options"] if o["value"].startswith("g:"))
    await table.order(seat, "pass")
    moved = await table.state()
    assert seat not in {p.seat for p in ORIGINS.prompts(moved)}

    late = await member.select(mine.response.message, [group["value"]], custom_id=menu["custom_id"])
    assert late.ephemeral and late.response.content.startswith("That choice has expired"), late.response.content
    assert await table.state() == moved


def test_the_menus_ids_are_read_back_after_a_restart():
    """The bot registers these items' templates: every id a view carries must match its own."""
    bids = [_choice(0, "Pass", "Pass")] + [_choice(i, f"Move {i % 3}", f"Bid {i}") for i in range(1, 40)]
    top = choices_view(7, 8, bids)
    value = top.children[0].item.options[1].value
    _, path, _ = value.split(":")
    inner = branch_view(7, 8, path, find(arrange(bids), path))
    for item in [*top.children, *inner.children]:
        found = type(item).__discord_ui_compiled_template__.fullmatch(item.custom_id)
        assert found is not None and int(found["channel_id"]) == 7 and int(found["step"]) == 8
    assert inner.children[1].custom_id == "chan:back:7:8:"


async def test_opening_a_group_in_game_me_keeps_its_full_status_button(env, store):
    table = OriginsTable(env, store, players=3)
    await table.start(1914)
    state = await table.state()
    member = table.members[table.seats[ORIGINS.prompts(state)[0].seat]]
    mine = await member.slash(table.channel, "game me")
    menu = mine.response.components[0]["components"][0]
    group = next(o for o in menu["options"] if o["value"].startswith("g:"))
    opened = await member.select(mine.response.message, [group["value"]], custom_id=menu["custom_id"])
    ids = [c.get("custom_id", "") for row in opened.response.components for c in row["components"]]
    assert [i.split(":")[1] for i in ids] == ["menu", "back", "full"], ids
    assert await table.state() == state
    status = await member.click(mine.response.message, custom_id=ids[-1])
    assert status.ephemeral and "Origins" in status.response.content, status.response.content
