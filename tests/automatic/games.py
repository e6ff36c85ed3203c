"""Test games whose search misbehaves in the worker process, importable there by name:
one whose worker dies mid-decision, one that thinks past any small budget. Their basic
player is the tiny game's (tests/tinygame.py)."""

from __future__ import annotations

import os
import random
import time

from engine.core.search import Knowledge
from tests.test_search import EnvoysKnowledge, SearchingEnvoys
from tests.tinygame import EnvoyState


class _Dies(EnvoysKnowledge):
    def determinize(self, state: EnvoyState, seat: str, rng: random.Random) -> EnvoyState:
        os._exit(3)  # the worker process ends as a crash would end it


class DyingEnvoys(SearchingEnvoys):
    id = "dying"

    def knowledge(self) -> Knowledge[EnvoyState]:
        return _Dies(self)


class _Slow(EnvoysKnowledge):
    def determinize(self, state: EnvoyState, seat: str, rng: random.Random) -> EnvoyState:
        time.sleep(0.05)
        return super().determinize(state, seat, rng)


class SlowEnvoys(SearchingEnvoys):
    id = "slow"

    def knowledge(self) -> Knowledge[EnvoyState]:
        return _Slow(self)
