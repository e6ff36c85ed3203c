"""What the SimCord whole-game tests share: the bot over the real registry, a fixed table
seed, and a guild channel whose members play one game by its slash commands.

A test module imports `simcord_bot`, `fixed_seed` and `draw_pictures` (pytest finds fixtures by name in the
module), defines a `seed` fixture giving the table seed, and subclasses `WholeGameTable`
with its game, member names and channel.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar

import pytest

from bot.discord import create_bot
from bot.discord.play_commands import command_name
from bot.discord.private import NOTICE_GRACE
from bot.discord.views import CUSTOM_ID, FULL_LABEL
from bot.service.automatic import AutomaticPlayers, decide, name_for
from bot.service.tables import TableService
from engine.core import rng_for
from engine.core.game import Game
from engine.core.search import STRENGTHS

from ..render.lint import problems
from .conftest import BotConfig
from .reading import shown, shown_payload

SECRET = "(secret: only you see this)"  # how the service marks a simultaneous prompt

# The table default for automatic seats, `strong`, in tests: the real strong player (the
# game's search, its knowledge and exploration as the bot runs them) at 16 iterations a
# decision instead of 200, so that a whole game's decisions take seconds.
TEST_ITERATIONS = 16

# A member's order as slash commands: (command, options, the thread it is typed in or None
# for the table's channel), from the state, the seat and the engine's action.
Commands = Callable[[Any, str, Any], list[tuple[str, dict[str, Any], str | None]]]


@pytest.fixture
def simcord_bot(service: TableService) -> Any:
    """The bot over the real game registry (conftest's default narrows it to the test game)."""
    return create_bot(BotConfig(), service)


@pytest.fixture
def draw_pictures() -> bool:
    """No board pictures: these games test the commands and messages, and a picture on every
    action was most of their cost (tests/discord/test_pictures.py and test_api_budget.py
    play with pictures)."""
    return False


@pytest.fixture
def fixed_seed(service: TableService, seed: int) -> int:
    """`/game start` seeds the table from the service's seed source; the module's `seed`
    fixture in its place makes the game the same every run."""
    service.lobby.seed_source = lambda: seed
    return seed


@pytest.fixture
def strong_at_test_iterations(service: TableService, strong_automatic_seats: None) -> AutomaticPlayers:
    """Automatic seats play the table's setting, `strong` by default, as the bot does: in the
    service's worker process (`automatic_workers` 1), at TEST_ITERATIONS. The worker is
    spawned before the game, as the bot may at start, so that SimCord's settle time (5 s of
    real time per command, waiting for the bot's tasks and executor work to finish)
    covers the decisions, not the worker's start."""
    automatic = service.automatic
    automatic.strengths["strong"] = replace(STRENGTHS["strong"], iterations=TEST_ITERATIONS)
    # The reviews a finished game begins run in the same worker for a minute or more after
    # the last command, longer than SimCord's settle: they are tested on their own
    # (tests/diplomacy/test_review_service.py and its SimCord test).
    service.reviews.enabled = False
    for started in automatic.start():
        started.result(timeout=120)
    return automatic


class WholeGameTable:
    """A guild channel with members at one game's table, and what each of them sees."""

    game: ClassVar[Game]
    names: ClassVar[tuple[str, ...]]  # the members, the first one hosting
    channel_name: ClassVar[str]

    def __init__(self, env: Any, store: Any, players: int | None = None, automatic: int = 0) -> None:
        self.env = env
        self.store = store
        self.group = command_name(self.game.group)  # the slash-command group, as registered
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel(self.channel_name)
        self.members = {n: self.guild.add_member(env.create_user(n)) for n in self.names[:players]}
        self.seats: dict[str, str] = {}  # seat -> member name
        self.adding = automatic  # automatic seats the host adds in the lobby (`/game bot`)
        self.automatic: dict[str, str] = {}  # seat -> the automatic player's name
        self.typed: set[str] = set()  # every command and "command option" a member used
        self._seen: set[str] = set()  # lines shown in public before REST call `_seen_upto`
        self._seen_upto = 0

    async def start(self, seed: int) -> Any:
        """Open, join, start; returns the interaction answering the host's `/game start`."""
        host, *others = self.members
        opened = await self.members[host].slash(self.channel, "game new", game=self.game.id)
        assert opened.ephemeral, opened.response.content
        for name in others:
            joined = await self.members[name].slash(self.channel, "game join")
            assert joined.ephemeral and "error" not in joined.response.content.lower()
        for _ in range(self.adding):
            added = await self.members[host].slash(self.channel, "game bot")
            assert added.ephemeral and "takes a seat" in added.response.content, added.response.content
        started = await self.members[host].slash(self.channel, "game start")
        assert started.response.content.startswith("The game has started"), started.response.content
        by_user = {m.id: n for n, m in self.members.items()}
        row = await self.store.get_table(self.channel.id)
        assert row.seed == seed
        seats = await self.store.get_seats(self.channel.id)
        self.seats = {s.seat: by_user[s.user_id] for s in seats if not s.automatic}
        self.automatic = {s.seat: s.name for s in seats if s.automatic}
        return started

    async def state(self) -> Any:
        row = await self.store.get_table(self.channel.id)
        return self.game.load_state(row.state)

    def answer(self, result: Any) -> str:
        """The private answer to a command as the test reads it."""
        return result.response.content

    async def order(self, seat: str, command: str, where: Any = None, **options: Any) -> str:
        """`/<group> <command>` typed by the member holding `seat`; returns the private answer."""
        before = (await self.store.get_table(self.channel.id)).state
        result = await self.members[self.seats[seat]].slash(
            where or self.channel, f"{self.group} {command}", **options
        )
        answer = self.answer(result)
        assert result.ephemeral, f"/{self.group} {command} was answered in public: {answer}"
        changed = (await self.store.get_table(self.channel.id)).state != before
        assert changed, f"/{self.group} {command} {options} refused: {answer}"
        assert not problems(answer), (answer, problems(answer))  # the message lint (tests/render/lint.py)
        self.typed |= {command, *(f"{command} {option}" for option in options)}
        return answer

    def dms(self, name: str) -> list[str]:
        dm = self.members[name].user.dm_channel
        return [m.content for m in dm.history()] if dm is not None else []

    def public_since(self, first_call: int, *, new_only: bool = False) -> list[str]:
        """Every text the bot posted or edited into the channel or its threads since the
        given REST call: what a spectator could have read at some moment, not only now
        (the status message is edited in place). With `new_only`, only the lines no public
        text had shown before that call: the round summary repeats the round so far at
        every edit, and what it repeats was public already."""
        out = self._public(first_call, None)
        if new_only:
            if first_call < self._seen_upto:
                self._seen, self._seen_upto = set(), 0
            self._seen |= {line for text in self._public(self._seen_upto, first_call) for line in text.splitlines()}
            self._seen_upto = first_call
            out = ["\n".join(x for x in text.splitlines() if x not in self._seen) for text in out]
        return out

    def _public(self, first: int, last: int | None) -> list[str]:
        public = {self.channel.id} | {t.id for t in self.channel.threads}
        out = []
        for call in self.env.http_requests[first:last]:
            parts = call.path.strip("/").split("/")
            if parts[0] != "channels" or int(parts[1]) not in public or not isinstance(call.json, dict):
                continue
            text = shown_payload(call.json) if call.method in ("POST", "PATCH") else ""
            if text:
                out.append(text)
        return out

    def status_message(self) -> Any:
        """The one message with the status buttons: the round summary and the status card."""
        wanted = CUSTOM_ID.format(channel_id=self.channel.id)
        found = [
            m
            for m in self.channel.history()
            if any(getattr(c, "custom_id", None) == wanted for row in m.components for c in getattr(row, "children", []))
        ]
        assert len(found) == 1, f"expected one status message, found {len(found)}"
        return found[0]

    def status(self) -> str:
        """The status message as a member reads it: the round summary, then the card."""
        return shown(self.status_message())

    async def full_status(self) -> str:
        """What the status message's "Full status" button shows a member: the whole text."""
        member = next(iter(self.members.values()))
        result = await member.click(self.status_message(), label=FULL_LABEL)
        assert result.ephemeral
        return "\n".join(m.content for m in [result.response, *result.followups])

    def lint(self) -> list[str]:
        """The message lint (tests/render/lint.py) over everything posted in the channel and its
        threads and every member's DMs during the game; [] when all reads well."""
        public = self.public_since(0)
        texts = public + [t for name in self.members for t in self.dms(name)]
        found = [f"{p} in: {t[:200]!r}" for t in texts for p in problems(t)]
        # what the whole table reads names countries in full
        return found + [f"{p} in: {t[:200]!r}" for t in public for p in problems(t, public=True)]

    async def archived(self, thread_id: int) -> bool:
        """As the bot sees it (an archived thread drops out of its cache: fetched then)."""
        thread = self.env.bot.get_channel(thread_id) or await self.env.bot.fetch_channel(thread_id)
        return thread.archived

    async def secret_prompts_arrive_by_dm(self, prompts: list, opener: tuple[str, str]) -> int:
        """Each seat's secret prompt reaches its member alone: the member whose order
        (`opener`: seat, private answer) opened the phase in that answer, everyone else by
        DM after the grace; none reaches the channel. Returns how many came by DM."""
        before = {name: len(self.dms(name)) for name in self.members}
        dmed = 0
        await self.env.advance_time(NOTICE_GRACE)
        for prompt in prompts:
            name = self.seats[prompt.seat]
            secret = [text for text in self.dms(name)[before[name] :] if SECRET in text]
            if prompt.seat == opener[0]:
                assert SECRET in opener[1] and prompt.text in opener[1], opener[1]
                assert secret == [], f"{name} saw the prompt in their answer and was DMed it too"
            else:
                assert len(secret) == 1 and prompt.text in secret[0], (name, secret)
                # the DM says which table it is for, in words, with a link
                link = f"https://discord.com/channels/{self.guild.id}/{self.channel.id}"
                assert f"#{self.channel.name}" in secret[0] and link in secret[0]
                dmed += 1
        for text in self.public_since(0):
            assert SECRET not in text
        return dmed


async def play_beside_automatic_seats(table: WholeGameTable, commands: Commands, seed: int) -> Any:
    """A whole game where the members give their seat's basic-player order as slash
    commands, and the automatic seats are the service's own (the table's setting, `strong`
    by default); returns the final state. Each command is answered only once SimCord has
    settled: the automatic decisions it set off are saved before the next one is typed.

    Why that is deterministic: after each interaction SimCord settles, joining every task the
    bot started and every piece of executor work it submitted through the event loop, within
    5 s of real time; it does not wait for the loop to be idle. The automatic seats'
    decisions run in the service's worker process and are awaited through `run_in_executor`
    (a thread waiting on the pool with the decision budget), so nothing is left running when
    the next command is typed, and the game is the same every run (each decision depends only
    on the seat's view and the step's generator). The search runs at TEST_ITERATIONS so that
    a command's chain of decisions fits in those 5 s."""
    game, rng = table.game, random.Random(seed)
    state = await table.state()
    for _ in range(5000):
        if game.outcome(state) is not None:
            return state
        owing = [p for p in game.prompts(state) if p.seat not in table.automatic and game.may_act(state, p.seat)]
        assert owing, f"only automatic seats owe a decision at step {state.step}, and the service took none"
        seat = owing[0].seat
        for command, options, thread in commands(state, seat, game.bot_action(state, seat, rng)):
            where = next(t for t in table.channel.threads if t.name == thread) if thread else None
            await table.order(seat, command, where, **options)
        state = await table.state()
    raise AssertionError("the game did not end in 5,000 orders")


async def the_automatic_seats_played_the_strong_player(table: WholeGameTable, strength_name: str) -> int:
    """Replays the stored action log on the engine alone: every action an automatic seat's
    player took (by the automatic holder, not a decision without a real choice) is the one
    the player named by the table's setting decides in this process from the state before
    it and the service's generator for that step (`rng_for(seed, step, "auto")`). Returns
    how many there were: the worker process decided as this process does."""
    game = table.game
    row = await table.store.get_table(table.channel.id)
    holders = {s.user_id for s in await table.store.get_seats(table.channel.id) if s.automatic}
    final = game.load_state(row.state)
    options = dict(row.options)
    if "preferences" in game.Options.model_fields:
        options["preferences"] = {
            s.seat: s.preference for s in await table.store.get_seats(table.channel.id) if s.preference
        }
    state = game.setup(list(final.seats), game.Options.model_validate(options), row.seed)
    name = name_for(game, strength_name)
    strength = replace(STRENGTHS[name], iterations=TEST_ITERATIONS) if name in STRENGTHS else None
    checked = 0
    for a in await table.store.get_actions(table.channel.id):
        action = game.parse_action(json.loads(a.action))
        if a.seat in table.automatic and a.user_id in holders:
            rng = rng_for(state.seed, state.step, "auto")
            assert decide(game, name, strength, state, a.seat, rng) == action, (a.idx, a.seat, action)
            checked += 1
        state, _ = game.apply(state, a.seat, action)
    assert state == final, "the stored action log does not replay to the stored state"
    return checked
