"""Nothing happens silently. Every signed Treaty leaves a public line when
its fate is settled: in Congress it is activated or 'does not activate' (also when its
owner is skipped for lack of a choice), and at Recovery it is kept or discarded."""

from __future__ import annotations

import pytest

from engine.core import rng_for
from engine.schonbrunn import GAME
from engine.schonbrunn.content import card


@pytest.mark.parametrize("seed", range(6))
def test_every_signed_treaty_is_accounted_for_in_public(seed):
    seats = ["a", "b", "c", "d"]
    state = GAME.setup(seats, GAME.Options(), seed)
    congress_seen = recovery_seen = 0
    while GAME.outcome(state) is None:
        seat = GAME.prompts(state)[0].seat
        stage = state.stage
        queued = list(state.treaty_queue)
        signed = {s: list(state.players[s].signed) for s in seats}
        state, events = GAME.apply(state, seat, GAME.bot_action(state, seat, rng_for(seed, state.step, "t")))
        public = " ".join(e.text for e in events if e.audience is None)
        settled = [t for t in queued if t not in state.treaty_queue]  # Congress: left the queue
        for t in settled:
            congress_seen += 1
            name = card(t).name
            assert f"activates {name}" in public or f"does not activate {name}." in public, (name, public)
        if stage == "keep" or state.stage != stage and "keep" in (stage, state.stage):
            for s, treaties in signed.items():
                for t in treaties:
                    if t not in state.players[s].signed:  # settled by this step
                        recovery_seen += 1
                        name = card(t).name
                        assert f"keeps {name}" in public or (name in public and "discards" in public), (
                            name,
                            public,
                        )
    assert congress_seen + recovery_seen > 0, "this seed signs no Treaty: pick another"
