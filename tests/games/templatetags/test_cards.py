"""A Корова card as the play pages draw it, in the page's language whichever language drew
the same card before in this process (the tag keeps each card's drawing per language)."""

from django.utils import translation

from games.live.pages.korova import cow_card as korova_card
from games.templatetags.cards import cow_card


def test_a_card_shows_its_number_its_marks_and_its_heads_in_words():
    html = cow_card(korova_card(55))
    assert '<span class="number">55</span>' in html
    assert "heads-6" in html and ", 6 heads</span>" in html


def test_the_same_card_is_told_in_each_page_language_in_turn():
    card = korova_card(22)  # 5 heads
    told = {}
    for language in ("en-gb", "ru", "fi", "en-gb"):
        with translation.override(language):
            told.setdefault(language, set()).add(cow_card(card))
    assert {len(drawings) for drawings in told.values()} == {1}
    words = {language: drawings.pop() for language, drawings in told.items()}
    assert ", 5 heads<" in words["en-gb"]
    assert ", 5 штрафных очков<" in words["ru"]
    assert ", 5 häränpäätä<" in words["fi"]
