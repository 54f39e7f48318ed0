"""French-suited card codes: rank then suit, e.g. "AS", "TH", "7D", "QC"; "X" is a joker."""

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "X"


def standard_pack() -> list[str]:
    """The 52 cards of one pack, suit by suit."""
    return [rank + suit for suit in SUITS for rank in RANKS]


def is_card_code(value) -> bool:
    return value == JOKER or (
        isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS
    )
