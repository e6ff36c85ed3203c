"""The table directory (`/community tables`) names a member with a hostile nickname escaped:
no live mention, formatting or masked link (`bot.render.escape`)."""

from __future__ import annotations

from bot.discord.markup import markup
from bot.render import escape
from bot.service.audience import EVERY_CHANNEL

from .conftest import GUILD, finish

HOSTILE = "<@123> **bold** ||spoiler|| [x](https://evil.example) @everyone"
ALICE, BOB = 7_000_000_001, 7_000_000_002
LOBBY, RUNNING = 401, 402


async def test_the_directory_names_a_hostile_player_escaped(service):
    await service.lobby.create(RUNNING, GUILD, "envoys", BOB, HOSTILE)  # they owe the first move
    await service.lobby.join(RUNNING, ALICE, "alice")
    await service.lobby.start(RUNNING, BOB, seed=5)
    await service.lobby.create(LOBBY, GUILD, "envoys", BOB, HOSTILE)
    directory = markup(await service.community.directory(EVERY_CHANNEL, GUILD))
    assert f"<#{RUNNING}>" in directory and f"<#{LOBBY}>" in directory
    assert escape(HOSTILE) in directory
    for live in ("<@123>", "@everyone", "**bold**", "||spoiler||", "[x]("):
        assert live not in directory, live


async def test_the_history_a_game_by_number_the_leaderboard_and_a_profile_name_a_hostile_player_escaped(service):
    await finish(service, RUNNING, {BOB: HOSTILE, ALICE: "alice"})
    c = service.community
    (text, record) = await c.finished(EVERY_CHANNEL, GUILD, 1)
    answers = [
        markup(await c.history(EVERY_CHANNEL, GUILD)),
        markup(text),
        markup(await c.leaderboard(EVERY_CHANNEL, GUILD, "envoys")),
        markup(await c.profile(EVERY_CHANNEL, GUILD, BOB, HOSTILE)),
    ]
    for answer in answers:
        assert escape(HOSTILE) in answer, answer
        for live in ("<@123>", "@everyone", "**bold**", "||spoiler||", "[x]("):
            assert live not in answer, (live, answer)
    assert {s["player"] for s in record["seats"]} == {HOSTILE, "alice"}  # the record is data: as typed
