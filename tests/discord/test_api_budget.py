"""Discord API calls per player action over a whole game (docs/rulings.md, Discord adapter 1).

Every REST call SimCord records is counted. The one answer each slash command must get
(`/interactions/.../callback`, or a deferral and its follow-up) is the player's request
being answered and is reported separately; the budget of 1.5 is on what the bot adds per
action: the status edit, DMs, threads and standings (see docs/rulings.md, Discord adapter).
"""

from __future__ import annotations

import random

import pytest

from bot.discord import create_bot
from bot.discord.private import NOTICE_GRACE
from engine import games

from .conftest import BotConfig
from .test_discord_e2e import _started

pytestmark = pytest.mark.simcord

BUDGET = 1.5
SLOW_CEILING = 3.0
MAX_ACTIONS = 400  # a whole game of each real game takes fewer; a cap, not a target


def _is_answer(path: str) -> bool:
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


async def _play_whole_game(env, service, table, *, pause: float = 0.0) -> int:
    """Three rounds of Envoys by slash commands; returns the number of player actions.

    `pause` is how long each player takes to come back and act (virtual seconds)."""
    info = await service.table_info(table.channel.id)
    by_seat = {s.seat: s.name for s in info.seats}
    seats = sorted(by_seat)
    actions = 0
    for round_no in range(1, 4):
        for i, seat in enumerate(seats):
            await env.advance_time(pause)
            result = await table[by_seat[seat]].slash(table.channel, "envoys commit", value=1 + i)
            assert result.response.content.startswith("Done"), result.response.content
            actions += 1
        first = seats[(round_no - 1) % len(seats)]
        await env.advance_time(pause)
        result = await table[by_seat[first]].slash(table.channel, "envoys press")
        assert result.response.content.startswith("Done"), result.response.content
        actions += 1
        for seat in seats:
            thread = table.channel.threads[-1]
            await env.advance_time(pause)
            result = await table[by_seat[seat]].slash(thread, "envoys ready")
            assert result.response.content.startswith("Done"), result.response.content
            actions += 1
    assert (await service.table_info(table.channel.id)).status == "finished"
    return actions


async def test_discord_calls_per_player_action_stay_within_budget(env, service, capsys):
    table = await _started(env, service, "alice", "bob", "carol")
    first_call = len(env.http_requests)

    actions = await _play_whole_game(env, service, table)
    await env.advance_time(NOTICE_GRACE)  # any turn notice still waiting is sent and counted

    calls = env.http_requests[first_call:]
    answers = [c for c in calls if _is_answer(c.path)]
    added = [c for c in calls if not _is_answer(c.path)]
    assert len(answers) == actions  # one answer per action: no deferral on the fast path
    assert any("Final standings" in m.content or "rank" in m.content.lower() for m in table.channel.history())
    per_action = len(added) / actions
    with capsys.disabled():
        kinds: dict[str, int] = {}
        for c in added:
            key = f"{c.method} {c.path.split('/')[1]}/{'…/' + c.path.split('/')[-1] if c.path.count('/') > 2 else ''}"
            kinds[key] = kinds.get(key, 0) + 1
        print(
            f"\n{actions} actions: {len(calls)} calls in all ({len(calls) / actions:.2f} per action), "
            f"{len(added)} beyond the answers ({per_action:.2f} per action): {kinds}"
        )
    assert per_action <= BUDGET


async def test_discord_calls_per_player_action_when_every_turn_notice_is_sent(env, service, capsys):
    """Players who come back only after their DM: every turn notice is sent."""
    table = await _started(env, service, "alice", "bob", "carol")
    first_call = len(env.http_requests)

    actions = await _play_whole_game(env, service, table, pause=NOTICE_GRACE)

    calls = env.http_requests[first_call:]
    added = [c for c in calls if not _is_answer(c.path)]
    with capsys.disabled():
        print(
            f"\n{actions} slow actions: {len(calls)} calls in all ({len(calls) / actions:.2f} per action), "
            f"{len(added)} beyond the answers ({len(added) / actions:.2f} per action)"
        )
    for name in ("alice", "bob", "carol"):
        # every round brought each player a turn notice
        dm = table[name].user.dm_channel.id
        notices = [c for c in calls if c.method == "POST" and c.path == f"/channels/{dm}/messages"]
        assert len(notices) >= 3, name
        assert table.dms(name) == []  # each went once its decision was taken: nothing asks now
    # Above the 1.5 target: this game prompts everyone three times a round, and each notice
    # is two calls, its DM and its removal once answered (so the DMs hold only what is still
    # asked). A ceiling against regressions (measured 2.95; 2.29 when answered notices
    # stayed), not the target.
    assert len(added) / actions <= SLOW_CEILING


class TestRealGames:
    """Whole games of every registered game, played by its own automatic players.

    Engine actions cannot be typed as slash options generically, so each action goes to
    the service as Discord's command handler would send it and its outbox is delivered
    the same way; the answer to the player is the part not made here, and not counted.
    """

    @pytest.fixture
    def simcord_bot(self, service):
        return create_bot(BotConfig(), service)

    @pytest.mark.parametrize("prompt", [True, False], ids=["players-at-the-table", "players-away"])
    @pytest.mark.parametrize("game_id", games.ids())
    async def test_calls_per_action_in_a_whole_game(self, env, store, service, game_id, prompt, capsys):
        game = games.get(game_id)
        guild = env.create_guild()
        channel = guild.create_text_channel(game_id)
        players = [guild.add_member(env.create_user(f"p{i}")) for i in range(game.min_players)]
        await players[0].slash(channel, "game new", game=game_id)
        for player in players[1:]:
            await player.slash(channel, "game join")
        with env.time_context():
            await env.bot.delivery.deliver(await service.lobby.start(channel.id, players[0].id, seed=7))
        users = {s.seat: s.user_id for s in (await service.table_info(channel.id)).seats}
        first_call, actions, rng = len(env.http_requests), 0, random.Random(7)

        while actions < MAX_ACTIONS and (row := await store.get_table(channel.id)).status == "running":
            if not prompt:
                await env.advance_time(NOTICE_GRACE)  # every turn notice goes out by DM
            state = game.load_state(row.state)
            seat = game.prompts(state)[0].seat
            outbox = await service.act(channel.id, users[seat], game.bot_action(state, seat, rng))
            with env.time_context():
                if prompt:
                    env.bot.delivery.seen(channel.id, users[seat])
                await env.bot.delivery.deliver(outbox, caller_id=users[seat])
            actions += 1
        await env.advance_time(NOTICE_GRACE)

        calls = len(env.http_requests) - first_call
        with capsys.disabled():
            print(
                f"\n{game_id}, {len(players)} players: {actions} actions, {calls / actions:.2f} calls per action"
            )
        assert actions > 0
        assert calls / actions <= BUDGET
