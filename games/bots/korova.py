"""The Корова 006 bot: play the card least likely to take a row.

For each card in hand it estimates the heads the card will cost this turn:
- a card lower than every row's end takes the cheapest row (the bot will choose it);
- a card that would be a row's sixth card takes that row;
- otherwise the row is taken only if enough of the other players' cards land
  between the row's end and the card to fill the row first. The chance of that
  is binomial in the share of unseen cards lying in that gap, so a small gap
  to the row's end is safe and a large one is risky.
It plays the cheapest card (the smaller gap on a tie). Facing a row choice, it
takes the row with the fewest heads (the fewer cards on a tie).
"""

import random
from math import comb

from games.engines.korova import HAND_SIZE, HEADS, ROW_COUNT, ROW_LIMIT
from games.engines.korova_view import KorovaView
from games.engines.protocol import Move

# Mean heads of the cards a filled row would hold besides its current ones.
_MEAN_HEADS = 170 / 104


def choose(*, view: KorovaView, legal: list[Move], rng: random.Random) -> Move:
    heads = HEADS[view["edition"]]
    row_heads = [sum(heads[card] for card in row) for row in view["rows"]]
    if "row" in legal[0]:
        fewest = min((row_heads[r], len(view["rows"][r])) for r in range(ROW_COUNT))
        rows = [
            {"row": r} for r in range(ROW_COUNT) if (row_heads[r], len(view["rows"][r])) == fewest
        ]
        return rng.choice(rows)
    unseen = _unseen_cards(view)
    others = view["players"] - 1
    costs = []
    for move in legal:
        card = move["card"]
        cost, gap = _card_cost(card, view["rows"], row_heads, unseen, others)
        costs.append((cost, gap, move))
    best = min(cost_gap[:2] for cost_gap in costs)
    return rng.choice([move for cost, gap, move in costs if (cost, gap) == best])


def _unseen_cards(view: KorovaView) -> list[int]:
    """Cards in play this seat has not seen this turn (other hands, set aside, taken)."""
    in_play = HAND_SIZE * view["players"] + ROW_COUNT + view["stock"]  # cards 1..in_play
    seen = set(view["hand"])
    for row in view["rows"]:
        seen.update(row)
    return [card for card in range(1, in_play + 1) if card not in seen]


def _card_cost(
    card: int, rows: list[list[int]], row_heads: list[int], unseen: list[int], others: int
) -> tuple[float, int]:
    """(expected heads taken by playing `card` now, its gap to the row end it lands on)."""
    target = None
    for r, row in enumerate(rows):
        if row[-1] < card and (target is None or row[-1] > rows[target][-1]):
            target = r
    if target is None:
        return float(min(row_heads)), 0
    row = rows[target]
    gap = card - row[-1]
    needed = ROW_LIMIT - len(row)  # other cards that must land first to make ours the sixth
    if needed == 0:
        return float(row_heads[target]), gap
    if not unseen or needed > others:
        return 0.0, gap
    share = sum(1 for other in unseen if row[-1] < other < card) / len(unseen)
    chance = sum(
        comb(others, k) * share**k * (1 - share) ** (others - k) for k in range(needed, others + 1)
    )
    return chance * (row_heads[target] + needed * _MEAN_HEADS), gap
