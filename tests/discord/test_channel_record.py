"""The channel as the record a player reads once a day (the round summary and the status card), through
SimCord, at the largest table of each game: Crisis: 1914 with 5, Origins with 7,
Schönbrunn with 6, played to the end by the automatic players.

- At every step the status card stays under 1,000 characters with nothing left out for
  room, and the status message (a Components V2 layout) under Discord's 4,000, the
  waiting line first with its full slash command.
- Every public event of the game is in the channel, whole and in order, in the round
  summaries (one per Week, round or turn, none over 2,000 characters), and an action's
  events are never posts of their own.
- The summary survives a restart: the restarted bot edits the same status message and the
  summary it holds keeps what it said before.
- Discord API calls per action stay within 1.5 (docs/rulings.md, Discord adapter 1).
"""

from __future__ import annotations

import random

import pytest

from bot.discord import create_bot
from bot.discord.private import NOTICE_GRACE
from bot.discord.status_layout import TEXT_LIMIT
from bot.discord.views import CUSTOM_ID, FULL_LABEL
from bot.render.status import LIMIT, MORE
from bot.render.text import MESSAGE_LIMIT
from bot.service.tables import TableService
from engine import games

from .conftest import BotConfig
from .reading import message_text, shown, status_parts

pytestmark = pytest.mark.simcord

NAMES = ["anna", "boris", "clara", "dmitri", "emil", "fritz", "gustav"]
BUDGET = 1.5
MAX_ACTIONS = 600  # a cap, not a target: the largest games take about 350


@pytest.fixture
def draw_pictures() -> bool:
    return False  # tests/discord/test_pictures.py checks the picture in the card


@pytest.fixture
def simcord_bot(service):
    return create_bot(BotConfig(), service)


def _status_message(channel):
    wanted = CUSTOM_ID.format(channel_id=channel.id)
    found = [
        m
        for m in channel.history()
        if any(getattr(c, "custom_id", None) == wanted for row in m.components for c in getattr(row, "children", []))
    ]
    assert len(found) == 1, f"expected one status message, found {len(found)}"
    return found[0]


def _plain(text: str) -> str:
    return text.replace("**", "")


@pytest.mark.parametrize("game_id", ["crisis1914", "origins", "schonbrunn"])
async def test_a_whole_game_at_the_largest_table_reads_well_in_the_channel(env, store, service, clock, game_id):
    game = games.get(game_id)
    guild = env.create_guild()
    channel = guild.create_text_channel(game_id)
    players = [guild.add_member(env.create_user(NAMES[i])) for i in range(game.max_players)]
    await players[0].slash(channel, "game new", game=game_id)
    for player in players[1:]:
        await player.slash(channel, "game join")
    started = await players[0].slash(channel, "game start")
    assert started.response.content.startswith("The game has started"), started.response.content
    users = {s.seat: s.user_id for s in (await service.table_info(channel.id)).seats}
    rng = random.Random(7)
    actions, calls, largest, phases = 0, 0, 0, set()
    restarted_at = None
    before_restart = ""

    while actions < MAX_ACTIONS and (row := await store.get_table(channel.id)).status == "running":
        state = game.load_state(row.state)
        status = _status_message(channel)
        card, summary = status_parts(status)
        size = (await service.posts.status_card(channel.id)).size()
        largest = max(largest, size)
        phases.add(str(getattr(state, "phase", None) or getattr(state, "stage", None)))
        assert size < LIMIT, f"step {state.step}: a card of {size} characters:\n{shown(status)}"
        assert MORE not in shown(status), f"step {state.step}: the card left something out:\n{shown(status)}"
        assert card.split("\n")[1].startswith("**Waiting for** "), card  # under the title: who, what, when
        assert f"/{game.group} " in card  # the full slash command
        assert len(summary) <= MESSAGE_LIMIT and len(shown(status)) <= TEXT_LIMIT

        if restarted_at is None and actions == 120:
            # a restart with a fresh service over the same database: nothing in memory survives
            before_restart, status_id = summary, status.id
            service = TableService(store, clock=clock, draw_pictures=False)
            await env.restart_bot(create_bot(BotConfig(), service))
            restarted_at = actions

        seat = game.prompts(state)[0].seat
        outbox = await service.act(channel.id, users[seat], game.bot_action(state, seat, rng))
        first = len(env.http_requests)
        with env.time_context():
            env.bot.delivery.seen(channel.id, users[seat])
            await env.bot.delivery.deliver(outbox, caller_id=users[seat])
        calls += len(env.http_requests) - first
        actions += 1
        if restarted_at == actions - 1:
            after = _status_message(channel)
            if after.id == status_id:  # the same summary goes on: what it said is still there
                assert status_parts(after)[1].startswith(before_restart), (before_restart, shown(after))
            else:  # the action began a new round: the old message is that round's summary now
                (old,) = [m for m in channel.history() if m.id == status_id]
                assert message_text(old).startswith(before_restart)
                assert old.embeds == [] and not old.attachments and status_parts(old)[0] == ""
    await env.advance_time(NOTICE_GRACE)

    assert (await store.get_table(channel.id)).status == "finished", f"unfinished after {actions} actions"
    final = _status_message(channel)  # after the end: the result, still within the card
    assert "**The game is over" in status_parts(final)[0]
    assert (await service.posts.status_card(channel.id)).size() < LIMIT and MORE not in shown(final)
    assert restarted_at is not None
    print(f"\n{game_id}, {len(players)} players: {actions} actions, {calls / actions:.2f} calls per action, "
          f"largest card {largest} characters, phases {sorted(phases)}")
    assert calls / actions <= BUDGET

    # every public event of the game, whole and in order, in the channel's messages
    history = channel.history()
    # a status message's summary is below its card; the others are text alone
    record = _plain("\n".join(status_parts(m)[1] for m in history))
    events = list(reversed(await store.get_events(channel.id, limit=100_000)))
    at = 0
    for e in events:
        found = record.find(_plain(e.text), at)
        assert found >= 0, f"not in the channel (after position {at}): {e.text!r}"
        at = found + len(_plain(e.text))
    assert all(len(status_parts(m)[1]) <= MESSAGE_LIMIT for m in history)
    # the summaries are one message per round (or more, when one fills), never one per action
    summaries = [
        m for m in history if status_parts(m)[1] and not message_text(m).startswith("**Final standings**")
    ]
    assert len(summaries) < actions / 4, (len(summaries), actions)

    # "Full status" gives anyone the whole text the card leaves out for room
    spectator = guild.add_member(env.create_user("spectator"))
    full = await spectator.click(_status_message(channel), label=FULL_LABEL)
    assert full.ephemeral and full.response.content.startswith(f"**{game.title}")
