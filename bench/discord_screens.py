"""The bot's messages as the Discord client shows them: a seeded game of one title played
through SimCord (the simulated Discord), its messages drawn by SimCord's Preview and
photographed in headless Chromium (Debian's `chromium`, as the replay page's tests use).

`python bench/screens.py` prints and saves what this takes; tests/discord/test_screens.py
runs one title of it; bench/notice_taps.py plays each title's whole game from the
members' notices, photographing nothing, and prints the most taps from a notice to a
decision. The bot is the real one (docs/architecture.md §1, §3) over a table
service on a temporary SQLite file, its clock SimCord's virtual clock; members open the
table from a channel whose server announces tables in its lobby channel (`/community
lobby`), play some rounds by the turn buttons of their DM notices (the slash commands'
path when a decision is not among them), and then hand every seat to the automatic player
(`/game bot`) so the game ends and the final standings are posted.

What a capture measures is taken from the page the Preview drew, never from an image: the
message's height in pixels and the position of each line of its text (so the tests can
ask whether a line is on the first phone screen), and its characters as Discord counts
them. Nothing here knows the shape of the messages: a message is captured as the bot sent
it, embeds or Components V2 alike.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.discord import create_bot
from bot.discord.private import NOTICE_GRACE
from bot.service.tables import TableService
from bot.store import open_store
from engine import games
from engine.core.game import Game

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
EPOCH = 1_767_225_600.0  # SimCord's clock starts at 2026-01-01 00:00 UTC
TALL = 6000  # the viewport's height for a capture: the whole message, whatever its length
PHONE_SCREEN = 740  # px of message area on a phone's first screen (Discord's app on a 400 x 866 phone)
# Seconds of real time SimCord waits for the bot to settle after the last `/game bot`, in
# which the automatic players finish the whole game (its default, 5, elsewhere: a longer one
# would also wait out the timer of each ephemeral answer's buttons, as SimCord counts it)
SETTLE = 120.0
NAMES = ("Anna", "Bruno", "Chiara", "Dmitri", "Emil")

# The page's text, line box by line box, relative to the top of the captured message:
# each text node's client rects, with the text of its block (its paragraph, field or line).
_TEXT_POSITIONS = """() => {
  const root = document.getElementById('focused-content')
    || document.querySelector('.channel-message[data-message-id]')
    || document.getElementById('preview-app');
  const top = root.getBoundingClientRect().top;
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (!text) continue;
    let block = node.parentElement;
    while (block && block !== root && getComputedStyle(block).display.startsWith('inline')) {
      block = block.parentElement;
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    const box = block ? block.getBoundingClientRect() : rects[0];
    out.push({
      text, block: block ? block.innerText : text,
      top: Math.min(...rects.map(r => r.top)) - top,
      bottom: Math.max(...rects.map(r => r.bottom)) - top,
      blockTop: box.top - top, blockBottom: box.bottom - top,
    });
  }
  return out;
}"""


@dataclass(frozen=True)
class Title:
    game_id: str
    players: int
    seed: int
    rounds: int  # rounds played by the members before the automatic players take over


TITLES = (
    Title("crisis1914", 3, 386, 2),
    Title("origins", 4, 7, 2),
    Title("schonbrunn", 4, 3, 1),
)


@dataclass
class TextLine:
    """One text node of a captured message: where it is, and the block it belongs to."""

    text: str
    block: str
    top: float
    bottom: float
    block_top: float
    block_bottom: float


@dataclass
class Capture:
    """One message photographed at one width."""

    name: str  # lobby, status, notice, me, standings
    width: int
    path: Path
    height: int
    characters: int
    text: str  # what the message says (its content, embeds and components as text)
    lines: list[TextLine]
    diagnostics: list[str]  # SimCord's: a missing attachment, an unsupported component, a render error
    complete: bool
    more: int = 0  # messages after it in the same answer (an interaction's follow-ups), not captured


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


def waiting_block(capture: Capture, awaited: list[str]) -> TextLine | None:
    """The first block of text (a line or paragraph) that says who is awaited: it reads
    "waiting" and names every awaited member."""
    for line in sorted(capture.lines, key=lambda x: x.top):
        block = line.block.casefold()
        if "waiting" in block and all(name.casefold() in block for name in awaited):
            return line
    return None


def message_text(message: Any, labels: bool = True) -> str:
    """What a member reads of a message, whatever its kind: content, embeds, components
    (with their buttons' and menus' labels unless `labels` is False)."""
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        e = embed.to_dict()
        parts += [x for x in (e.get("title"), e.get("description")) if x]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        if (e.get("footer") or {}).get("text"):
            parts.append(e["footer"]["text"])
    for component in message.components:
        parts += _component_text(component, labels)
    return "\n".join(p for p in parts if p)


def _part(component: Any, key: str) -> Any:
    """A component's field, whether discord.py's object or the raw payload (an interaction's answer)."""
    if isinstance(component, dict):
        return component.get(key)
    value = getattr(component, key, None)
    return None if callable(value) else value


def _children(component: Any) -> list[Any]:
    out: list[Any] = []
    for key in ("children", "components", "items"):
        value = _part(component, key)
        if isinstance(value, (list, tuple)):
            out += value
    accessory = _part(component, "accessory")
    return out + ([accessory] if accessory is not None else [])


def _component_text(component: Any, labels: bool = True) -> list[str]:
    """The text of a component and those inside it (Components V2: text displays, sections,
    containers), with buttons' and menus' labels unless `labels` is False."""
    out = []
    for key in ("content", "label", "placeholder") if labels else ("content",):
        value = _part(component, key)
        if isinstance(value, str) and value:
            out.append(value)
    for option in _part(component, "options") or [] if labels else []:
        label = _part(option, "label")
        if label:
            out.append(label)
    for child in _children(component):
        out += _component_text(child, labels)
    return out


def characters(message: Any) -> int:
    """Characters of text as Discord counts them against a message's limits: its content,
    its embeds' texts and its text displays, not the labels of its buttons and menus."""
    return len(message_text(message, labels=False))


class _Shared:
    """Our Chromium, handed to each Preview's capture in place of the Playwright-installed
    browser it would launch (this machine has Debian's, not Playwright's). A capture's page
    reports the position of every line of text just before its screenshot."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.last_lines: list[dict[str, Any]] = []

    # the Browser's face, as ManagedCapture uses it
    @property
    def version(self) -> str:
        return str(self.browser.version)

    async def new_context(self, **options: Any) -> Any:
        return _Context(self, await self.browser.new_context(**options))

    async def close(self) -> None:  # the Preview closing: ours stays open for the next one
        return None


class _Context:
    def __init__(self, shared: _Shared, context: Any) -> None:
        self._shared, self._context = shared, context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)

    async def new_page(self) -> Any:
        return _Page(self._shared, await self._context.new_page(), self)

    async def new_cdp_session(self, page: Any) -> Any:
        return await self._context.new_cdp_session(getattr(page, "_page", page))


class _Page:
    def __init__(self, shared: _Shared, page: Any, context: _Context) -> None:
        self._shared, self._page, self.context = shared, page, context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)

    async def screenshot(self, **options: Any) -> Any:
        self._shared.last_lines = await self._page.evaluate(_TEXT_POSITIONS)
        return await self._page.screenshot(**options)


@asynccontextmanager
async def chromium() -> AsyncIterator[_Shared]:
    from playwright.async_api import async_playwright

    if not CHROMIUM.exists():
        raise RuntimeError("Debian's chromium is needed at /usr/bin/chromium: apt-get install chromium")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield _Shared(browser)
        finally:
            await browser.close()


class _Clock:
    """time.time() for the service: SimCord's virtual now once the world runs."""

    def __init__(self) -> None:
        self.env: Any = None

    def __call__(self) -> float:
        return self.env.now().timestamp() if self.env is not None else EPOCH


@dataclass
class _Config:
    dev_guild_id: int | None = None
    heartbeat_seconds: float = 6 * 3600.0


class Table:
    """A server with a lobby channel and a table channel, its members at one game."""

    def __init__(self, env: Any, service: TableService, title: Title) -> None:
        self.env, self.service, self.title = env, service, title
        self.game: Game = games.get(title.game_id)
        self.guild = env.create_guild()
        admins = self.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        names = NAMES[: title.players]
        self.members = {names[0]: self.guild.add_member(env.create_user(names[0]), roles=[admins])}
        self.members |= {n: self.guild.add_member(env.create_user(n)) for n in names[1:]}
        self.lobby = self.guild.create_text_channel("lobby")
        self.channel = self.guild.create_text_channel(self.game.id)
        self.host = self.members[names[0]]
        self.by_seat: dict[str, str] = {}  # seat -> member name
        self.read: dict[str, set[int]] = {}  # member -> the DMs they had when they last decided

    async def slash(self, who: str, command: str, **options: Any) -> Any:
        result = await self.members[who].slash(self.channel, command, **options)
        assert result.ephemeral, f"/{command} was answered in public: {result.response.content}"
        return result

    async def state(self) -> Any:
        row = await self.service.store.get_table(self.channel.id)
        assert row is not None and row.state is not None, "the table has no game"
        return self.game.load_state(row.state)

    async def rounds(self) -> int:
        events = await self.service.store.get_all_events(self.channel.id)
        return sum(1 for e in events if e.audience is None and e.kind == self.game.round_event)

    def posted(self, first: int, last: int | None = None) -> tuple[int, int]:
        """Messages the bot posted between two of SimCord's REST calls: into the table's
        channel and its threads, and into the members' DMs (edits and deletions not counted)."""
        public = {self.channel.id, *(t.id for t in self.channel.threads)}
        private = {m.user.dm_channel.id for m in self.members.values() if m.user.dm_channel is not None}
        channel = dm = 0
        for call in self.env.http_requests[first:last]:
            parts = call.path.strip("/").split("/")
            if call.method == "POST" and len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
                channel += int(parts[1]) in public
                dm += int(parts[1]) in private
        return channel, dm

    def status_message(self) -> Any:
        """The message with the status buttons ("Show my hand / orders"), however laid out."""
        wanted = f"chan:me:{self.channel.id}"
        found = [m for m in self.channel.history() if wanted in _custom_ids(m.components)]
        assert len(found) == 1, f"expected one status message, found {len(found)}"
        return found[0]

    def owing(self, state: Any) -> list[str]:
        """The members (names) who owe a decision now."""
        seats = [p.seat for p in self.game.prompts(state) if self.game.may_act(state, p.seat)]
        return [self.by_seat[s] for s in dict.fromkeys(seats) if s in self.by_seat]


def _custom_ids(components: Any) -> list[str]:
    return [str(_part(c, "custom_id")) for c in _controls(components)]


def _controls(components: Any) -> list[Any]:
    """Every button and menu of a message, nested ones (Components V2) included."""
    out = []
    for c in components or []:
        if _part(c, "custom_id"):
            out.append(c)
        out += _controls(_children(c))
    return out


@asynccontextmanager
async def world(title: Title) -> AsyncIterator[Table]:
    """The bot over a fresh table service, running in SimCord; a server ready for `title`."""
    clock = _Clock()
    with tempfile.TemporaryDirectory(prefix="screens-") as folder:
        store = await open_store(Path(folder) / "tables.sqlite3")
        service = TableService(
            store,
            clock=clock,
            default_settings={"phase_hours": 24.0, "reminders_hours": [1.0], "automatic_player": "basic"},
            seed_source=lambda: title.seed,
            automatic_workers=0,
        )
        try:
            async with simcord.run(create_bot(_Config(), service)) as env:
                clock.env = env
                yield Table(env, service, title)
        finally:
            service.automatic.close()
            await store.close()


class Photographer:
    """Captures of one table's messages at the widths asked for, into `out`."""

    def __init__(self, shared: _Shared, out: Path, widths: tuple[int, ...]) -> None:
        self.shared, self.out, self.widths = shared, out, widths

    async def take(self, table: Table, name: str, channel: Any, viewer: Any, target: Any) -> list[Capture]:
        """`target` (a message or an interaction's answer) in `channel` as `viewer` sees it."""
        captures = []
        message = target.response if hasattr(target, "response") else target
        text, size = message_text(message), characters(message)
        more = len(getattr(target, "followups", None) or [])
        async with table.env.preview(
            channel, viewers=[viewer], display="fixed", width=self.widths[0], height=TALL
        ) as preview:
            preview._capture_manager._browser = self.shared  # our Chromium (see _Shared)
            for width in self.widths:
                path = self.out / f"{table.game.id}-{name}-{width}.png"
                shot = await preview.screenshot(
                    path, target=target, viewport=(width, TALL), allow_incomplete=True
                )
                diagnostics = [
                    f"{d.get('code')}: {d.get('message')}" for d in shot.diagnostics if d.get("code")
                ]
                lines = [
                    TextLine(x["text"], x["block"], x["top"], x["bottom"], x["blockTop"], x["blockBottom"])
                    for x in self.shared.last_lines
                ]
                capture = Capture(
                    name, width, path, shot.output_height, size, text, lines, diagnostics, shot.complete, more
                )
                path.with_suffix(".txt").write_text(_sidecar(table, capture), encoding="utf-8")
                captures.append(capture)
        return captures


def _sidecar(table: Table, c: Capture) -> str:
    head = [
        f"{table.game.title}, {table.title.players} players, seed {table.title.seed}: {c.name}",
        f"{c.width} px wide, {c.height} px high; {c.characters} characters",
        f"diagnostics: {'; '.join(c.diagnostics) or 'none'}",
        *([f"followed by {c.more} more messages in the same answer, not captured"] if c.more else []),
        "",
    ]
    return "\n".join(head) + c.text + "\n"


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


async def seated(table: Table) -> None:
    """Who holds each seat, once the game has started."""
    by_user = {m.id: n for n, m in table.members.items()}
    seats = await table.service.store.get_seats(table.channel.id)
    table.by_seat = {s.seat: by_user[s.user_id] for s in seats if s.seat is not None}


def dms(table: Table, name: str) -> list[Any]:
    dm = table.members[name].user.dm_channel
    return list(dm.history()) if dm is not None else []


def latest_notice(messages: list[Any], table: Table) -> Any:
    """The newest of `messages` (DMs) with turn buttons or menus for this table, else the newest."""
    mine = f":{table.channel.id}:"
    for message in reversed(messages):
        if any(c.startswith("chan:") and mine in c for c in _custom_ids(message.components)):
            return message
    return messages[-1] if messages else None


def fresh_notice(table: Table, name: str, step: int) -> Any:
    """The member's notice of the decision owed at `step`: the DM whose buttons or menus are
    for that step (sent or edited for it), else their newest DM since their last decision."""
    messages = dms(table, name)
    turn = tuple(f"chan:{kind}:{table.channel.id}:{step}:" for kind in ("act", "pick", "menu"))
    for message in reversed(messages):
        if any(c.startswith(turn) for c in _custom_ids(message.components)):
            return message
    new = [m for m in messages if m.id not in table.read.get(name, set())]
    return new[-1] if new else None


def _offered(notice: Any, table: Table, step: int, index: int) -> tuple[str, str, int] | None:
    """How the notice offers legal action `index` at `step`: (button or menu, its id, taps:
    a button one, a menu two: open it, choose)."""
    for control in _controls(notice.components):
        custom = str(_part(control, "custom_id"))
        act = f"chan:act:{table.channel.id}:{step}:{index}"
        if custom == act or custom.startswith(act + ":"):
            return "button", custom, 1
        if custom.startswith((f"chan:pick:{table.channel.id}:{step}:", f"chan:menu:{table.channel.id}:{step}:")):
            for option in _part(control, "options") or []:
                value = str(_part(option, "value"))
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
    for control in _controls(notice.components):
        custom = str(_part(control, "custom_id"))
        if not custom.startswith(f"chan:menu:{table.channel.id}:{step}:"):
            continue
        for option in _part(control, "options") or []:
            value = str(_part(option, "value"))
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
            back = [str(_part(c, "custom_id")) for c in _controls(shown.components)]
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
    menus = [c for c in _controls(notice.components) if str(_part(c, "custom_id")).startswith("chan:menu:")]
    runs = any(
        str(_part(o, "value")).startswith("g:") and " … " in str(_part(o, "label"))
        for m in menus
        for o in _part(m, "options") or []
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
    if notice is not None and any(c.startswith(turn) for c in _custom_ids(notice.components)):
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


async def capture_game(shared: _Shared, title: Title, out: Path, widths: tuple[int, ...]) -> Figures:
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
        standings = _standings(table)
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


async def finish(table: Table) -> None:
    """Every seat to the automatic player (`/game bot`, by the host): the game plays itself
    to its end."""
    host = next(iter(table.members))
    table.env.settle_timeout = SETTLE
    for seat in table.by_seat:
        if table.game.outcome(await table.state()) is not None:
            break
        await table.slash(host, "game bot", on=True, seat=seat)
    assert table.game.outcome(await table.state()) is not None, "the automatic players did not finish the game"


def _standings(table: Table) -> Any:
    for message in reversed(table.channel.history()):
        if "standings" in message_text(message).lower():
            return message
    raise AssertionError("no final standings in the channel")
