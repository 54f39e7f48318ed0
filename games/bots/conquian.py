"""The Conquian bot: meld what it can, keep the cards that may meld, discard the rest.

A hand card's worth is its number of "outs": the unseen cards that, turned up as
the open card, would make a meld of three with it and cards the bot already holds
or has melded (a pair waits for the third of its rank; two cards of a suit one
or two apart wait for the card that makes the run). Cards melded by either
player and the open card are seen, so they are no outs.

- Facing an open card it can use, it melds, choosing the melding that lays down
  the most cards, then keeps the most outs; going out beats everything.
- Discarding, it throws the card with the fewest outs, and avoids a card that
  fits the opponent's melds (that would hand them a card).
- It never forces (forcing makes the opponent meld, which brings them closer to
  going out) and otherwise rejects or passes.
"""

import random
from collections.abc import Iterable

from games.engines.conquian import ConquianView
from games.engines.conquian_melds import (
    ALL_CARDS,
    BIT_OF,
    EVERY_SUIT,
    RANK_CHARS,
    SUIT_STRIDE,
    bits_of,
    can_meld,
    in_some_meld,
)
from games.engines.protocol import Move

GOING_OUT = 1_000_000.0
PER_MELDED_CARD = 10.0  # a card laid down is worth more than any card's outs
GIFT = 6.0  # penalty for discarding a card that fits the opponent's melds


def choose(*, view: ConquianView, legal: list[Move], rng: random.Random) -> Move:
    seat = view["seat"]
    hand = _mask(view["hand"])
    melds = _mask(code for meld in view["melds"][seat] for code in meld)
    theirs = _mask(code for meld in view["melds"][1 - seat] for code in meld)
    open_card = BIT_OF[view["open_card"]] if view["open_card"] else 0
    unseen = ALL_CARDS & ~(hand | melds | theirs | open_card)
    scored = []
    for move in legal:
        if move.get("force"):
            continue  # every forcing move has a twin without the force
        if "discard" in move:
            card = BIT_OF[move["discard"]]
            value = -_keep_value(card, hand, melds, theirs, unseen)
        elif "meld" in move:
            used = _mask(move["meld"])
            left = hand & ~used
            if not left:
                value = GOING_OUT
            else:
                now_melded = melds | used | open_card
                worths = sorted(
                    _keep_value(card, left, now_melded, theirs, unseen) for card in bits_of(left)
                )
                value = PER_MELDED_CARD * (used.bit_count() + 1) + sum(worths[1:])
        else:  # reject or pass: the hand stays as it is
            value = sum(_outs(card, hand, melds, unseen) for card in bits_of(hand))
        scored.append((value, move))
    best = max(value for value, _ in scored)
    return rng.choice([move for value, move in scored if value == best])


def _mask(codes: Iterable[str]) -> int:
    mask = 0
    for code in codes:
        mask |= BIT_OF[code]
    return mask


def _keep_value(card: int, hand: int, melds: int, theirs: int, unseen: int) -> float:
    """How much the bot wants to keep `card`: its outs, plus a penalty for gifting it."""
    value = float(_outs(card, hand, melds, unseen))
    if theirs and in_some_meld(card, theirs | card) and can_meld(theirs | card):
        value += GIFT
    return value


def _outs(card: int, hand: int, melds: int, unseen: int) -> int:
    """Unseen cards that would meld three with `card` and cards held or melded."""
    held = (hand | melds) & ~card
    index = card.bit_length() - 1
    suit, rank = divmod(index, SUIT_STRIDE)
    outs = 0
    same_rank = EVERY_SUIT << rank
    if held & same_rank:
        outs |= unseen & same_rank
    base = suit * SUIT_STRIDE
    for start in range(max(0, rank - 2), min(rank, len(RANK_CHARS) - 3) + 1):
        window = 0b111 << (base + start)
        missing = window & ~held & ~card
        if missing.bit_count() == 1:
            outs |= missing & unseen
    return outs.bit_count()
