"""Playing cards on the page: a short face ("10♥") and words for screen readers."""

from games.engines.cards import JOKER, card_words

RANK_FACES = {"T": "10"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_rank(code: str) -> str:
    """The rank as printed on the card: "A", "10", "Q"; "★" for a joker."""
    if code == JOKER:
        return "★"
    return RANK_FACES.get(code[0], code[0])


def card_suit(code: str) -> str:
    """The suit symbol, or "" for a joker."""
    return "" if code == JOKER else SUIT_SYMBOLS[code[1]]


def card_colour(code: str) -> str:
    """ "red" or "black" (the joker is black), for the face's ink."""
    return "red" if code != JOKER and code[1] in "HD" else "black"


def cards_words(codes) -> str:
    """Several cards in words, comma separated."""
    return ", ".join(card_words(code) for code in codes)
