"""Whether an automatic player's choice rests on chance (the pacing model's
players: docs/pacing.md). A player answers a decision ahead only with a choice no draw of
its own dice could change, so that answering ahead never changes what it chooses."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


class _Path(random.Random):
    """A generator whose `random()` follows a path of outcomes: each call is below every
    threshold (0.0) or above it (0.999); past the path's end, above it."""

    def __init__(self, path: list[bool]) -> None:
        super().__init__(0)
        self.path, self.calls = path, 0

    def random(self) -> float:
        low = self.path[self.calls] if self.calls < len(self.path) else False
        self.calls += 1
        return 0.0 if low else 0.999


def certain(choose: Callable[[random.Random], Any]) -> Any | None:
    """`choose`'s result if it is the same however each of its `random()` draws falls (every
    path of outcomes is tried), else None. For choosers that draw only by `random() < x`
    (or `>`) and use further draws only to break ties."""
    results: list[Any] = []
    paths: list[list[bool]] = [[]]
    while paths:
        path = paths.pop()
        rng = _Path(path)
        results.append(choose(rng))
        if any(r != results[0] for r in results):
            return None
        for k in range(len(path), rng.calls):  # branch on each draw the path did not fix
            paths.append([*path, *[False] * (k - len(path)), True])
    return results[0]
