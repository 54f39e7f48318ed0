"""Conquian cards and melds as bit masks: validation, enumeration and layout.

A card is one bit of an int: bit `suit * 11 + rank`, with ranks A 2 3 4 5 6 7 J Q K
as 0-9 and suits S H D C as 0-3. Bit 10 of each suit stays empty, so a shift by one
never carries a card into the next suit: runs of a suit are runs of set bits. A set of
cards is the OR of its bits, and the engine's sort order (suit by suit, ace low) is the
bit order.

A set of cards "can be melded" when it splits into valid melds (groups of 3-4 cards of
one rank, sequences of 3-8 cards of one suit). Because a player may rearrange their own
melds whenever they meld, only the set matters for the rules; the layout shown at the
table is `arrange(mask)`, one fixed split of the set.
"""

from functools import lru_cache
from itertools import combinations

RANK_CHARS = "A234567JQK"
SUIT_CHARS = "SHDC"
SUIT_STRIDE = 11
SUIT_BITS = (1 << len(RANK_CHARS)) - 1
# One bit per suit at rank 0: multiplying a rank mask by it copies it into every suit.
EVERY_SUIT = sum(1 << (suit * SUIT_STRIDE) for suit in range(len(SUIT_CHARS)))

CODES = tuple(rank + suit for suit in SUIT_CHARS for rank in RANK_CHARS)  # sort order
BIT_OF = {
    rank + suit: 1 << (s * SUIT_STRIDE + r)
    for s, suit in enumerate(SUIT_CHARS)
    for r, rank in enumerate(RANK_CHARS)
}
CODE_OF = {bit: code for code, bit in BIT_OF.items()}
ALL_CARDS = sum(BIT_OF.values())


def _run_bits(suit: int, start: int, length: int) -> int:
    return ((1 << length) - 1) << (suit * SUIT_STRIDE + start)


def _all_melds(wrap: bool = False) -> list[int]:
    """Every valid meld; with `wrap`, also the sequences through K-A that the rules forbid."""
    melds = []
    for rank in range(len(RANK_CHARS)):
        same_rank = [1 << (suit * SUIT_STRIDE + rank) for suit in range(len(SUIT_CHARS))]
        for size in (3, 4):
            melds += [sum(cards) for cards in combinations(same_rank, size)]
    for suit in range(len(SUIT_CHARS)):
        for length in range(3, 9):
            for start in range(len(RANK_CHARS) - length + 1):
                melds.append(_run_bits(suit, start, length))
            if wrap:
                for start in range(len(RANK_CHARS) - length + 1, len(RANK_CHARS)):
                    ranks = [(start + i) % len(RANK_CHARS) for i in range(length)]
                    melds.append(sum(1 << (suit * SUIT_STRIDE + r) for r in ranks))
    return melds


def _by_card(melds: list[int]) -> dict[int, tuple[int, ...]]:
    """The melds holding each card, keyed by its bit; longest first so layouts keep long melds."""
    table: dict[int, list[int]] = {bit: [] for bit in CODE_OF}
    for meld in melds:
        bits = meld
        while bits:
            low = bits & -bits
            table[low].append(meld)
            bits ^= low
    return {
        low: tuple(sorted(found, key=lambda m: (-m.bit_count(), m))) for low, found in table.items()
    }


MELDS = _all_melds()
MELDS_WITH = _by_card(MELDS)
_WRAP_MELDS = frozenset(_all_melds(wrap=True)) - frozenset(MELDS)
_MELDS_WITH_WRAP = _by_card(MELDS + sorted(_WRAP_MELDS))


def bits_of(mask: int) -> list[int]:
    """The card bits of `mask`, in sort order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def codes_of(mask: int) -> list[str]:
    return [CODE_OF[bit] for bit in bits_of(mask)]


def meldable_part(mask: int) -> int:
    """The cards of `mask` that belong to at least one meld made only of cards of `mask`."""
    starts = mask & (mask >> 1) & (mask >> 2)  # first cards of runs of three
    runs = starts | (starts << 1) | (starts << 2)
    s0 = mask & SUIT_BITS
    s1 = (mask >> SUIT_STRIDE) & SUIT_BITS
    s2 = (mask >> 2 * SUIT_STRIDE) & SUIT_BITS
    s3 = mask >> 3 * SUIT_STRIDE
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))  # ranks held in 3 or 4 suits
    return runs | (ranks * EVERY_SUIT & mask)


@lru_cache(maxsize=1 << 16)
def can_meld(mask: int) -> bool:
    """Whether the whole of `mask` splits into valid melds (the empty set does)."""
    if not mask:
        return True
    if meldable_part(mask) != mask:
        return False
    low = mask & -mask
    return any(m & mask == m and can_meld(mask ^ m) for m in MELDS_WITH[low])


def _split(mask: int, table: dict[int, tuple[int, ...]]) -> list[int] | None:
    if not mask:
        return []
    low = mask & -mask
    for meld in table[low]:
        if meld & mask == meld:
            rest = _split(mask ^ meld, table)
            if rest is not None:
                return [meld, *rest]
    return None


@lru_cache(maxsize=1 << 12)
def arrange(mask: int) -> tuple[int, ...]:
    """The layout shown for a player's melded cards: the first split found, long melds first."""
    return tuple(_split(mask, MELDS_WITH) or ())


def wrap_sequence(mask: int) -> str | None:
    """If `mask` splits into melds only when ranks wrap past K to A, name a wrapping run.

    Used for the error message "Q-K-A is not a sequence: the ace is low".
    """
    for meld in _split(mask, _MELDS_WITH_WRAP) or ():
        if meld in _WRAP_MELDS:
            ranks = [CODE_OF[bit][0] for bit in bits_of(meld)]  # A, 2, ..., Q, K order
            low_end = 1
            while RANK_CHARS.index(ranks[low_end]) == low_end:
                low_end += 1
            return "-".join(ranks[low_end:] + ranks[:low_end])  # Q-K-A, K-A-2, ...
    return None


def in_some_meld(card: int, pool: int) -> bool:
    """Whether some meld made of `pool` cards holds `card` (a quick first test)."""
    if (pool & _SAME_RANK[card]).bit_count() >= 3:
        return True
    for run in _RUNS_OF_THREE[card]:
        if pool & run == run:
            return True
    return False


_SAME_RANK = {  # the card's bit moved down to the first suit, then copied into every suit
    bit: (bit >> (bit.bit_length() - 1) // SUIT_STRIDE * SUIT_STRIDE) * EVERY_SUIT
    for bit in CODE_OF
}
_RUNS_OF_THREE = {
    bit: tuple(m for m in MELDS if m & bit and m.bit_count() == 3 and m & _SAME_RANK[bit] != m)
    for bit in CODE_OF
}


def open_meld_holds(card: int, melds: int, used: int) -> bool:
    """Whether the open `card` and the hand cards `used` can end in one meld.

    The rule: hand cards are melded only together with the open card, so every card of
    `used` must lie in the meld holding `card`; that meld may also take cards from the
    player's `melds`, whose other cards must still split into valid melds.
    """
    pool = melds | card | used
    need = card | used
    return any(
        meld & need == need and meld & pool == meld and can_meld(melds & ~meld)
        for meld in MELDS_WITH[card]
    )


def usable_sets(card: int, melds: int, hand: int) -> list[int]:
    """Every set of hand cards that can be melded with the open `card` under the rule.

    `melds` are the player's melded cards. A set is usable when some valid meld holds the
    open card and exactly those hand cards (besides cards taken from `melds`) and the
    rest of `melds` still splits into valid melds. Returns the sets as masks, fewest cards
    first then in sort order; [] when the open card cannot be used. Each set is one
    distinct outcome of melding.
    """
    pool = melds | card | hand
    if not in_some_meld(card, pool):  # the usual case: the open card fits nothing
        return []
    found = {
        meld & hand for meld in MELDS_WITH[card] if meld & pool == meld and can_meld(melds & ~meld)
    }
    return sorted(found, key=lambda m: (m.bit_count(), m))
