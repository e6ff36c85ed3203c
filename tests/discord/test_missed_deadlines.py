"""Missed deadlines through SimCord: a missed deadline costs that decision only and never
throws away what was written. The table's default `on_expiry` ("default") applies."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.discord import create_bot
from bot.service import tables
from engine.crisis1914 import GAME as CRISIS
from engine.origins import GAME as ORIGINS

from .conftest import BotConfig
from .test_crisis_e2e import CrisisTable
from .test_origins_e2e import OriginsTable

pytestmark = pytest.mark.simcord

SEED = 1914
DAY = 24 * 3600.0


@pytest.fixture
def simcord_bot(service):
    """The bot over the real game registry (conftest's default narrows it to the test game)."""
    return create_bot(BotConfig(), service)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "secrets", SimpleNamespace(randbits=lambda bits: SEED))


def _status_and_notices(table) -> str:
    return "\n".join(m.content for m in table.channel.history())


async def test_a_missed_origins_deadline_hands_in_the_written_sheet(env, store):
    table = OriginsTable(env, store, players=3)
    await table.start(SEED)
    for _ in range(60):  # everyone passes in the bidding; the last pass opens Phase 4
        state = await table.state()
        if state.phase != "bidding":
            break
        await table.order(ORIGINS.prompts(state)[0].seat, "pass")
    state = await table.state()
    assert state.phase == "placement"
    seat = ORIGINS.prompts(state)[0].seat
    country = state.countries_of(seat)[0]
    await table.order(seat, "sheet", line="FE 1", country=country)  # written, never handed in
    assert seat not in state.submitted

    await env.advance_time(DAY + 60)  # nobody hands in: the deadline passes

    after = await table.state()
    assert after.phase != "placement", after.phase
    last_sheets = ORIGINS.view(after, None).last_sheets
    assert last_sheets is not None and last_sheets[country] == "FE 1"  # not an empty sheet
    said = _status_and_notices(table)
    assert "Time is up. Played for those who still owed" in said and "the sheets as written" in said


async def _at_a_play_step_turn(env, store):
    """A started Crisis table at its first Play Step turn that a member owes, and its state."""
    table = CrisisTable(env, store)
    await table.start(SEED)
    for _ in range(200):
        state = await table.state()
        if state.phase == "play" and not state.pending:
            return table, state
        await env.bot.service.auto(table.channel.id)
    raise AssertionError("no Play Step turn in 200 steps")


async def test_a_missed_crisis_turn_does_not_pass_the_week(env, store):
    table, state = await _at_a_play_step_turn(env, store)
    seat = CRISIS.prompts(state)[0].seat
    week = state.week
    assert not state.player_of(seat).passed

    await env.advance_time(DAY + 60)  # the member never takes the turn

    after = await table.state()
    assert after.step > state.step  # the deadline played the turn
    assert after.week == week
    assert not after.player_of(seat).passed, "a missed turn passed the player for the whole Week"
    said = _status_and_notices(table)
    assert "Time is up. Played for those who still owed" in said
    assert "(a Draw" in said or "(the automatic player's choice" in said


async def test_a_missed_crisis_turn_is_played_to_its_end_at_one_deadline(env, store):
    """A missed turn costs one deadline: the Draw's revealed card is placed (and any discard
    it asks for made) at once, in one public line, instead of each waiting a day."""
    table, state = await _at_a_play_step_turn(env, store)
    prompt = CRISIS.prompts(state)[0]
    assert prompt.kind == "turn"

    await env.advance_time(DAY + 60)  # one deadline passes; the member never comes

    after = await table.state()
    owed = [p for p in CRISIS.prompts(after) if p.seat == prompt.seat and p.turn == prompt.turn]
    assert owed == [], f"the missed turn still waits for {owed[0].kind if owed else ''}"
    said = _status_and_notices(table)
    line = next(x for x in said.splitlines() if "Time is up. Played for those who still owed" in x)
    assert "a Draw, then" in line or "automatic player's choice" in line, line
    assert said.count("Time is up.") == 1


async def test_game_rules_lists_each_games_default_actions(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("rules")
    anna = guild.add_member(env.create_user("anna"))
    expected = {
        "crisis1914": "a missed turn is a Draw",
        "origins": "the sheets are handed in as written",
        "schonbrunn": "is made by the automatic player",
    }
    for game, words in expected.items():
        answer = await anna.slash(channel, "game rules", game=game)
        text = "\n".join(m.content for m in [answer.response, *answer.followups])
        assert "A missed deadline costs that decision only" in text and words in text, text
