"""The cut for the first deal (docs/rules.md): who sits in seat 0 at a fixture's table.

The players sit round the table in a fixed circle (sides alternating). Each cuts a card from
a 52-card pack, ace high, ranks only; the highest card deals, or the lowest where the engine
says so (its `dealer_cut` is "lowest": Conquian, "lower card deals the first deal"). Players level
on the deciding card cut again, only among themselves. Seat 0 is the player to the dealer's
left, the next one clockwise: in every game here that is the player who acts first.
"""

import random

RANKS = "23456789TJQKA"
SUITS = "SHDC"
PACK = tuple(rank + suit for rank in RANKS for suit in SUITS)


def deal_cut(*, names: list[str], lowest_deals: bool, rng: random.Random) -> tuple[dict, int]:
    """Cut for the deal among `names` (their order round the table).

    Returns the record the table keeps and shows, {"cuts": [[{"name", "card"}, ...] per round
    of cutting], "dealer": name, "seat_0": name}, and the index into `names` of seat 0.
    """
    cutting = list(range(len(names)))
    rounds = []
    while True:
        cards = rng.sample(PACK, len(cutting))
        rounds.append([{"name": names[i], "card": card} for i, card in zip(cutting, cards)])
        ranks = [RANKS.index(card[0]) for card in cards]
        deciding = min(ranks) if lowest_deals else max(ranks)
        cutting = [i for i, rank in zip(cutting, ranks) if rank == deciding]
        if len(cutting) == 1:
            break
    dealer = cutting[0]
    first = (dealer + 1) % len(names)
    return {"cuts": rounds, "dealer": names[dealer], "seat_0": names[first]}, first
