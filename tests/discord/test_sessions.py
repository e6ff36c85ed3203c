"""Live sessions end to end with SimCord: a live session becomes Discord scheduled events."""

from __future__ import annotations

import pytest

from tests.service.test_pacing_service import _standing_yield

from .test_discord_e2e import _started

pytestmark = pytest.mark.simcord


async def test_a_scheduled_session_creates_discord_scheduled_events(env, service):
    table = await _started(env, service, "alice", "bob")
    result = await table["alice"].slash(
        table.channel, "game session", day="Monday", time="19:00", hours=2.0, timezone="Europe/Vienna"
    )
    assert result.ephemeral, result.response.content
    assert "Live session added: Mondays at 19:00 (Europe/Vienna) for 2 h" in result.response.content
    assert "4 scheduled events created" in result.response.content
    events = sorted(env.backend.get_guild(table.guild.id).scheduled_events.values(), key=lambda e: e.id)
    assert len(events) == 4
    assert {e.name for e in events} == {"Envoys (test game) session"}
    refused = await table["bob"].slash(table.channel, "game session", day="Tuesday", time="19:00")
    assert "Only the host" in refused.response.content
    assert len(env.backend.get_guild(table.guild.id).scheduled_events) == 4


async def test_standing_orders_from_discord_are_private(env, service, monkeypatch):
    _standing_yield(monkeypatch)
    table = await _started(env, service, "alice", "bob")
    result = await table["alice"].slash(table.channel, "game standing", order="yield")
    assert result.ephemeral and "Standing order noted (only you see it)" in result.response.content
    await table["alice"].slash(table.channel, "envoys commit", value=1)
    await table["bob"].slash(table.channel, "envoys commit", value=2)
    actions = await service.store.get_actions(table.channel.id)
    assert actions[-1].action == '{"kind":"yield"}'  # applied the moment the press came
    assert "standing order" not in table.public_text().lower()


async def test_the_host_chooses_that_single_player_steps_wait_for_the_next_session(env, service):
    table = await _started(env, service, "alice", "bob")
    changed = await table["alice"].slash(table.channel, "game settings", key="between_sessions", value="wait")
    assert changed.ephemeral and "between_sessions: wait" in changed.response.content
    added = await table["alice"].slash(
        table.channel, "game session", day="Saturday", time="18:00", hours=2.0, timezone="UTC"
    )
    assert "such a step waits for the next session (setting between_sessions: wait)" in added.response.content
    refused = await table["bob"].slash(table.channel, "game settings", key="between_sessions", value="continue")
    assert "between_sessions: wait" not in refused.response.content  # only the host changes it
    info = await service.table_info(table.channel.id)
    assert info is not None
    t = await service.load(table.channel.id)
    assert t.settings.between_sessions == "wait"
