"""Errors shared by every engine.

An engine's refusal is a sentence for the player. It is written in English with named slots
(`"{card} is not in your hand"`) and the slots' values beside it, so that the site can say it
in the player's language (config/game_words.py renders it: the sentence through gettext, the
cards named in that language); `str()` of the refusal is the English sentence.
"""

import re
from collections.abc import Iterable
from typing import NamedTuple

from .cards import the_card, the_cards


def gettext_noop(message: str) -> str:
    """Marks an English sentence for the catalogues (`make messages` extracts the calls by this
    name) and returns it unchanged: the engines translate nothing themselves."""
    return message


class Card(NamedTuple):
    """A card named in a sentence: a code ("QH", "X"), named "the queen of hearts"."""

    code: str


class Cards(NamedTuple):
    """Cards listed in a sentence: "the ace of spades, the two of spades and the joker"."""

    codes: tuple[str, ...]

    @classmethod
    def of(cls, codes: Iterable[str]) -> "Cards":
        return cls(tuple(codes))


_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill(message: str, parts: dict[str, str]) -> str:
    """`message` with each `{name}` slot replaced by `parts[name]` (other braces, such as a
    move's JSON in a sentence, are kept). A full sentence (one ending in a full stop) starts
    with a capital, whatever fills its first slot."""
    text = _SLOT.sub(lambda slot: parts.get(slot[1], slot[0]), message)
    if text.endswith(".") and text:
        text = text[0].upper() + text[1:]
    return text


def _english(value: object) -> str:
    if isinstance(value, Card):
        return the_card(value.code)
    if isinstance(value, Cards):
        return the_cards(value.codes) if value.codes else "nothing"
    return str(value)


class IllegalMove(Exception):
    """A move the rules do not allow; the message is a sentence for the player.

    `IllegalMove(gettext_noop("{card} is not in your hand"), card=Card("QH"))`: `message` is
    the English sentence with `{name}` slots, `parts` their values (a `Card`, `Cards`, or a
    number or string shown as it is). `str()` is the sentence in English.
    """

    def __init__(self, message: str, /, **parts: object) -> None:
        self.message = message
        self.parts = parts
        super().__init__(fill(message, {name: _english(v) for name, v in parts.items()}))
