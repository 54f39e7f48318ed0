"""French-suited card codes: rank then suit, e.g. "AS", "TH", "7D", "QC"; "X" is a joker.

Codes are for moves and storage; the engines' sentences name cards in words ("the queen of
hearts"), since players read them."""

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "X"


def standard_pack() -> list[str]:
    """The 52 cards of one pack, suit by suit."""
    return [rank + suit for suit in SUITS for rank in RANKS]


def is_card_code(value: object) -> bool:
    return value == JOKER or (
        isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS
    )


RANK_WORDS = {
    "A": "ace",
    **dict(zip("23456789", "two three four five six seven eight nine".split(), strict=True)),
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_words(code: str) -> str:
    """A card in words: "queen of hearts", "joker"."""
    if code == JOKER:
        return "joker"
    return f"{RANK_WORDS[code[0]]} of {SUIT_WORDS[code[1]]}"


def the_card(code: str) -> str:
    """A card as a sentence names it: "the queen of hearts", "the joker"."""
    return f"the {card_words(code)}"


def the_cards(codes: Iterable[str]) -> str:
    """Cards as a sentence lists them: "the ace of spades, the two of spades and the joker"."""
    named = [the_card(code) for code in codes]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
