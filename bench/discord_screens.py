"""The bot's messages as the Discord client shows them: a seeded game of one title played
through SimCord (the simulated Discord), its messages drawn by SimCord's Preview and
photographed in headless Chromium (Debian's `chromium`, as the replay page's tests use).

`python bench/screens.py` prints and saves what this takes; tests/discord/test_screens.py
runs one title of it; bench/notice_taps.py plays each title's whole game from the
members' notices, photographing nothing, and prints the most taps from a notice to a
decision.

This file plays the game: members open the table from a channel whose server announces
tables in its lobby channel (`/community lobby`), play some rounds by the turn buttons of
their DM notices (the slash commands' path when a decision is not among them), counting
the taps from each notice to its decision and the messages of the counted rounds, and
then hand every seat to the automatic player (`/game bot`) so the game ends and the final
standings are posted. Beside it: bench/screens_world.py, the real bot (docs/architecture.md
§1, §3) over a table service on a temporary SQLite file, its clock SimCord's virtual
clock; bench/screens_camera.py, the photographs and what each measures, read from the page
the Preview drew; bench/screens_messages.py, a message's text and its buttons and menus.
Nothing here knows the shape of the messages: a message is captured as the bot sent it,
embeds or Components V2 alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.screens_camera import (
    PHONE_SCREEN,
    Capture,
    Photographer,
    SharedBrowser,
    TextLine,
    chromium,
    waiting_block,
)
from bench.screens_messages import controls, custom_ids, part
from bench.screens_world import Table, Title, dms, final_standings, finish, seated, world
from bot.discord.private import NOTICE_GRACE

# what bench/screens.py, bench/notice_taps.py and tests/discord/test_screens.py import from here
__all__ = [
    "PHONE_SCREEN",
    "TITLES",
    "Capture",
    "Figures",
    "TextLine",
    "Title",
    "capture_game",
    "chromium",
    "decide",
    "seated",
    "waiting_block",
    "world",
]

TITLES = (
    Title("crisis1914", 3, 386, 2),
    Title("origins", 4, 7, 2),
    Title("schonbrunn", 4, 3, 1),
)


@dataclass
class Figures:
    """What one game showed: its captures and the traffic it counted."""

    title: Title
    captures: list[Capture] = field(default_factory=list)
    rounds: int = 0
    channel_messages: int = 0  # messages posted in the table's channel and threads in the counted rounds
    decisions: int = 0  # decisions the members took in the counted rounds
    dms: int = 0  # DMs posted to the members meanwhile
    played: int = 0  # every decision the members took, the counted rounds' and those before
    taps: list[int] = field(default_factory=list)  # of those, each made from its notice: the taps it took
    kinds: dict[str, int] = field(default_factory=dict)  # the most taps a kind of decision took from its notice
    worst: dict[str, int] = field(default_factory=dict)  # the most any choice of a notice would have taken, by kind
    not_from_notice: int = 0  # of those, each whose notice offered no button or menu for it
    awaited: list[str] = field(default_factory=list)  # who the status message waited for when captured


async def open_and_start(table: Table, shoot: Photographer, figures: Figures) -> None:
    """The lobby channel, the table opened and filled; the lobby entry captured with one seat open."""
    names = list(table.members)
    host = names[0]
    await table.slash(host, "community lobby", channel=table.lobby)
    await table.slash(host, "game new", game=table.game.id)
    for name in names[1:-1]:
        await table.slash(name, "game join")
    (entry,) = list(table.lobby.history())
    figures.captures += await shoot.take(table, "lobby", table.lobby, table.host, entry)
    await table.slash(names[-1], "game join")
    started = await table.slash(host, "game start")
    assert started.response.content.startswith("The game has started"), started.response.content
    await seated(table)


def latest_notice(messages: list[Any], table: Table) -> Any:
    """The newest of `messages` (DMs) with turn buttons or menus for this table, else the newest."""
    mine = f":{table.channel.id}:"
    for message in reversed(messages):
        if any(c.startswith("chan:") and mine in c for c in custom_ids(message.components)):
            return message
    return messages[-1] if messages else None


def fresh_notice(table: Table, name: str, step: int) -> Any:
    """The member's notice of the decision owed at `step`: the DM whose buttons or menus are
    for that step (sent or edited for it), else their newest DM since their last decision."""
    messages = dms(table, name)
    turn = tuple(f"chan:{kind}:{table.channel.id}:{step}:" for kind in ("act", "pick", "menu"))
    for message in reversed(messages):
        if any(c.startswith(turn) for c in custom_ids(message.components)):
            return message
    new = [m for m in messages if m.id not in table.read.get(name, set())]
    return new[-1] if new else None


def _offered(notice: Any, table: Table, step: int, index: int) -> tuple[str, str, int] | None:
    """How the notice offers legal action `index` at `step`: (button or menu, its id, taps:
    a button one, a menu two: open it, choose)."""
    for control in controls(notice.components):
        custom = str(part(control, "custom_id"))
        act = f"chan:act:{table.channel.id}:{step}:{index}"
        if custom == act or custom.startswith(act + ":"):
            return "button", custom, 1
        if custom.startswith((f"chan:pick:{table.channel.id}:{step}:", f"chan:menu:{table.channel.id}:{step}:")):
            for option in part(control, "options") or []:
                value = str(part(option, "value"))
                if value.split(":")[0] == str(index):
                    return value, custom, 2  # open the menu, choose
    return None


async def _through_groups(
    table: Table, name: str, notice: Any, step: int, index: int
) -> tuple[Any, tuple[str, str, int]] | None:
    """Legal action `index` behind a menu of groups: each group is opened in turn (the
    message is edited to its menu) until one offers it; (the message, how, taps counted
    from the notice: two to open the group, then the group's own). Back after a miss."""
    member = table.members[name]
    for control in controls(notice.components):
        custom = str(part(control, "custom_id"))
        if not custom.startswith(f"chan:menu:{table.channel.id}:{step}:"):
            continue
        for option in part(control, "options") or []:
            value = str(part(option, "value"))
            if not value.startswith("g:"):
                continue
            await member.user.select(notice, [value], custom_id=custom)
            shown = next((m for m in dms(table, name) if m.id == notice.id), None)
            if shown is None:
                return None
            found = _offered(shown, table, step, index)
            if found is not None:
                how, inner, taps = found
                return shown, (how, inner, taps + 2)
            back = [str(part(c, "custom_id")) for c in controls(shown.components)]
            back = [c for c in back if c.startswith(f"chan:back:{table.channel.id}:{step}:")]
            if back:
                await member.user.click(shown, custom_id=back[0])
            notice = next((m for m in dms(table, name) if m.id == notice.id), notice)
    return None


def _worst(notice: Any, table: Table, step: int, legal: int) -> int:
    """The most taps any of the `legal` choices takes from the notice: a button one, a
    menu's option two; a choice no button or option offers is behind a group's option,
    two taps more (two more again where a group's option gathers groups: "A … B")."""
    direct = [_offered(notice, table, step, i) for i in range(legal)]
    if all(d is not None for d in direct):
        return max((d[2] for d in direct if d is not None), default=0)
    menus = [c for c in controls(notice.components) if str(part(c, "custom_id")).startswith("chan:menu:")]
    runs = any(
        str(part(o, "value")).startswith("g:") and " … " in str(part(o, "label"))
        for m in menus
        for o in part(m, "options") or []
    )
    return 6 if runs else 4


async def decide(table: Table, name: str, figures: Figures, rng: random.Random) -> None:
    """The member's decision (the game's basic player chooses it). When a notice came for it
    (`fresh_notice`), it is made from the notice if that offers it (a button: one tap; a menu:
    two), and counted as not offered if not; then, and for a member still at the table (no
    notice), the service takes it as their slash command would."""
    state = await table.state()
    seat = next(s for s, n in table.by_seat.items() if n == name)
    action = table.game.bot_action(state, seat, rng)
    legal = table.game.legal_actions(state, seat)
    index = legal.index(action) if action in legal else -1  # -1: an order no list holds (a sheet)
    member = table.members[name]
    notice = fresh_notice(table, name, state.step)
    offered = _offered(notice, table, state.step, index) if notice is not None else None
    kind = next((p.kind for p in table.game.prompts(state) if p.seat == seat), "")
    turn = tuple(f"chan:{k}:{table.channel.id}:{state.step}:" for k in ("act", "pick", "menu"))
    if notice is not None and any(c.startswith(turn) for c in custom_ids(notice.components)):
        worst = _worst(notice, table, state.step, len(legal))
        figures.worst[kind] = max(figures.worst.get(kind, 0), worst)
    if notice is not None and offered is None and index >= 0:
        grouped = await _through_groups(table, name, notice, state.step, index)
        if grouped is not None:
            notice, offered = grouped
    if offered is not None:
        how, custom, taps = offered
        if how == "button":
            await member.user.click(notice, custom_id=custom)
        else:
            await member.user.select(notice, [how], custom_id=custom)
        assert (await table.state()).step > state.step, f"{name}'s {how} in the notice did not act"
        figures.taps.append(taps)
        figures.kinds[kind] = max(figures.kinds.get(kind, 0), taps)
    else:
        figures.not_from_notice += notice is not None
        with table.env.time_context():
            outbox = await table.service.act(table.channel.id, member.id, action)
            table.env.bot.delivery.seen(table.channel.id, member.id)
            await table.env.bot.delivery.deliver(outbox, caller_id=member.id)
            table.env.bot.ticker.poke()  # as the bot's command handlers do: the next notices' grace begins
    table.read[name] = {m.id for m in dms(table, name)}


async def capture_game(shared: SharedBrowser, title: Title, out: Path, widths: tuple[int, ...]) -> Figures:
    """One seeded game of `title`: every capture at every width, and the traffic counted
    over `title.rounds` whole rounds (from the first round's opening event to the opening
    of the round after the last), every player away so that every turn notice goes out.
    With `rounds` 0 the members stop once the round's messages are captured."""
    figures = Figures(title)
    shoot = Photographer(shared, out, widths)
    rng = random.Random(title.seed)
    async with world(title) as table:
        await open_and_start(table, shoot, figures)
        counted: int | None = None  # SimCord's REST calls when the first whole round began
        pictures = table.service.draw_pictures
        table.service.draw_pictures = False  # drawn only for the messages captured: a tenth of a second each
        while (rounds := await table.rounds()) <= title.rounds or not figures.awaited:
            state = await table.state()
            owing = table.owing(state)
            if not owing or table.game.outcome(state) is not None:
                break
            await table.env.advance_time(NOTICE_GRACE + 1)  # the players are away: notices go out by DM
            if rounds >= 1 and counted is None:
                counted = len(table.env.http_requests)
            elif counted is not None and not figures.awaited:
                # the round's second decision, the first made with pictures
                figures.awaited = owing
                await _round_captures(table, shoot, figures, owing[0])
            table.service.draw_pictures = pictures and counted is not None and not figures.awaited
            await decide(table, owing[0], figures, rng)
            figures.played += 1
            figures.decisions += counted is not None
        assert counted is not None and figures.awaited, f"no round of {title.game_id} began and went on"
        figures.rounds = max(min(rounds, title.rounds + 1) - 1, 0)
        figures.channel_messages, figures.dms = table.posted(counted)
        table.service.draw_pictures = pictures  # the standings carry the final board and the scores' chart
        await finish(table)
        standings = final_standings(table)
        figures.captures += await shoot.take(table, "standings", table.channel, table.host, standings)
    return figures


async def _round_captures(table: Table, shoot: Photographer, figures: Figures, name: str) -> None:
    """At a round's first decision: the status message, the notice of who owes, their `/game me`."""
    status = table.status_message()
    figures.captures += await shoot.take(table, "status", table.channel, table.host, status)
    notice = latest_notice(dms(table, name), table)
    assert notice is not None, f"{name} owes a decision and had no notice by DM"
    user = table.members[name].user
    figures.captures += await shoot.take(table, "notice", user.dm_channel, user, notice)
    me = await table.slash(name, "game me")
    figures.captures += await shoot.take(table, "me", table.channel, table.members[name], me)
