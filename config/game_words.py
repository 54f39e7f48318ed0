"""The games' words in the reader's language: card names, lists of cards, and the engines'
refusals (games.engines.errors.IllegalMove) as sentences in the active language.

The engines speak English only (they import nothing of Django); their sentences are marked for
the catalogues and carry their parts beside them, so a refusal is translated here: the sentence
through gettext, each card named in the language, numbers and other values as they are. The
words chosen for Russian and Finnish are in docs/glossary.md.
"""

from collections.abc import Iterable

from django.utils.translation import gettext, pgettext

from games.engines.cards import JOKER
from games.engines.errors import Card, Cards, IllegalMove, fill

# The English words are the catalogues' msgids, marked here one by one so that `make messages`
# finds them; a language arranges them with the "card name" patterns (ru «дама червей»: rank,
# then the suit in the genitive; fi «herttarouva»: suit and rank in one word).
_RANKS = {
    "A": lambda: pgettext("card rank", "ace"),
    "2": lambda: pgettext("card rank", "two"),
    "3": lambda: pgettext("card rank", "three"),
    "4": lambda: pgettext("card rank", "four"),
    "5": lambda: pgettext("card rank", "five"),
    "6": lambda: pgettext("card rank", "six"),
    "7": lambda: pgettext("card rank", "seven"),
    "8": lambda: pgettext("card rank", "eight"),
    "9": lambda: pgettext("card rank", "nine"),
    "T": lambda: pgettext("card rank", "ten"),
    "J": lambda: pgettext("card rank", "jack"),
    "Q": lambda: pgettext("card rank", "queen"),
    "K": lambda: pgettext("card rank", "king"),
}
_SUITS = {
    "S": lambda: pgettext("card suit", "spades"),
    "H": lambda: pgettext("card suit", "hearts"),
    "D": lambda: pgettext("card suit", "diamonds"),
    "C": lambda: pgettext("card suit", "clubs"),
}


def card_name(code: str | int) -> str:
    """A card's name as a page shows it: "queen of hearts", ru «дама червей», fi «herttarouva»;
    "joker". A Корова card (1–104) is its number."""
    if isinstance(code, int):
        return str(code)
    if code == JOKER:
        return pgettext("card name", "joker")
    return fill(
        pgettext("card name", "{rank} of {suit}"),
        {"rank": _RANKS[code[0]](), "suit": _SUITS[code[1]]()},
    )


def the_card_name(code: str | int) -> str:
    """A card as a sentence names it: "the queen of hearts" (ru and fi have no article, so the
    same words as card_name)."""
    if isinstance(code, int):
        return str(code)
    if code == JOKER:
        return pgettext("card name", "the joker")
    return fill(
        pgettext("card name", "the {rank} of {suit}"),
        {"rank": _RANKS[code[0]](), "suit": _SUITS[code[1]]()},
    )


def join_list(items: Iterable[str]) -> str:
    """ "A, B and C" in the active language (ru «A, B и C», fi «A, B ja C»)."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return fill(
        pgettext("list of several", "{items} and {last}"),
        {"items": ", ".join(items[:-1]), "last": items[-1]},
    )


def cards_names(codes: Iterable[str | int]) -> str:
    """Several cards as a page lists them: "ace of spades, two of spades and joker"."""
    return join_list(card_name(code) for code in codes)


def _part(value: object) -> str:
    if isinstance(value, Card):
        return the_card_name(value.code)
    if isinstance(value, Cards):
        if not value.codes:
            return pgettext("no cards", "nothing")
        return join_list(the_card_name(code) for code in value.codes)
    return str(value)


def refusal_text(exc: IllegalMove) -> str:
    """An engine's refusal in the active language: its sentence translated, its parts filled in
    (cards named in the language). English when no language is active or none has it."""
    return fill(gettext(exc.message), {name: _part(value) for name, value in exc.parts.items()})
