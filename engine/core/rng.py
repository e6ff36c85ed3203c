"""Randomness from the table seed and the action index only.

Replaying the action log against the same seed reproduces every shuffle and die roll,
and anyone holding the revealed seed can check them (see `seed_commitment`).
"""

from __future__ import annotations

import hashlib
import random

__all__ = ["rng_for", "seed_for", "seed_commitment", "roll"]


def seed_for(seed: int, index: int | str, salt: str = "") -> int:
    """The integer seed of action number `index` of a table seeded with `seed` (a tool
    drawing outside any table's actions names its own stream instead, e.g. "pacing")."""
    digest = hashlib.sha256(f"{seed}:{index}:{salt}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def rng_for(seed: int, index: int | str, salt: str = "") -> random.Random:
    """A fresh generator for action number `index` of a table seeded with `seed`."""
    return random.Random(seed_for(seed, index, salt))


def seed_commitment(seed: int) -> str:
    """The hash posted at game start; the seed itself is revealed at the end."""
    return hashlib.sha256(f"chancellery-seed:{seed}".encode()).hexdigest()


def roll(rng: random.Random, dice: int = 1, sides: int = 6) -> list[int]:
    return [rng.randint(1, sides) for _ in range(dice)]
