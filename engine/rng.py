"""Reproducible shuffles.

Only ``random.Random(seed).random()`` is promised to give the same stream across Python
versions (``shuffle`` and ``randrange`` are not), so the shuffle is our own Fisher-Yates on
top of it. Each shuffle of a game gets its own generator seeded from the game seed and a
counter, which keeps the state small and JSON-friendly (no Mersenne Twister state to store).
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def stream(seed: int, purpose: str) -> random.Random:
    # String seeds are hashed with SHA-512 by CPython (version 2 seeding): stable.
    return random.Random(f"{seed}/{purpose}")


def shuffle(items: list[T], seed: int, purpose: str) -> None:
    """Shuffle ``items`` in place, reproducibly for this (seed, purpose)."""
    rnd = stream(seed, purpose).random
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


def pick(n: int, seed: int, purpose: str) -> int:
    """A reproducible integer in ``range(n)``."""
    return min(int(stream(seed, purpose).random() * n), n - 1)
