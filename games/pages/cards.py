"""Playing cards on the page: a short face ("10♥") and words for screen readers."""

RANK_FACES = {"T": "10"}
RANK_WORDS = {
    "A": "ace",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    **{
        str(n): word
        for n, word in zip(range(2, 10), "two three four five six seven eight nine".split())
    },
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
JOKER = "X"


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


def card_words(code: str) -> str:
    """The card in words, for screen readers: "queen of hearts", "joker"."""
    if code == JOKER:
        return "joker"
    return f"{RANK_WORDS[code[0]]} of {SUIT_WORDS[code[1]]}"


def cards_words(codes) -> str:
    """Several cards in words, comma separated."""
    return ", ".join(card_words(code) for code in codes)
