"""Template filters for playing cards: card_rank, card_suit, card_colour (the face, from
games/live/pages/cards.py) and card_words, cards_words (the names, in the page's language, from
config/game_words.py: "queen of hearts", «дама червей», «herttarouva»); cow_card, a Корова
card drawn whole."""

import functools

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language, ngettext

from config.game_words import card_name
from games.live.pages import cards

register = template.Library()

for name in ("card_rank", "card_suit", "card_colour"):
    register.filter(name, getattr(cards, name))


@register.filter
def card_words(code: str) -> str:
    """A card's name in the active language: "queen of hearts", "joker"."""
    return card_name(code)


@register.filter
def cards_words(codes) -> str:
    """Several cards' names, comma separated."""
    return ", ".join(card_name(code) for code in codes)


@register.simple_tag
def cow_card(card: dict) -> str:
    """A Корова card as games/korova pages draw it: its number, one mark per head and the heads
    in words for screen readers. A tag rather than an included template: a table page draws
    up to forty of them, and this is the live part's most frequent piece."""
    return _cow_card_html(card["number"], card["heads"], card["marks"], get_language())


@functools.lru_cache(maxsize=1024)
def _cow_card_html(number: int, heads: int, marks: str, language: str | None) -> str:
    """Drawn once per card and language in a process (104 cards, an edition or two): every
    drawing of a table repeats the same thirty cards. The words come in `language`, which
    is the active one (the key says so)."""
    words = ngettext("%(counter)s head", "%(counter)s heads", heads) % {"counter": heads}
    return format_html(
        '<span class="cow-card heads-{}"><span class="number">{}</span>'
        '<span class="heads" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">, {}</span></span>',
        heads,
        number,
        marks,
        words,
    )
