"""Conquian situations built for the test_conquian_*.py tests: decks that deal given hands,
mid-game positions made by editing a dump, where every card is, and melds checked from the
rules (docs/rules.md) rather than from the engine.
"""

from itertools import combinations

from games.engines.conquian import ENGINE, OPTIONS
from games.engines.conquian_melds import BIT_OF, CODES, can_meld, meldable_part
from games.engines.options import resolve_options

# -- building situations -------------------------------------------------------------------


def make_deck(seat0, seat1, stock=()):
    """A fixed deck dealing `seat0` to the non-dealer and `seat1` to the dealer, then the
    stock top first (its first card is turned open); the rest of the stock in sort order."""
    placed = [*seat0, *seat1, *stock]
    assert len(seat0) == len(seat1) == 10 and len(set(placed)) == len(placed)
    dealt = [card for pair in zip(seat0, seat1, strict=True) for card in pair]
    return dealt + list(stock) + [card for card in CODES if card not in placed]


def position(
    hands,
    open_card,
    phase="facing",
    to_act=0,
    melds=((), ()),
    stock=None,
    options=None,
    **fields,
):
    """A mid-deal state built through load().

    A hand is a list of cards, optionally ending with a number of filler cards to add; a
    bare number is that many filler cards. Filler cards never make a meld possible that
    was not possible before (with the open card too). `stock` is top first; by default
    every card not placed is in the stock (sort order), otherwise in the dead pile.
    """
    specs = [hand if isinstance(hand, list) else [hand] for hand in hands]
    hands = [[card for card in spec if isinstance(card, str)] for spec in specs]
    placed = [*melds[0], *melds[1], *([open_card] if open_card else []), *(stock or ())]
    placed += hands[0] + hands[1]
    assert len(placed) == len(set(placed)), "a card placed twice"
    for hand, spec in zip(hands, specs, strict=True):
        wanted = spec[-1] if spec and isinstance(spec[-1], int) else 0
        for card in reversed(CODES):
            if len(hand) == len([c for c in spec if isinstance(c, str)]) + wanted:
                break
            mask = _mask([*hand, *([open_card] if open_card else [])])
            if card not in placed and meldable_part(mask | BIT_OF[card]) == meldable_part(mask):
                hand.append(card)
                placed.append(card)
    rest = [card for card in CODES if card not in placed]
    if stock is None:
        stock, dead = rest, []
    else:
        dead = rest
    data = {
        "game": "conquian",
        "seed": 1,
        "options": resolve_options(OPTIONS, options),
        "deal_number": 1,
        "dealer": 1,
        "deal_value": 1,
        "scores": [0, 0],
        "hands": hands,
        "melds": [list(melds[0]), list(melds[1])],
        "stock": list(stock),
        "open_card": open_card,
        "dead_pile": dead,
        "to_act": to_act,
        "phase": phase,
        "last_deal": None,
    }
    data.update(fields)
    return ENGINE.load(data)


def _mask(cards):
    return sum(BIT_OF[card] for card in cards)


def where_is_everything(state):
    """Every card's place; the conservation law says each of the 40 is in exactly one."""
    data = ENGINE.dump(state)
    places = [
        *data["hands"][0],
        *data["hands"][1],
        *data["melds"][0],
        *data["melds"][1],
        *data["stock"],
        *data["dead_pile"],
        *([data["open_card"]] if data["open_card"] else []),
    ]
    return places


RANKS = "A234567JQK"


def is_one_meld(cards):
    """Three or four cards of one rank, or three to eight of one suit in order (ace low)."""
    ranks = sorted(RANKS.index(card[0]) for card in cards)
    suits = {card[1] for card in cards}
    if len(set(ranks)) == 1:
        return 3 <= len(cards) <= 4
    return (
        len(suits) == 1 and 3 <= len(cards) <= 8 and ranks == list(range(ranks[0], ranks[-1] + 1))
    )


def melding_is_legal(open_card, used, melds):
    """The rule, said plainly: the open card and every hand card `used` lie in one valid meld,
    which may take cards from the player's `melds`; the rest of `melds` still splits."""
    for size in range(len(melds) + 1):
        for taken in combinations(melds, size):
            rest = [card for card in melds if card not in taken]
            if is_one_meld([open_card, *used, *taken]) and can_meld(_mask(rest)):
                return True
    return False


def meld_moves(state, seat):
    return [move["meld"] for move in ENGINE.legal_moves(state, seat) if "meld" in move]


# A hand that melds with nothing, for the player who only waits.
QUIET = ["AS", "3H", "5D", "7C", "QS", "2D", "4C", "6S", "JH", "KD"]
QUIET_1 = ["2S", "4H", "6D", "JC", "KS", "AD", "3C", "5S", "7H", "QD"]


# Six cards melded on earlier turns, four in hand: 6D with 7D JD QD KD makes one meld of
# five and eleven cards melded in all.
OUT_MELDS = ["AS", "2S", "3S", "5H", "5D", "5C"]
OUT_HAND = ["7D", "JD", "QD", "KD"]
