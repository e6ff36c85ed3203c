"""Every decision of every game in at most two taps from the turn notice.

Seeded games of Crisis: 1914, Origins of World War I and Schönbrunn are played by the
automatic players (and, for the rarer large decisions, by random legal choices); at each
decision the notice's view is built for the seat that owes it, exactly as the bot builds
it, and walked the way a player taps: a button is one tap, a menu two (open it, choose);
a group's option opens the group's own menu (the view its callback shows), two taps
more. Every legal action must be reachable within Discord's limits, in at most two taps
where a decision has up to 125 choices (menus side by side), in four beyond (a menu of
groups: only Schönbrunn's Treaty activations at four players and more). SimCord games
then choose a bid in a DM notice, and open a group of a Schönbrunn activation.

`python -m pytest -s -q tests/discord/test_two_taps.py -k every_decision` prints the
largest number of choices and of taps for each kind of decision (and of taps where it had
at most 125 choices), and the taps the menus of groups took before the menus side by side.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import discord
import pytest

from bot.discord.choices import (
    MAX_BUTTONS,
    MAX_ROWS,
    ActBack,
    ActChoice,
    ActMenu,
    ActPick,
    arrange,
    branch_view,
    choices_view,
    find,
)
from bot.discord.private import NOTICE_GRACE
from bot.service.tables import TurnChoice, turn_choices
from engine import games
from engine.core.playout import play_out
from engine.origins import GAME as ORIGINS
from engine.origins.actions import Bid
from engine.schonbrunn import GAME as SCHONBRUNN

from .test_origins_e2e import OriginsTable
from .test_schonbrunn_e2e import SchonbrunnTable
from .test_turn_buttons import fixed_seed, simcord_bot  # noqa: F401 - fixtures

pytestmark = pytest.mark.simcord

CHANNEL = 123456789012345678
MAX_TAPS = 2  # open a menu, choose
SIDE_BY_SIDE = 125  # five menus of 25: beyond, a menu of groups and the group's menu
PLAYERS = {"crisis1914": (2, 3), "origins": (2, 3), "schonbrunn": (3, 4)}  # Schönbrunn takes 3 to 6


def walk(step: int, choices: list[Any], rows: int = MAX_ROWS) -> dict[int, int]:
    """Each reachable choice's index -> the taps it takes, walking the notice's view."""
    view = choices_view(CHANNEL, step, choices, rows)
    return _walk(view, step, choices, 0, arrange(choices)) if view is not None else {}


def _walk(
    view: discord.ui.View, step: int, choices: list[Any], before: int, tree: list[Any]
) -> dict[int, int]:
    reached: dict[int, int] = {}
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows), "Discord: 5 rows of 5"
    for child in view.children:
        assert len(child.custom_id or "") <= 100
        if isinstance(child, ActChoice):
            assert 0 < len(child.item.label or "") <= 80
            assert child.key == choices[child.index].key
            reached[child.index] = before + 1
        elif isinstance(child, (ActPick, ActMenu)):
            menu = child.item
            assert 0 < len(menu.options) <= 25 and 0 < len(menu.placeholder or "") <= 150
            for option in menu.options:
                assert 0 < len(option.label) <= 100 and len(option.value) <= 100
                assert len(option.description or "") <= 100
                if option.value.startswith("g:"):  # a group: its own menu, as the callback shows it
                    assert isinstance(child, ActMenu), "a menu side by side plays its options"
                    _, path, tag = option.value.split(":")
                    branch = find(tree, path)
                    assert branch is not None and branch.tag() == tag
                    inner = branch_view(CHANNEL, step, path, branch)
                    assert any(isinstance(c, ActBack) for c in inner.children), "a group's menu has Back"
                    reached |= _walk(inner, step, choices, before + 2, tree)
                else:
                    index, _, key = option.value.partition(":")
                    assert key == choices[int(index)].key
                    reached[int(index)] = before + 2
        else:
            assert isinstance(child, ActBack), child
    return reached


def _random_player(game: Any) -> Any:
    def choose(state: Any, seat: str, rng: random.Random) -> Any:
        legal = game.legal_actions(state, seat)
        return rng.choice(legal) if legal else game.default_action(state, seat)

    return choose


Found = dict[tuple[str, str], tuple[int, int, int]]


def survey(game_ids: tuple[str, ...] = tuple(PLAYERS)) -> Found:
    """(game, decision kind) -> (most choices, most taps, most taps with up to 125
    choices), over the seeded games."""
    found: Found = defaultdict(lambda: (0, 0, 0))
    walked: dict[tuple[tuple[str, str, str], ...], dict[int, int]] = {}  # the view is the choices'

    def each(game: Any) -> Any:
        def on_step(state: Any, *_: Any) -> None:
            for prompt in game.prompts(state):
                choices = turn_choices(game, state, prompt.seat, prompt.phase)
                same = tuple((c.label, c.group, c.key) for c in choices)
                reached = (
                    walked[same] if same in walked else walked.setdefault(same, walk(state.step, choices))
                )
                assert set(reached) == set(range(len(choices))), (game.id, prompt.kind, len(choices))
                most, taps, few = found[game.id, prompt.kind]
                here = max(reached.values(), default=0)
                few = max(few, here) if len(choices) <= SIDE_BY_SIDE else few
                found[game.id, prompt.kind] = (max(most, len(choices)), max(taps, here), few)

        return on_step

    for game_id in game_ids:
        game = games.get(game_id)
        for n in PLAYERS[game_id]:
            play_out(game, n, seed=1914 + n, on_step=each(game))  # the automatic players
            for seed in (1, 2, 3):  # random legal choices reach the long lists
                play_out(game, n, seed=seed, on_step=each(game), policy=_random_player(game))
    return dict(found)


def _before(choices: int) -> int:
    """The taps the menus of groups took (before the menus side by side): a menu of up to
    25, then a menu of groups and the group's, then a third level beyond 25 x 25."""
    return 1 if choices <= MAX_BUTTONS else 2 if choices <= 25 else 4 if choices <= 625 else 6


KINDS = {  # the decisions each game's seeded games must reach, at least
    "crisis1914": {"turn", "choose", "reorder", "congress"},
    "origins": {"bid", "sheet", "attack", "ready"},
    "schonbrunn": {"assign", "plot", "activate", "commit", "head", "move"},
}


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_every_decision_of_every_game_is_at_most_two_taps_from_the_notice(game_id):
    found = survey((game_id,))
    assert KINDS[game_id] <= {kind for _, kind in found}
    print(f"\n{'game':<12}{'decision':<12}{'choices':>8}{'taps':>6}{'to 125':>8}{'before':>8}")
    for (game, kind), (most, taps, few) in sorted(found.items()):
        print(f"{game:<12}{kind:<12}{most:>8}{taps:>6}{few:>8}{_before(most):>8}")
    assert max(few for _, _, few in found.values()) <= MAX_TAPS
    assert max(most for most, _, _ in found.values()) > 25, "some decision needs more than one menu"
    # only Schönbrunn's Treaty activations at four players and more go beyond 125 choices
    beyond = {kind for kind, (most, _, _) in found.items() if most > SIDE_BY_SIDE}
    assert beyond == ({("schonbrunn", "activate")} if game_id == "schonbrunn" else set())
    assert max(taps for _, taps, _ in found.values()) <= 2 * MAX_TAPS


def _choice(index: int, group: str, label: str) -> Any:
    return TurnChoice(index, label, f"{index:010x}", group)


def test_few_choices_are_one_row_of_buttons_and_more_one_grouped_menu():
    few = [_choice(i, "Commit", f"Commit your {i}") for i in range(MAX_BUTTONS)]
    view = choices_view(1, 2, few)
    assert [c.custom_id for c in view.children] == [f"chan:act:1:2:{i}:{i:010x}" for i in range(5)]
    assert len(view.to_components()) == 1  # one row
    assert walk(2, few) == dict.fromkeys(range(5), 1)

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
    assert walk(2, crisis) == dict.fromkeys(range(7), 2)  # open the menu, choose


def _bids(countries: tuple[str, ...], each: int) -> list[Any]:
    """Origins' bidding: Pass, then each order card's moves."""
    bids = [_choice(0, "Pass", "Pass in the bidding")]
    for card in countries:
        for to in range(1, each + 1):
            bids.append(_choice(len(bids), f"Move {card}", f"Bid 1 PF from France: move {card} to {to}"))
    return bids


def test_26_to_125_choices_are_menus_side_by_side_each_naming_what_it_holds():
    """Origins at three: 61 bids in three menus, whole groups together, each placeholder
    naming its order cards; choosing an option plays it."""
    bids = _bids(("Italy", "Russia", "Germany", "United Kingdom", "Austria-Hungary", "France"), 10)
    menus = choices_view(1, 2, bids).children
    assert all(isinstance(m, ActPick) for m in menus)
    assert [m.custom_id for m in menus] == [f"chan:pick:1:2:{n}" for n in range(3)]
    assert [m.item.placeholder for m in menus] == [
        "Pass or move Italy or Russia…",
        "Move Germany or United Kingdom…",
        "Move Austria-Hungary or France…",
    ]
    assert [o.label for o in menus[0].item.options][:3] == [
        "Pass in the bidding",
        "Move Italy ▸ Bid 1 PF from France: to 1",
        "Move Italy ▸ Bid 1 PF from France: to 2",
    ]
    assert menus[0].item.options[0].value == f"0:{0:010x}"
    assert walk(2, bids) == dict.fromkeys(range(61), 2)

    # Origins at two: six cards of 15 bids, more than five menus of whole cards: the
    # fewest cut in two, the cut one's placeholder naming its first and last bid
    bids = _bids(("Austria-Hungary", "United Kingdom", "Turkey", "France", "Germany", "Russia"), 15)
    menus = choices_view(1, 2, bids).children
    assert len(menus) == 5 and all(isinstance(m, ActPick) for m in menus)
    holds = [{o.value for o in m.item.options} for m in menus]
    cut = [
        c
        for c in ("Austria-Hungary", "United Kingdom", "Turkey", "France", "Germany", "Russia")
        if sum(any(int(v.split(":")[0]) in _of(bids, c) for v in h) for h in holds) > 1
    ]
    assert len(cut) == 1
    said = [m.item.placeholder for m in menus if f"{cut[0]} (Bid 1 PF from France: to " in m.item.placeholder]
    assert len(said) == 2, [m.item.placeholder for m in menus]
    assert [m.item.placeholder for m in menus][-2:] == ["Move Germany…", "Move Russia…"]
    assert walk(2, bids) == dict.fromkeys(range(91), 2)


def _of(choices: list[Any], card: str) -> set[int]:
    return {c.index for c in choices if c.group == f"Move {card}"}


PLACES = "Austria in I and Great Britain in IIII"


def test_a_group_of_more_than_25_is_cut_in_even_parts_and_one_alone_shows_its_choices_alone():
    swiss = "Activate Restoration of the Swiss Confederation with the Aid"
    choices = [_choice(0, "Pass", "Pass")]
    for aid in ("Popular Uprising", "Border Fortification"):
        for n in range(35):
            choices.append(
                _choice(len(choices), f"{swiss} {aid}", f"{swiss} {aid}, -1 on Austria in {n}, {PLACES}")
            )
    menus = choices_view(1, 2, choices).children
    assert [len(m.item.options) for m in menus] == [19, 17, 18, 17]  # Pass beside the first part
    assert [m.item.placeholder for m in menus] == [
        "Pass or activate Restoration of the Swiss Confederation with the Aid Popular Uprising (1 to 18 of 35)…",
        f"{swiss} Popular Uprising (19 to 35 of 35)…",
        f"{swiss} Border Fortification (1 to 18 of 35)…",
        f"{swiss} Border Fortification (19 to 35 of 35)…",
    ]
    assert (
        menus[1].item.options[0].label == f"-1 on Austria in 18, {PLACES}"
    )  # the placeholder names the group
    assert menus[0].item.options[0].label == "Pass"
    assert set(walk(2, choices).values()) == {2}


def test_the_rows_are_counted_and_a_decision_they_cannot_hold_goes_to_the_groups():
    """Beside /game me's Full status (or Origins' sheet buttons) four rows are left: 91
    bids still fit; in fewer rows they fall back to the menu of groups."""
    bids = _bids(("Austria-Hungary", "United Kingdom", "Turkey", "France", "Germany", "Russia"), 15)
    four = choices_view(1, 2, bids, MAX_ROWS - 1)
    assert len(four.children) == 4 and all(isinstance(m, ActPick) for m in four.children)
    assert walk(2, bids, MAX_ROWS - 1) == dict.fromkeys(range(91), 2)
    (groups,) = choices_view(1, 2, bids, 3).children
    assert isinstance(groups, ActMenu)
    assert set(walk(2, bids, 3).values()) == {2, 4}  # Pass plays at once; a bid in its card's menu
    assert walk(2, bids, 3)[0] == 2


def test_beyond_125_the_first_tap_chooses_a_group_and_the_second_its_choice():
    """Schönbrunn's Treaty activations at four players and more: a menu of groups (its
    count beside each), then the group's own menu with Back."""
    many = [_choice(0, "Pass", "Pass")]
    for aid in ("Border Fortification", "Foreign Minister"):
        for i in range(80):
            many.append(
                _choice(len(many), f"Activate with the {aid}", f"Activate with the {aid}, target {i}")
            )
    (menu,) = choices_view(1, 2, many).children
    assert isinstance(menu, ActMenu)
    labels = [o.label for o in menu.item.options]
    assert labels[:3] == [
        "Pass",
        "Activate with the Border Fortification ▸ 25 choices (1 of 4)",
        "Activate with the Border Fortification ▸ 25 choices (2 of 4)",
    ]
    assert menu.item.options[0].value == f"0:{0:010x}"  # a group of one plays at once
    branch = find(arrange(many), menu.item.options[2].value.split(":")[1])
    assert branch is not None and branch.part == "2 of 4"
    inner = branch_view(1, 2, "2", branch)
    assert [o.label for o in inner.children[0].item.options][:2] == ["target 25", "target 26"]
    assert inner.children[0].item.placeholder == "Activate with the Border Fortification (2 of 4)…"
    assert inner.children[1].custom_id == "chan:back:1:2:"
    assert walk(2, many) == {0: 2, **dict.fromkeys(range(1, 161), 4)}

    # Beyond 25 x 25 (Schönbrunn's Treaties at five and six players: thousands of
    # activations) no two menus can hold them all: a third level, by runs of 25 groups.
    vast = [
        _choice(i, f"Activate with Aid {i // 20}", f"Activate with Aid {i // 20}, target {i}")
        for i in range(700)
    ]
    taps = walk(2, vast)
    assert set(taps) == set(range(700)) and set(taps.values()) == {6}
    assert choices_view(1, 2, vast).children[0].item.options[0].label.startswith("Activate with Aid 0 … ")


def test_the_menus_ids_are_read_back_after_a_restart():
    """The bot registers these items' templates: every id a view carries must match its own."""
    side = choices_view(7, 8, _bids(("Italy", "Russia", "Germany"), 10))
    many = [_choice(0, "Pass", "Pass")] + [_choice(i, f"Move {i % 3}", f"Bid {i}") for i in range(1, 140)]
    top = choices_view(7, 8, many)
    value = top.children[0].item.options[1].value
    _, path, _ = value.split(":")
    inner = branch_view(7, 8, path, find(arrange(many), path))
    for item in [*side.children, *top.children, *inner.children]:
        found = type(item).__discord_ui_compiled_template__.fullmatch(item.custom_id)
        assert found is not None and int(found["channel_id"]) == 7 and int(found["step"]) == 8
    assert [type(i) for i in side.children] == [ActPick, ActPick]
    assert inner.children[1].custom_id == "chan:back:7:8:"


async def test_a_bid_in_a_dm_notice_is_two_taps(env, store):
    """Origins at three: the bidding's choices (more than 25) come as menus side by side
    under the notice; a bid chosen in one is played exactly. `/game me` shows the same
    menus above its Full status, and an option chosen there once the table has moved on
    changes nothing and is answered with the current choices."""
    table = OriginsTable(env, store, players=3)
    await table.start(1914)
    state = await table.state()
    assert state.phase == "bidding"
    seat = ORIGINS.prompts(state)[0].seat
    member = table.members[table.seats[seat]]
    legal = ORIGINS.legal_actions(state, seat)
    assert 25 < len(legal) <= SIDE_BY_SIDE
    await env.advance_time(NOTICE_GRACE + 1)
    notice = member.user.dm_channel.history()[-1]
    menus = [row.children[0] for row in notice.components]
    assert len(menus) > 1
    assert all(m.custom_id.startswith(f"chan:pick:{table.channel.id}:{state.step}:") for m in menus)
    assert sum(len(m.options) for m in menus) == len(legal)
    menu = menus[-1]
    option = menu.options[-1]
    index = int(option.value.split(":")[0])
    assert isinstance(legal[index], Bid) and _name(legal[index].card) in menu.placeholder

    mine = await member.slash(table.channel, "game me")
    ids = [c.get("custom_id", "") for row in mine.response.components for c in row["components"]]
    assert [i.split(":")[1] for i in ids] == ["pick"] * len(menus) + ["full"], ids

    played = await member.user.select(notice, [option.value], custom_id=menu.custom_id)  # open, choose
    assert played.response.content.startswith("You bid"), played.response.content
    expected, _ = ORIGINS.apply(state, seat, legal[index])
    moved = await table.state()
    assert moved == expected

    late = await member.select(mine.response.message, [option.value], custom_id=ids[len(menus) - 1])
    assert late.ephemeral and late.response.content.startswith("That choice has expired"), (
        late.response.content
    )
    assert await table.state() == moved


def _name(code: str) -> str:
    from engine.origins import content

    return content.names()[code]


async def _activation(env: Any, store: Any) -> tuple[SchonbrunnTable, Any, str]:
    """A Schönbrunn table at four brought to a seat owing more than 125 Treaty activations
    (rare: random legal choices reach one in about one game of three). The way there is
    found in the engine from the table's own start, the service's forced moves taken as
    it takes them, then played through the service. (The table, the state, that seat.)"""
    table = SchonbrunnTable(env, store, players=4)
    await table.start(1914)
    start = await table.state()
    for seed in range(40):
        rng, state, path = random.Random(seed), start, []
        while SCHONBRUNN.outcome(state) is None:
            seat = SCHONBRUNN.prompts(state)[0].seat
            legal = SCHONBRUNN.legal_actions(state, seat)
            if len(legal) > SIDE_BY_SIDE:
                for who, action in path:
                    await env.bot.service.act(table.channel.id, table.members[table.seats[who]].id, action)
                assert await table.state() == state
                return table, state, seat
            path.append((seat, rng.choice(legal) if legal else SCHONBRUNN.default_action(state, seat)))
            state = _forced(SCHONBRUNN.apply(state, *path[-1])[0])
    raise AssertionError("no decision of more than 125 choices")


def _forced(state: Any) -> Any:
    """The state once the decisions with no real choice are taken, as the service takes them."""
    while SCHONBRUNN.outcome(state) is None:
        forced = next(
            (
                (p.seat, f.action)
                for p in SCHONBRUNN.prompts(state)
                if (f := SCHONBRUNN.forced_action(state, p.seat))
            ),
            None,
        )
        if forced is None:
            break
        state, _ = SCHONBRUNN.apply(state, *forced)
    return state


async def test_a_group_opened_in_game_me_keeps_its_full_status_button_and_a_late_one_expires(env, store):
    """Beyond 125 choices: `/game me` shows the menu of groups and Full status; opening a
    group edits it to that group's menu, Back and Full status, playing nothing. A group
    opened once the table has moved on changes nothing and says the choice has expired."""
    table, state, seat = await _activation(env, store)
    member = table.members[table.seats[seat]]
    mine = await member.slash(table.channel, "game me")
    ids = [c.get("custom_id", "") for row in mine.response.components for c in row["components"]]
    assert [i.split(":")[1] for i in ids] == ["menu", "full"], ids
    menu = mine.response.components[0]["components"][0]
    group = next(o for o in menu["options"] if o["value"].startswith("g:"))
    opened = await member.select(mine.response.message, [group["value"]], custom_id=menu["custom_id"])
    ids = [c.get("custom_id", "") for row in opened.response.components for c in row["components"]]
    assert [i.split(":")[1] for i in ids] == ["menu", "back", "full"], ids
    assert await table.state() == state
    status = await member.click(mine.response.message, custom_id=ids[-1])
    assert status.ephemeral and "Schönbrunn" in status.response.content, status.response.content

    again = await member.slash(table.channel, "game me")
    menu = again.response.components[0]["components"][0]
    await table.order(seat, "pass")
    moved = await table.state()
    assert seat not in {p.seat for p in SCHONBRUNN.prompts(moved)}
    late = await member.select(again.response.message, [group["value"]], custom_id=menu["custom_id"])
    assert late.ephemeral and late.response.content.startswith("That choice has expired"), (
        late.response.content
    )
    assert await table.state() == moved
