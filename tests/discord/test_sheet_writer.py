"""Origins' Phase 4 by taps: a player writes their secret sheet from the placement notice,
an embassy then an amount per line, through the engine's own place command, and hands it
in; nobody else sees a line of it (bot/discord/sheet_writer.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.discord.private import NOTICE_GRACE
from bot.discord.sheet_writer import SheetAmount, SheetDone, SheetEmbassy, WriteSheet
from engine.origins import GAME, content
from engine.origins.state import OriginsState

from ..render.lint import problems
from .test_origins_e2e import OriginsTable
from .whole_game import fixed_seed, simcord_bot  # noqa: F401 (fixtures pytest finds by name)

pytestmark = pytest.mark.simcord

SEED = 1914


@pytest.fixture
def seed() -> int:
    return SEED


def _items(components: list[Any]) -> list[Any]:
    """Every button and select of raw component rows (dicts) or discord.py rows."""
    out: list[Any] = []
    for row in components:
        out += row.get("components", []) if isinstance(row, dict) else list(getattr(row, "children", []))
    return out


def _id(item: Any) -> str:
    return str(item.get("custom_id") if isinstance(item, dict) else getattr(item, "custom_id", "") or "")


def _find(components: list[Any], prefix: str) -> Any:
    (found,) = [i for i in _items(components) if _id(i).startswith(prefix)]
    return found


def _forget_views(env: Any) -> None:
    """As after a restart: the bot holds no view objects, only its registered templates."""
    store = env.bot._connection._view_store
    store._views.clear()
    store._synced_message_views.clear()


async def _to_placement(table: OriginsTable) -> OriginsState:
    await table.start(SEED)
    for _ in range(60):  # everyone passes in the bidding; the last pass opens Phase 4
        state = await table.state()
        if state.phase != "bidding":
            break
        await table.order(GAME.prompts(state)[0].seat, "pass")
    state = await table.state()
    assert state.phase == "placement", state.phase
    return state


async def _line(table: OriginsTable, member: Any, message: Any, country: str, line: str, amount: int) -> Any:
    """One sheet line, in two taps: the embassy ("SER", or "-SER" to eliminate), then the
    amount; the first writes nothing, each is answered by its id alone, as after a restart."""
    env, names = table.env, content.names()
    before = await table.state()
    select = _find(message.components, "chan:sheet-at:")
    _forget_views(env)
    await member.select(message.message, [line], custom_id=select["custom_id"])  # tap 1
    assert await table.state() == before  # choosing the embassy writes nothing
    edited = env.backend.get_message(message.channel_id, message.id)
    amounts = _find(edited_components(edited), f"chan:sheet-n:{table.channel.id}:{country}:{line}")
    values = [int(o["value"]) for o in amounts["options"]]
    assert values == list(range(values[-1] + 1)) and values[-1] <= 5  # 0 to the cap
    if line.startswith("-"):
        asked = f"How many of {names[country]}'s PFs in {names[line[1:]]} does it eliminate?"
    else:
        asked = f"How many new PFs does {names[country]} place in {names[line]}?"
    assert asked in edited_text(edited)
    texts = [edited_text(edited), *(o["label"] for o in amounts["options"]), amounts.get("placeholder", "")]
    assert not [p for t in texts for p in problems(t)], texts  # the message lint (tests/render/lint.py)
    _forget_views(env)
    return await member.select(message.message, [str(amount)], custom_id=amounts["custom_id"])  # tap 2


@pytest.mark.usefixtures("fixed_seed")
async def test_two_lines_of_a_sheet_written_by_taps_from_the_notice_then_handed_in(env, store):
    table = OriginsTable(env, store, players=3)  # two countries a seat
    state = await _to_placement(table)
    await env.advance_time(NOTICE_GRACE + 1)
    names = content.names()
    seat = GAME.prompts(state)[0].seat
    name = table.seats[seat]
    member = table.members[name].user
    mine = state.countries_of(seat)
    assert len(mine) == 2
    first_call = len(env.http_requests)

    # The notice: the hand-in and one "Write …'s sheet" button per country, and so /game me.
    notice = [m for m in member.dm_channel.history() if _items(m.components)][-1]
    sheet_buttons = [i for i in _items(notice.components) if _id(i).startswith("chan:sheet:")]
    assert [b.label for b in sheet_buttons] == [f"Write {names[c]}'s sheet" for c in mine]
    assert any(_id(i).startswith("chan:act:") for i in _items(notice.components)), "the hand-in stays"
    me = await table.members[name].slash(table.channel, "game me")
    assert me.ephemeral
    labels = [i.get("label") for i in _items(me.response.components)]
    assert [f"Write {names[c]}'s sheet" for c in mine] == [x for x in labels if x and x.startswith("Write ")]

    # Open the first country's sheet: its embassies, its own not among them.
    country = mine[0]
    _forget_views(env)
    opened = await member.click(notice, custom_id=sheet_buttons[0].custom_id)
    assert opened.ephemeral
    assert opened.response.content.startswith(f"{names[country]}'s sheet: nothing written yet."), opened.response.content
    where = _find(opened.response.components, "chan:sheet-at:")
    assert not any(state.pfs.values())  # the first turn: no PFs of its own to eliminate yet
    assert [o["value"] for o in where["options"]] == [e for e in names if e != country]
    first, second = [e for e in ("SER", "ROM", "BUL", "GRE") if e != country][:2]

    texts = [opened.response.content, *(o["label"] for o in where["options"]), where.get("placeholder", "")]
    assert not [p for t in texts for p in problems(t)], texts

    wrote = await _line(table, member, opened.response, country, first, 3)
    assert wrote.ephemeral
    assert f"\nYour sheet for {names[country]}: {first} 3\n" in wrote.response.content, wrote.response.content
    again = _find(wrote.response.components, "chan:sheet-at:")
    assert f"{names[first]} ▸ 3 written" in [o["label"] for o in again["options"]]
    assert not problems(wrote.response.content), wrote.response.content

    wrote = await _line(table, member, wrote.response, country, second, 2)
    assert f"\nYour sheet for {names[country]}: {first} 3, {second} 2\n" in wrote.response.content
    drafts = (await table.state()).drafts
    assert drafts[country].place == {first: 3, second: 2}  # the engine's draft holds both lines

    # Done: the turn buttons again; the hand-in hands the sheets in.
    await member.click(wrote.response.message, custom_id=_find(wrote.response.components, "chan:sheet-done:")["custom_id"])
    done = env.backend.get_message(wrote.response.channel_id, wrote.response.id)
    hand_in = _find(edited_components(done), "chan:act:")
    handed = await member.click(wrote.response.message, custom_id=hand_in["custom_id"])
    assert handed.ephemeral and handed.response.content.startswith("You"), handed.response.content
    after = await table.state()
    assert seat in after.submitted and after.drafts[country].place == {first: 3, second: 2}

    # A stale amount once handed in: the current state, nothing written.
    stale_at = _find(opened.response.components, "chan:sheet-at:")
    stale = await member.select(opened.response.message, [first], custom_id=stale_at["custom_id"])
    assert stale.response.content.startswith("That choice has expired"), stale.response.content
    assert await table.state() == after

    # Nobody else saw the sheet: no public text or other member's DM holds it or its buttons.
    dm = member.dm_channel.id
    for call in env.http_requests[first_call:]:
        parts = call.path.strip("/").split("/")
        if parts[0] == "channels" and int(parts[1]) != dm and call.json is not None:
            said = json.dumps(call.json)
            assert "chan:sheet" not in said and f"{first} 3" not in said, call.path
    assert not any(f"{first} 3" in text for text in table.public_since(first_call))
    for other in set(table.members) - {name}:
        assert not any(f"{first} 3" in text or names[first] + " 3" in text for text in table.dms(other))


def edited_text(message: Any) -> str:
    return str(message.get("content") if isinstance(message, dict) else getattr(message, "content", ""))


def edited_components(message: Any) -> list[Any]:
    """A stored message's component rows, as dicts."""
    rows = message.get("components", []) if isinstance(message, dict) else getattr(message, "components", [])
    return [r if isinstance(r, dict) else r.to_dict() for r in rows]


def test_the_sheet_writer_answers_its_ids_after_a_restart(env):
    """A bot just started, before it sent any of them, reads every sheet writer id back."""
    registered = env.bot._connection._view_store._dynamic_items
    ids = {
        WriteSheet: "chan:sheet:7:GER",
        SheetEmbassy: "chan:sheet-at:7:GER",
        SheetAmount: "chan:sheet-n:7:GER:SER",
        SheetDone: "chan:sheet-done:7",
    }
    for item, custom_id in ids.items():
        pattern = item.__discord_ui_compiled_template__
        assert registered.get(pattern) is item
        assert pattern.fullmatch(custom_id) is not None
    built = WriteSheet(7, "GER", "Write Germany's sheet").custom_id, SheetDone(7).custom_id
    assert built == (ids[WriteSheet], ids[SheetDone])


@pytest.mark.usefixtures("fixed_seed")
async def test_an_elimination_in_the_second_turn_is_one_more_line_of_two_taps(env, store):
    """Where the country has PFs of its own, the select offers "Eliminate in …": up to 5
    of them, written as /origins remove writes it."""
    table = OriginsTable(env, store, players=3)
    state = await _to_placement(table)
    turn = state.turn
    for _ in range(400):  # the automatic player plays the rest of the turn, into the next Phase 4
        state = await table.state()
        if state.turn != turn and state.phase == "placement":
            break
        await env.bot.service.auto(table.channel.id)
    assert state.turn != turn and state.phase == "placement", (state.turn, state.phase)
    names = content.names()
    seat = GAME.prompts(state)[0].seat
    member = table.members[table.seats[seat]]
    country, own = next((c, [e for e in names if state.at(e, c)]) for c in state.countries_of(seat))
    assert own, "PFs of its own on the board after a turn"

    me = await member.slash(table.channel, "game me")
    button = _find(me.response.components, f"chan:sheet:{table.channel.id}:{country}")
    opened = await member.click(me.response.message, custom_id=button["custom_id"])
    where = _find(opened.response.components, "chan:sheet-at:")
    eliminations = [o for o in where["options"] if o["value"].startswith("-")]
    assert [o["value"] for o in eliminations] == [f"-{e}" for e in own]
    assert [o["label"] for o in eliminations] == [f"Eliminate in {names[e]}" for e in own]
    texts = [opened.response.content, *(o["label"] for o in where["options"])]
    assert not [p for t in texts for p in problems(t)], texts

    wrote = await _line(table, member, opened.response, country, f"-{own[0]}", 1)
    assert f"\nYour sheet for {names[country]}: -{own[0]} 1" in wrote.response.content, wrote.response.content
    assert (await table.state()).drafts[country].remove == {own[0]: 1}
    again = _find(wrote.response.components, "chan:sheet-at:")
    assert f"Eliminate in {names[own[0]]} ▸ 1 written" in [o["label"] for o in again["options"]]
    shown = await member.click(me.response.message, custom_id=button["custom_id"])  # the sheet again
    assert f"remove 1 in {names[own[0]]}" in shown.response.content, shown.response.content
