"""Seeded shuffles: every random choice of an engine comes from here.

Each shuffle gets its own `random.Random` built from the game's seed and a
salt naming what is shuffled (the round, the deal), so a round can be
reshuffled after `load(dump(state))` without carrying generator state, and no
engine touches the module-level random state.
"""

import random
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def shuffled(cards: Iterable[T], seed: int, *salt: object) -> list[T]:
    """Return a new list with `cards` in the order fixed by (seed, salt)."""
    deck = list(cards)
    random.Random(f"{seed}:{':'.join(map(str, salt))}").shuffle(deck)
    return deck
