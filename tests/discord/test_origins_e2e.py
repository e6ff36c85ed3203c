"""A whole 5-player game of Origins of World War I through SimCord, orders by DM.

Five members open, join and start a table with `/game …`, then play every decision with
`/origins bid|pass|place|remove|submit|attack|done|ready`, each order chosen by the
engine's automatic player for that seat and typed as the slash command a player would
type. Beside the Discord table the same orders are applied to the engine alone (the
"mirror"); after every command the stored state must equal the mirror's, so each slash
command is checked to have meant exactly the order it was typed for. A second game, with
three players holding two countries each, types the `country:` option and writes each
sheet in one line (`/origins sheet line:`), which also keeps it quick.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine.origins import GAME, content
from engine.origins.actions import Attack, Bid, Done, Pass, Place, Ready, Remove, Submit, WriteSheet
from engine.origins.placement import sheet_line, sheet_words
from engine.origins.state import OriginsState, Sheet

from .whole_game import (  # noqa: F401 (fixtures pytest finds by name)
    WholeGameTable,
    draw_pictures,
    fixed_seed,
    play_beside_automatic_seats,
    simcord_bot,
    strong_at_test_iterations,
    the_automatic_seats_played_the_strong_player,
)

pytestmark = pytest.mark.simcord

SEED = 1914  # the table seed (fixed: the same game every run) and the automatic players' seed
NAMES = ("anna", "boris", "clara", "dmitri", "emil")
DRAFT = "Your sheet for "  # the engine's private reply to each line written on a sheet


@pytest.fixture
def seed() -> int:
    return SEED


class OriginsTable(WholeGameTable):
    """A guild channel with members at an Origins table, and what each of them sees."""

    game = GAME
    names = NAMES
    channel_name = "origins"


def translate(
    state: OriginsState, seat: str, action: Any, *, one_line: bool = False
) -> list[tuple[str, dict[str, Any], Any]]:
    """The engine's order as the slash commands a player types: (command, options, the
    order each command must mean). Sheets are written a line at a time with place and
    remove, or `one_line` with `/origins sheet line:`."""
    mine = state.countries_of(seat)
    several = len(mine) > 1
    if isinstance(action, Pass):
        return [("pass", {}, Pass())]
    if isinstance(action, Bid):
        opts: dict[str, Any] = {"card": action.card, "position": action.position, "amount": action.amount}
        if several:
            opts["payer"] = action.payer
        return [("bid", opts, action)]
    if isinstance(action, Submit):
        calls: list[tuple[str, dict[str, Any], Any]] = []
        for country, sheet in (action.sheets or {}).items():
            which = {"country": country} if several else {}
            if one_line:
                if sheet != Sheet():  # an empty sheet needs no writing
                    line = sheet_line(sheet)
                    calls.append(("sheet", {"line": line, **which}, WriteSheet(country=country, text=line)))
                continue
            for embassy, n in sheet.place.items():
                calls.append(
                    (
                        "place",
                        {"embassy": embassy, "amount": n, **which},
                        Place(country=country, embassy=embassy, amount=n),
                    )
                )
            for embassy, n in sheet.remove.items():
                calls.append(
                    (
                        "remove",
                        {"embassy": embassy, "amount": n, **which},
                        Remove(country=country, embassy=embassy, amount=n),
                    )
                )
        return [*calls, ("submit", {}, Submit())]
    if isinstance(action, Attack):
        if len(action.split) == 1:
            (target,) = action.split
            return [("attack", {"embassy": action.embassy, "target": target}, action)]
        split = ", ".join(f"{c} {n}" for c, n in action.split.items())
        return [("attack", {"embassy": action.embassy, "split": split}, action)]
    if isinstance(action, Done):
        return [("done", {}, Done())]
    assert isinstance(action, Ready), action
    return [("ready", {}, Ready())]


@pytest.mark.parametrize(
    ("players", "one_line"),
    [(5, False), (3, True)],
    ids=["five players", "three players, two countries each, sheets in one line"],
)
@pytest.mark.usefixtures("fixed_seed")
async def test_a_whole_game_of_origins_by_slash_commands(env, store, players, one_line):
    table = OriginsTable(env, store, players)
    await table.start(SEED)
    names = content.names()
    rng = random.Random(SEED)
    mirror = await table.state()  # the same game on the engine alone
    placements = diplomacies = 0
    opener: tuple[str, str] | None = None  # (seat, private answer) of the last order given

    while GAME.outcome(mirror) is None:
        prompts = GAME.prompts(mirror)
        phase = mirror.phase
        label = content.board().turns[mirror.turn].label

        if phase == "placement":
            placements += 1
            await _secret_prompts_arrive_by_dm(table, mirror, prompts, opener)
            phase_start = len(env.http_requests)
            drafts: dict[str, str] = {}  # country -> its sheet line, as the owner was told
            for prompt in prompts:
                seat = prompt.seat
                submit = GAME.bot_action(mirror, seat, rng)
                for command, opts, meant in translate(mirror, seat, submit, one_line=one_line):
                    if command == "submit" and len(mirror.submitted) == len(mirror.seats) - 1:
                        _no_sheet_was_shown_in_public(table, phase_start, drafts)
                    answer = await table.order(seat, command, **opts)
                    if command in ("place", "remove", "sheet"):
                        told = f"{DRAFT}{names[meant.country]}: "
                        assert answer.count(DRAFT) == 1 and told in answer, answer
                        drafts[meant.country] = answer.split(told, 1)[1].splitlines()[0]
                    mirror = await _agrees(table, mirror, seat, meant)
                for country, sheet in submit.sheets.items():  # the sheet handed in is the one planned
                    drafts.setdefault(country, "(empty)")
                    assert drafts[country] == sheet_line(sheet), (country, drafts[country], sheet)
            revealed = "\n".join(table.public_since(phase_start))
            assert "Placement sheets revealed" in revealed
            for country, line in drafts.items():  # a leak would have looked like the reveal
                assert f"{names[country]}: {sheet_words(line)}" in revealed, (country, line)
            opener = (seat, answer)
            continue

        if phase == "diplomacy":
            diplomacies += 1
            thread = await _the_phase_thread_is_open(table, f"Diplomacy {label}")
            for prompt in prompts:
                answer = await table.order(prompt.seat, "ready", where=thread)
                mirror = await _agrees(table, mirror, prompt.seat, Ready())
            assert await table.archived(thread.id)
            assert (await table.store.get_front(table.channel.id)).thread_id is None
            opener = (prompt.seat, answer)
            continue

        (prompt,) = prompts  # bidding and attacks are one seat at a time
        for command, opts, meant in translate(mirror, prompt.seat, GAME.bot_action(mirror, prompt.seat, rng)):
            answer = await table.order(prompt.seat, command, **opts)
            mirror = await _agrees(table, mirror, prompt.seat, meant)
        opener = (prompt.seat, answer)

    sheets = {"sheet"} if one_line else {"place"}
    assert {"bid", "pass", *sheets, "submit", "attack", "attack target", "done", "ready"} <= table.typed
    if players < 5:  # each member holds two countries and names the one a sheet is for
        assert {"sheet line", "sheet country"} <= table.typed
    assert 9 <= mirror.turn <= 11 and placements == mirror.turn + 1 and diplomacies >= 3
    await _the_standings_are_the_engines(table, mirror)
    assert not table.lint(), "\n".join(table.lint())
    _each_private_line_reached_its_owner_only(table, mirror)


async def _agrees(table: OriginsTable, mirror: OriginsState, seat: str, meant: Any) -> OriginsState:
    """The stored state after a command is the engine's for the order it was meant to give."""
    expected, _ = GAME.apply(mirror, seat, meant)
    stored = await table.state()
    assert stored == expected, f"{seat}'s command did not mean {meant!r}"
    assert GAME.invariants(stored) == []
    return expected


async def _secret_prompts_arrive_by_dm(
    table: OriginsTable, state: OriginsState, prompts: list, opener: tuple[str, str] | None
) -> None:
    """Each seat's secret placement prompt reaches its member alone: the member whose order
    opened the phase in that order's private answer, everyone else by DM after the grace."""
    assert opener is not None and {p.seat for p in prompts} == set(state.seats)
    await table.secret_prompts_arrive_by_dm(prompts, opener)


def _no_sheet_was_shown_in_public(table: OriginsTable, phase_start: int, drafts: dict[str, str]) -> None:
    names = content.names()
    for text in table.public_since(phase_start):
        assert DRAFT not in text and "; sheet: " not in text, text
        for country, line in drafts.items():
            assert f"{names[country]}: {line}" not in text, (country, line, text)


async def _the_phase_thread_is_open(table: OriginsTable, name: str) -> Any:
    info = await table.store.get_front(table.channel.id)  # what Discord answered: the front end's row
    thread = next(t for t in table.channel.threads if t.name == name)
    assert info.thread_id == thread.id
    assert not await table.archived(thread.id)
    assert thread.history()[0].content.startswith(f"**{name}**: this phase ends <t:")
    return thread


async def _the_standings_are_the_engines(table: OriginsTable, mirror: OriginsState) -> None:
    row = await table.store.get_table(table.channel.id)
    assert row.status == "finished"
    final = GAME.load_state(row.state)
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome == GAME.outcome(mirror)
    posted = [m.content for m in table.channel.history() if "**Final standings**" in m.content]
    assert len(posted) == 1
    heading, *lines = posted[0].split("\n\n")[0].splitlines()  # the seed follows in the same message
    assert outcome.reason in heading
    # "2. **boris** · France · 7": place, player, nation, score; how each score was reached
    # is behind the standings' button (the full status)
    line = re.compile(r"(\d+)\. \*\*(\w+)\*\*(?: · .*)? · (-?\d+(?:\.\d+)?)")
    shown = []
    for text in lines:
        match = line.fullmatch(text)
        assert match, text
        shown.append((int(match[1]), match[2], float(match[3])))
    best_first = sorted(outcome.standings, key=lambda s: (s.rank, -s.score))
    assert shown == [(s.rank, table.seats[s.seat], s.score) for s in best_first]
    full = await table.full_status()
    assert all(s.detail in full for s in best_first if s.detail), full


def _each_private_line_reached_its_owner_only(table: OriginsTable, final: OriginsState) -> None:
    """What each member was told of sheets (private answers in the channel, DMs) names
    only their own countries."""
    names = content.names()
    for seat, name in table.seats.items():
        member = table.members[name]
        mine = [names[c] for c in final.countries_of(seat)]
        seen = [m.content for m in table.channel.history(viewer=member)] + table.dms(name)
        told = [line for text in seen for line in text.splitlines() if DRAFT in line]
        assert told, f"{name} was never told their sheet"
        assert all(any(line.startswith(f"{DRAFT}{c}:") for c in mine) for line in told), (name, told)


def _commands(state: OriginsState, seat: str, action: Any) -> list[tuple[str, dict[str, Any], str | None]]:
    thread = f"Diplomacy {content.board().turns[state.turn].label}" if state.phase == "diplomacy" else None
    return [(command, options, thread) for command, options, _ in translate(state, seat, action)]


@pytest.mark.usefixtures("fixed_seed", "strong_at_test_iterations")
async def test_a_whole_game_of_origins_beside_an_automatic_seat_at_the_table_default(
    env, store, service
):
    """A whole game of Origins of WW1 with two members and one automatic seat at the table default
    (`strong`), through SimCord under its default settle time (why that is deterministic:
    `play_beside_automatic_seats`); every decision the worker took is decided again in this
    process from the stored log and must be the same."""
    table = OriginsTable(env, store, players=2, automatic=1)
    await table.start(SEED)
    final = await play_beside_automatic_seats(table, _commands, SEED)
    assert GAME.outcome(final) is not None
    assert (await store.get_table(table.channel.id)).status == "finished"
    # Origins' `strong` seats play its best player, `reserve` (bot/service/automatic.py, BEST_FOR)
    assert await the_automatic_seats_played_the_strong_player(table, "strong") >= 10
    assert service.automatic.overruns == 0 and service.automatic.lost_workers == 0
