"""Issue 18 at service level: decisions with no real choice are taken at once."""

from __future__ import annotations

import tests.tinygame
from engine.core import Forced
from tests.tinygame import Yield

from .conftest import ALICE, BOB, CHANNEL, seated


def _no_choice_in_the_press(monkeypatch):
    """The round's first seat may only yield in this variant (a forced decision)."""

    def forced(state, seat):
        return (
            Forced(Yield(), "Envoy must yield: there is nothing to press.")
            if state.phase == "press"
            else None
        )

    monkeypatch.setattr(tests.tinygame.GAME, "forced_action", forced)


async def test_a_decision_with_no_real_choice_is_taken_at_once_and_said_once(service, monkeypatch):
    _no_choice_in_the_press(monkeypatch)
    await seated(service, "alice", "bob")
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    said = [p.text for p in out.posts if p.to == "channel" and "must yield" in p.text]
    assert said == ["Envoy must yield: there is nothing to press."]
    # nobody was told it was their turn to press: the diplomacy notices only
    assert not [p for p in out.posts if p.kind == "prompt" and "Press" in p.text]
    actions = await service.store.get_actions(CHANNEL)
    assert actions[-1].action == '{"kind":"yield"}' and actions[-1].user_id is None
    status = await service.status(CHANNEL)
    assert "ready" in status.lower() or "diplomacy" in status.lower()


async def test_without_the_hook_the_player_is_asked(service):
    await seated(service, "alice", "bob")
    await service.act(CHANNEL, ALICE, {"kind": "commit", "value": 1})
    out = await service.act(CHANNEL, BOB, {"kind": "commit", "value": 2})
    assert [p for p in out.posts if p.kind == "prompt" and "Press" in p.text]
    assert (await service.store.get_actions(CHANNEL))[-1].action == '{"kind":"commit","value":2}'
