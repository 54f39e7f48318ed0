"""Template filters for playing cards (games/live/pages/cards.py): card_rank, card_suit,
card_colour, card_words, cards_words."""

from django import template

from games.live.pages import cards

register = template.Library()

for name in ("card_rank", "card_suit", "card_colour", "card_words", "cards_words"):
    register.filter(name, getattr(cards, name))
