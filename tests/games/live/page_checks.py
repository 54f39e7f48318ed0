"""What a seat's page must never hold: a card of another seat's hand.

Корова and Conquian cards are unique, so another seat's card may appear nowhere on the page,
in any form (its code, its face, its words, a number on a card). Convoy has two of each card
and the board shows every card, so there no card code of another hand (one the viewer does not
hold too) may appear in the markup: codes are only ever written for the viewer's own cards.
"""

import re

from django.contrib.auth.models import AnonymousUser

from games.engines import get_engine
from games.engines.cards import JOKER, card_words
from games.live.pages.cards import card_rank, card_suit
from games.live.selectors import table_log_for_viewer


def hands_of(table) -> dict:
    """Every seat's hand, straight from the stored state (the test's own look behind the page),
    and the cards that are public all the same: a Корова round's first turn still shows the
    last turn of the round before, whose cards were shuffled into the new hands."""
    table.refresh_from_db()
    eng = get_engine(table.game)
    state = eng.load(table.state)
    spectator = eng.view(state, None)
    public = {item["card"] for item in spectator.get("last_turn", ())}
    # A card named in the public log was shown to everyone when it was played; a new deal or
    # round may deal it into a hand again while the page's recent moves still name it.
    log = table_log_for_viewer(table_id=table.pk, user=AnonymousUser())
    public |= {card for entry in log for card in _cards_named(entry["move"])}
    return {
        "hands": [list(eng.view(state, seat).get("hand", [])) for seat in range(table.players)],
        "public": public,
    }


# The cut's element whatever else its class holds: for the 20 ms after a pushed part is
# swapped in, htmx marks the new elements "htmx-added", and a page read then still shows the cut.
CUT = re.compile(r'<details class="(?:[^"]*\s)?cut(?:\s[^"]*)?"[^>]*>.*?</details>', flags=re.S)

CARD_KEYS = {"card", "discard", "meld"}  # the parts of a move that name cards, in every game


def _cards_named(move) -> set:
    """The cards a logged move names (not its rows or squares)."""
    if not isinstance(move, dict):
        return set()
    named = set()
    for key in CARD_KEYS & move.keys():
        value = move[key]
        named |= set(value) if isinstance(value, list) else {value}
    return named


def other_cards(seen: dict, seat: int | None) -> set:
    hands = seen["hands"]
    own = set(hands[seat]) if seat is not None else set()
    others = {card for index, hand in enumerate(hands) if index != seat for card in hand}
    return others - own - seen["public"]


def assert_no_other_hands(html: str, *, game: str, hands: dict, seat: int | None) -> None:
    """`hands` as hands_of gives them. The cut for the deal is left out: its cards come from
    a pack of its own, cut before the game's cards were dealt."""
    html = CUT.sub("", html)
    for card in other_cards(hands, seat):
        if game == "korova":
            assert f'<span class="number">{card}</span>' not in html, card
            assert f'data-card="{card}"' not in html, card
        elif card == JOKER:  # "X" alone is too common a token (X-CSRFToken): look for its uses
            assert 'data-card="X"' not in html and '"card": "X"' not in html
        else:
            assert not re.search(rf"\b{card}\b", html), card
            if game == "conquian":
                assert card_words(card) not in html, card
                assert f"{card_rank(card)}{card_suit(card)}" not in html, card
