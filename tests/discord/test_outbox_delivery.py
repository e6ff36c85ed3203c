"""Posts survive Discord failing (docs/reliability.md, "Every post an acknowledged action
asks for is delivered"): SimCord's HTTP layer answers runs of calls with server errors
(503) and rate limits (429, with Retry-After); a whole game played through them leaves the
channel, its threads and every DM exactly as the same game played without them, nothing
lost, nothing twice, in the same order, and nothing left waiting."""

from __future__ import annotations

import re

import discord
import pytest

from .reading import shown
from .test_discord_e2e import _started

pytestmark = pytest.mark.simcord

SEED = 5
RETRY_AFTER = 7  # seconds a rate limit asks for


class _Answer:
    """What discord.HTTPException reads of an HTTP response."""

    def __init__(self, status: int, headers: dict[str, str]) -> None:
        self.status = status
        self.reason = "Too Many Requests" if status == 429 else "Service Unavailable"
        self.headers = headers


def _failure(status: int) -> discord.HTTPException:
    if status == 429:
        answer = _Answer(429, {"Retry-After": str(RETRY_AFTER)})
        return discord.HTTPException(answer, {"message": "You are being rate limited.", "code": 0})  # type: ignore[arg-type]
    return discord.DiscordServerError(_Answer(503, {}), {"message": "Service Unavailable", "code": 0})  # type: ignore[arg-type]


# Which calls fail, in turn (0: it passes): short runs of failures, and a Discord that is
# mostly down (six calls of ten fail), where every retry fails again for a while.
SHORT_RUNS = (0, 0, 503, 503, 503, 429, 0, 0)
MOSTLY_DOWN = (0, 503, 503, 503, 503, 503, 429, 0, 0, 0)


class Outage:
    """Answers the calls that post, edit or open something with failures, in the turn of
    `pattern`, for ever."""

    def __init__(self, bot: discord.Client, pattern: tuple[int, ...]) -> None:
        self.calls = 0
        self.failed = 0
        inner = bot.http.request

        async def request(route, **kwargs):
            if route.method in ("POST", "PATCH", "DELETE") and "/channels/" in route.url:
                status = pattern[self.calls % len(pattern)]
                self.calls += 1
                if status:
                    self.failed += 1
                    raise _failure(status)
            return await inner(route, **kwargs)

        bot.http.request = request  # type: ignore[method-assign]


async def _play_whole_game(env, service, table, pause: float) -> None:
    """Three rounds of Envoys, every command in the table's channel (a round's thread may
    not be open yet while Discord fails), a player coming back every `pause` seconds."""
    info = await service.table_info(table.channel.id)
    by_seat = {s.seat: s.name for s in info.seats}
    seats = sorted(by_seat)
    for round_no in range(1, 4):
        moves = [(seat, "envoys commit", {"value": 1 + i}) for i, seat in enumerate(seats)]
        moves.append((seats[(round_no - 1) % len(seats)], "envoys press", {}))
        moves += [(seat, "envoys ready", {}) for seat in seats]
        for seat, command, options in moves:
            await env.advance_time(pause)
            result = await table[by_seat[seat]].slash(table.channel, command, **options)
            assert result.response.content.startswith("Done"), result.response.content
    assert (await service.table_info(table.channel.id)).status == "finished"


def _readable(texts: list[str]) -> list[str]:
    """Texts with what differs between two tables (ids, mentions, times) taken out."""
    out = []
    for text in texts:
        text = re.sub(r"<[@#]!?\d+>|<t:\d+(:\w)?>|\d{15,}", "<ref>", text)
        out.append(text)
    return out


def _transcript(table) -> dict[str, list[str]]:
    said = {"channel": _readable([shown(m) for m in table.channel.history()])}
    for n, thread in enumerate(table.channel.threads):
        said[f"thread {n}"] = _readable([shown(m) for m in thread.history()])
    for name, member in table.players.items():
        dm = member.user.dm_channel
        said[f"dm {name}"] = _readable([m.content for m in dm.history()]) if dm is not None else []
    return said


@pytest.mark.parametrize("pattern", [SHORT_RUNS, MOSTLY_DOWN], ids=["short runs", "mostly down"])
async def test_a_game_played_through_server_errors_and_rate_limits_says_everything_once_in_order(
    env, service, pattern
):
    service.lobby.seed_source = lambda: SEED
    calm = await _started(env, service, "alice", "bob")
    await _play_whole_game(env, service, calm, pause=20)
    await env.advance_time(3600)

    stormy = await _started(env, service, "alice", "bob")
    outage = Outage(env.bot, pattern)
    await _play_whole_game(env, service, stormy, pause=20)
    await env.advance_time(6 * 3600)  # every wait is over

    assert outage.failed >= 6  # the outage was real: 503s and 429s, retries failing again
    assert _transcript(stormy) == _transcript(calm)
    count, _, _, _ = await service.store.outbox_waiting()
    assert count == 0
    assert await service.store.turn_notices() == []
