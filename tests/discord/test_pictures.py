"""Board pictures in Discord: the status message of a running game carries the
board as an image attachment with a description, at every phase of each real game, in
the same edit as the status text; a picture is drawn once per state."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.discord import create_bot
from bot.discord.private import NOTICE_GRACE
from bot.discord.views import CUSTOM_ID
from engine import games

from .conftest import BotConfig

pytestmark = pytest.mark.simcord

MAX_ACTIONS = 400


def _status_message(channel):
    wanted = CUSTOM_ID.format(channel_id=channel.id)
    found = [
        m
        for m in channel.history()
        if any(getattr(c, "custom_id", None) == wanted for row in m.components for c in getattr(row, "children", []))
    ]
    assert len(found) == 1, f"expected one status message, found {len(found)}"
    return found[0]


def _phase(state) -> str:
    return str(getattr(state, "phase", None) or getattr(state, "stage", None))


@pytest.fixture
def simcord_bot(service):
    return create_bot(BotConfig(), service)


@pytest.mark.parametrize("game_id", ["origins", "crisis1914", "schonbrunn"])
async def test_the_status_message_carries_the_board_at_every_phase(env, store, service, game_id):
    game = games.get(game_id)
    guild = env.create_guild()
    channel = guild.create_text_channel(game_id)
    players = [guild.add_member(env.create_user(f"p{i}")) for i in range(max(game.min_players, 2))]
    await players[0].slash(channel, "game new", game=game_id)
    for player in players[1:]:
        await player.slash(channel, "game join")
    with env.time_context():
        await env.bot.delivery.deliver(await service.lobby.start(channel.id, players[0].id, seed=7))
    users = {s.seat: s.user_id for s in (await service.table_info(channel.id)).seats}
    rng = random.Random(7)
    phases: set[str] = set()
    actions = 0
    while actions < MAX_ACTIONS and (row := await store.get_table(channel.id)).status == "running":
        state = game.load_state(row.state)
        status = _status_message(channel)
        assert len(status.attachments) == 1, f"step {state.step}: {len(status.attachments)} attachments"
        picture = status.attachments[0]
        assert picture.filename.endswith(".png") and picture.description, picture
        phases.add(_phase(state))
        seat = game.prompts(state)[0].seat
        calls = len(env.http_requests)
        outbox = await service.act(channel.id, users[seat], game.bot_action(state, seat, rng))
        with env.time_context():
            env.bot.delivery.seen(channel.id, users[seat])
            await env.bot.delivery.deliver(outbox, caller_id=users[seat])
        edits = [c for c in env.http_requests[calls:] if c.method == "PATCH" and "/messages/" in c.path]
        assert len(edits) <= 1  # the picture rides in the status edit, never a call of its own
        actions += 1
    assert actions > 0
    # the attachment is the public board of the latest state, as `python -m bot render` draws it
    row = await store.get_table(channel.id)
    expected = await service.picture(channel.id)
    shown = _status_message(channel).attachments[0]
    assert shown.description == expected.description
    assert Image.open(io.BytesIO(expected.png)).format == "PNG"
    assert len(phases) >= 2, phases  # the game went through its phases, a picture at each
    assert row.status == "finished"


async def test_a_state_is_drawn_once(env, store, service):
    guild = env.create_guild()
    channel = guild.create_text_channel("origins")
    players = [guild.add_member(env.create_user(f"p{i}")) for i in range(2)]
    await players[0].slash(channel, "game new", game="origins")
    await players[1].slash(channel, "game join")
    with env.time_context():
        await env.bot.delivery.deliver(await service.lobby.start(channel.id, players[0].id, seed=7))
    drawn = service.pictures.drawn
    first = await service.picture(channel.id)
    await players[0].slash(channel, "game status")
    again = await service.picture(channel.id)
    assert again is first and service.pictures.drawn == drawn


async def test_game_me_carries_the_players_own_picture_beside_the_text(env, store, service):
    guild = env.create_guild()
    channel = guild.create_text_channel("crisis")
    players = [guild.add_member(env.create_user(f"p{i}")) for i in range(2)]
    stranger = guild.add_member(env.create_user("stranger"))
    await players[0].slash(channel, "game new", game="crisis1914")
    await players[1].slash(channel, "game join")
    with env.time_context():
        await env.bot.delivery.deliver(await service.lobby.start(channel.id, players[0].id, seed=7))
    game = games.get("crisis1914")
    state = game.load_state((await store.get_table(channel.id)).state)
    seats = {s.user_id: s.seat for s in (await service.table_info(channel.id)).seats}
    for player in players:
        result = await player.slash(channel, "game me")
        assert result.ephemeral and "Your Hand" in result.response.content
        (attached,) = result.response.attachments
        assert attached.filename == "hand.png" and attached.description.startswith("Your cards as")
        own = game.view(state, seats[player.id])
        hand = [c.name for c in own.you.hand]
        assert all(name in attached.description for name in hand)
    # a member without a seat gets the refusal and no picture
    refused = await stranger.slash(channel, "game me")
    assert refused.ephemeral and not refused.response.attachments


async def test_the_final_standings_carry_the_final_board_and_the_score_chart(env, store, service):
    game = games.get("crisis1914")
    guild = env.create_guild()
    channel = guild.create_text_channel("crisis")
    players = [guild.add_member(env.create_user(f"p{i}")) for i in range(2)]
    await players[0].slash(channel, "game new", game="crisis1914")
    await players[1].slash(channel, "game join")
    with env.time_context():
        await env.bot.delivery.deliver(await service.lobby.start(channel.id, players[0].id, seed=7))
    users = {s.seat: s.user_id for s in (await service.table_info(channel.id)).seats}
    rng = random.Random(7)
    while (row := await store.get_table(channel.id)).status == "running":
        state = game.load_state(row.state)
        seat = game.prompts(state)[0].seat
        outbox = await service.act(channel.id, users[seat], game.bot_action(state, seat, rng))
        with env.time_context():
            await env.bot.delivery.deliver(outbox, caller_id=users[seat])
    (standings,) = [m for m in channel.history() if "Final standings" in m.content]
    assert [a.filename for a in standings.attachments] == ["crisis1914.png", "scores.png"]
    final_board, chart = standings.attachments
    state = game.load_state(row.state)
    prestige = {nation: p.prestige for nation, p in state.players.items()}
    # the chart ends at every nation's final Prestige, and says so in its alt text
    assert all(f"{nation} {value}" in chart.description for nation, value in prestige.items())
    assert final_board.description.startswith("Crisis: 1914 board, Week")


async def test_a_turn_notice_by_dm_carries_the_players_own_picture(env, store, service):
    guild = env.create_guild()
    channel = guild.create_text_channel("schonbrunn")
    players = [guild.add_member(env.create_user(f"p{i}")) for i in range(3)]
    await players[0].slash(channel, "game new", game="schonbrunn")
    for player in players[1:]:
        await player.slash(channel, "game join")
    await players[0].slash(channel, "game start")
    await env.advance_time(NOTICE_GRACE + 1)  # nobody came back: the notices go by DM
    dms = [m for p in players if p.user.dm_channel is not None for m in p.user.dm_channel.history()]
    with_pictures = [m for m in dms if m.attachments]
    assert with_pictures, [m.content for m in dms]
    for message in with_pictures:
        (attached,) = message.attachments
        assert attached.filename == "screen.png" and "behind your screen" in attached.description
