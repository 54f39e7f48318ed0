"""Playing cards on the page: a short face ("10♥"). Their names, for screen readers, are said
in the reader's language by config/game_words.py."""

from games.engines.cards import JOKER

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
