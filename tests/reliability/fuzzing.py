"""Fuzzed calls into the table service and lines into the console (tests/reliability/
test_fuzz.py, bench/reliability.py; docs/reliability.md).

One example: a table of one game is played some way in (any phase), then a list of calls,
each one of the service's entry points with arguments drawn from what people type (any
text, huge and negative numbers, names of the game's own nations and cards, JSON of any
shape) or from the legal choices of the moment. A call may be refused with the service's
refusal type, TableError; anything else it raises is a finding. Afterwards a fresh
service over the same database loads every table, its invariants hold and its full
record replays.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from bot.console.console import Console, user_id_for
from bot.service.tables import TableError, TableService
from bot.store import open_store
from bot.store.records import Record, replay
from engine import games

GAMES = ("crisis1914", "origins", "schonbrunn")
CHANNEL, OTHER = 10, 11  # a table; a channel that never has one
USERS = (1, 2, 3, 4, 99)  # three seated, one not, one stranger

WORDS = st.sampled_from(
    [
        "", " ", "0", "1", "2", "3", "-1", "5", "10", "all", "none", "on", "off", "yes", "inf", "nan",
        "1e309", "9" * 30, "9" * 5000, "@everyone", "<@1>", "<@99>", "<@!2>", "s1", "s2", "s9",
        "France", "Germany", "Russia", "Austria", "Britain", "GB", "SER", "ROM", "FE", "GER",
        "Prussia", "Spain", "Poland", "ah-conrad", "ru-basili", "phase_hours", "on_expiry",
        "diplomacy_minutes", "SER 5, ROM 3", "12,1", "22-07", "Europe/Vienna", "mention", "dm",
        "\x00", "\u202e", "Schönbrunn", "x" * 3000,
    ]
)
TEXT = st.one_of(WORDS, st.text(max_size=40), st.integers(-(2**70), 2**70).map(str))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _game(game_id: str):
    return games.get(game_id)


@st.composite
def calls(draw: st.DrawFn, game_id: str) -> tuple[str, tuple[Any, ...]]:
    """One entry point and its arguments."""
    game = _game(game_id)
    user = draw(st.sampled_from(USERS))
    channel = draw(st.sampled_from((CHANNEL, CHANNEL, CHANNEL, OTHER)))
    admin = draw(st.booleans())
    names = [c.name for c in game.commands]
    kind = draw(
        st.sampled_from(
            [
                "command", "command", "command", "choose", "choose", "choose", "auto", "act", "join",
                "leave", "start", "create", "abandon", "pause", "resume", "undo", "settings",
                "substitute", "request_substitute", "automatic", "talk", "export", "publish", "log",
                "status", "me", "mine", "notify", "suggest", "import", "rules",
            ]
        )
    )
    if kind == "command":
        name = draw(st.sampled_from(names) | TEXT)
        cmd = next((c for c in game.commands if c.name == name), None)
        options = {o.name: draw(TEXT) for o in (cmd.options if cmd else ()) if draw(st.booleans())}
        if draw(st.integers(0, 9)) == 0:
            options[draw(TEXT)] = draw(TEXT)
        return kind, (channel, user, name, options)
    if kind == "choose":
        return kind, (channel, user, draw(st.integers(-1, 40)), draw(st.booleans()))
    if kind == "act":
        return kind, (channel, user, draw(JSON))
    if kind in ("join",):
        return kind, (channel, user, draw(TEXT), draw(st.none() | TEXT))
    if kind == "start":
        return kind, (channel, user, draw(st.none() | st.integers(-(2**70), 2**70)))
    if kind == "create":
        # options as the front ends pass them: names to typed text, yes/no or numbers
        options = st.dictionaries(TEXT, TEXT | st.booleans() | st.integers(-(2**70), 2**70), max_size=3)
        return kind, (channel, user, draw(st.sampled_from(GAMES) | TEXT), draw(st.none() | options))
    if kind == "settings":
        changes = draw(st.dictionaries(st.sampled_from(["phase_hours", "on_expiry", "reminders_hours",
                                                          "round_threads", "on_outage"]) | TEXT, TEXT, max_size=3))
        return kind, (channel, user, changes, admin)
    if kind == "substitute":
        return kind, (channel, user, draw(TEXT), draw(st.sampled_from(USERS) | st.integers(-(2**70), 2**70)),
                      draw(TEXT), admin)
    if kind == "automatic":
        return kind, (channel, user, draw(st.none() | TEXT), draw(st.booleans()), admin)
    if kind == "talk":
        return kind, (channel, user, draw(st.lists(TEXT, max_size=4)))
    if kind == "log":
        return kind, (channel, draw(st.integers(-(2**70), 2**70)))
    if kind == "notify":
        return kind, (user, draw(st.none() | TEXT), draw(st.none() | TEXT), draw(st.none() | TEXT))
    if kind == "suggest":
        return kind, (channel, user, draw(st.sampled_from(names) | TEXT), draw(TEXT),
                      draw(st.dictionaries(TEXT, TEXT, max_size=3)), draw(TEXT))
    if kind == "import":
        return kind, (draw(st.sampled_from((CHANNEL, OTHER))), user, draw(JSON))
    if kind == "rules":
        return kind, (draw(st.sampled_from(GAMES) | TEXT),)
    if kind in ("mine",):
        return kind, (user,)
    if kind == "auto":
        return kind, (channel,)
    return kind, (channel, user, admin)


async def call(service: TableService, kind: str, args: tuple[Any, ...]) -> None:
    s = service
    if kind == "command":
        await s.command(*args)
    elif kind == "choose":
        channel, user, index, fresh = args
        step, choices = await s.choices(channel, user)
        if choices and index >= 0:
            await s.act_choice(channel, user, step if fresh else step - 1, choices[index % len(choices)][0])
        else:
            await s.act_choice(channel, user, step, index)
    elif kind == "act":
        await s.act(*args)
    elif kind == "join":
        channel, user, name, pref = args
        await s.lobby.join(channel, user, name, pref)
    elif kind == "leave":
        await s.lobby.leave(*args[:2])
    elif kind == "start":
        await s.lobby.start(*args)
    elif kind == "create":
        channel, user, game, options = args
        await s.lobby.create(channel, 1, game, user, f"p{user}", options)
    elif kind == "abandon":
        channel, user, admin = args
        await s.abandon(channel, user, admin=admin)
    elif kind == "pause":
        channel, user, admin = args
        await s.controls.pause(channel, user, admin=admin)
    elif kind == "resume":
        channel, user, admin = args
        await s.controls.resume(channel, user, admin=admin)
    elif kind == "undo":
        channel, user, admin = args
        await s.controls.undo(channel, user, admin=admin)
    elif kind == "settings":
        channel, user, changes, admin = args
        await s.settings(channel, user, changes, admin=admin)
    elif kind == "substitute":
        channel, user, seat, new_user, name, admin = args
        await s.controls.substitute(channel, user, seat, new_user, name, admin=admin)
    elif kind == "request_substitute":
        await s.controls.request_substitute(*args[:2])
    elif kind == "automatic":
        channel, user, seat, on, admin = args
        await s.controls.set_automatic(channel, user, seat, on, admin=admin)
    elif kind == "talk":
        await s.controls.talk(*args)
    elif kind == "export":
        await s.history.export(args[0])
    elif kind == "publish":
        channel, user, admin = args
        await s.history.publish(channel, user, admin=admin)
    elif kind == "log":
        await s.history.log(*args)
    elif kind == "status":
        await s.status(args[0])
    elif kind == "me":
        await s.me(*args[:2])
    elif kind == "mine":
        await s.notifications.mine(*args)
    elif kind == "notify":
        user, mode, zone, quiet = args
        await s.notifications.set_notify(user, mode=mode, timezone=zone, quiet_hours=quiet)
    elif kind == "suggest":
        await s.suggest(*args)
    elif kind == "import":
        channel, user, record = args
        await s.history.import_record(channel, 1, user, f"p{user}", record if isinstance(record, dict) else {"x": record})
    elif kind == "rules":
        s.rules(*args)
    elif kind == "auto":
        await s.auto(*args)
    else:
        raise AssertionError(kind)


@dataclass
class Tally:
    calls: int = 0
    refused: int = 0
    examples: int = 0
    lines: int = 0
    findings: list[str] = field(default_factory=list)


async def open_table(service: TableService, game_id: str, seed: int, advance: int) -> None:
    await service.lobby.create(CHANNEL, 1, game_id, 1, "p1")
    await service.lobby.join(CHANNEL, 2, "p2")
    await service.lobby.join(CHANNEL, 3, "p3")
    await service.lobby.start(CHANNEL, 1, seed=seed)
    for _ in range(advance):
        if await service.auto(CHANNEL) is None:
            break


async def run_example(db, game_id: str, seed: int, advance: int, todo: list, tally: Tally) -> None:
    """Open a table, play `advance` automatic moves, make the calls `todo`; then check."""
    store = await open_store(db)
    try:
        service = TableService(store)
        await open_table(service, game_id, seed, advance)
        for kind, args in todo:
            tally.calls += 1
            try:
                await call(service, kind, args)
            except TableError:
                tally.refused += 1
            # anything else propagates: hypothesis shrinks it to the smallest example
        await check_tables(store)
    finally:
        await store.close()
    tally.examples += 1


async def check_tables(store) -> None:
    """A fresh service loads every table; invariants hold; every started game's full
    record replays (the operator's export holds every action, finished or not)."""
    fresh = TableService(store)
    for channel in await store.tables_with_status("lobby", "running", "paused", "finished", "abandoned"):
        t = await fresh.load(channel, fresh=True)
        await fresh.status(channel)
        if t.state is None:
            continue
        assert t.game.invariants(t.state) == [], (channel, t.game.invariants(t.state))
        result = replay(t.game, Record.model_validate(await fresh.history.operator_export(channel)))
        assert result.ok, (channel, str(result))


@st.composite
def console_lines(draw: st.DrawFn, game_id: str) -> str:
    game = _game(game_id)
    who = draw(st.sampled_from(["as p1 ", "as p2 ", "as p3 ", "as eve ", "", "as "]))
    shape = draw(st.integers(0, 5))
    if shape == 0:
        return draw(st.text(max_size=80))
    if shape == 1:
        return draw(st.sampled_from(["wait", "auto", "help", "as"])) + " " + draw(TEXT)
    if shape == 2:
        verb = draw(st.sampled_from(["new", "join", "leave", "start", "status", "me", "log", "rules",
                                     "card", "settings", "abandon", "pause", "resume", "substitute",
                                     "bot", "undo", "export", "publish", "notify", "mine"]) | TEXT)
        opts = draw(st.lists(st.tuples(TEXT, TEXT), max_size=3))
        return who + f"/game {verb} " + " ".join(f"{k}:{v}" for k, v in opts)
    cmd = draw(st.sampled_from(game.commands))
    group = draw(st.sampled_from([game.group, game.id, *game.aliases, "crisis", "origins", "nope"]))
    opts = [(o.name, draw(TEXT)) for o in cmd.options if draw(st.booleans())]
    quote = draw(st.booleans())
    parts = [f"{k}:{v!r}" if quote else f"{k}:{v}" for k, v in opts]
    return who + f"/{group} {cmd.name} " + " ".join(parts)


async def run_console_example(db, game_id: str, seed: int, advance: int, lines: list[str], tally: Tally) -> None:
    store = await open_store(db)
    try:
        service = TableService(store)
        out = io.StringIO()
        console = Console(service, out, "p1")
        for setup in (f"as p1 /game new game:{game_id}", "as p2 /game join", "as p3 /game join",
                      f"as p1 /game start seed:{seed}", f"auto {advance}"):
            assert await console.line(setup), out.getvalue()[-500:]
        for line in lines:
            tally.lines += 1
            await console.line(line)  # a refusal is printed; anything raised is a finding
        await check_tables(store)
    finally:
        await store.close()
    tally.examples += 1


def run(coro) -> None:
    asyncio.run(coro)


__all__ = ["GAMES", "Tally", "calls", "console_lines", "run_example", "run_console_example", "user_id_for"]
