"""Template filters for playing cards: card_rank, card_suit, card_colour (the face, from
games/live/pages/cards.py) and card_words, cards_words (the names, in the page's language, from
config/game_words.py: "queen of hearts", «дама червей», «herttarouva»)."""

from django import template

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
