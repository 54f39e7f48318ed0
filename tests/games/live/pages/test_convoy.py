"""Convoy's play page for a hand that holds a card twice (the game is played with two packs)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engines import get_engine
from games.live import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_card_held_twice_is_shown_twice_and_its_moves_offered_once():
    users = [UserFactory(username=f"p{n}") for n in range(2)]
    table = services.table_create(game="convoy", players=2, options={}, bots=[], by=users[0])
    services.table_join(table_id=table.pk, by=users[1])
    table.refresh_from_db()
    eng = get_engine("convoy")
    (seat,) = eng.to_act(eng.load(table.state))
    # Both packs' jacks of clubs (two-eyed: a picker) and both fives of hearts (two squares).
    # (The rest of the dealt hand is kept, less any other JC or 5H it held.)
    hand = table.state["hands"][seat]
    rest = [code for code in hand if code not in ("JC", "5H")]
    hand[:] = ["JC", "JC", "5H", "5H", *rest[: len(hand) - 4]]
    table.save(update_fields=["state"])
    client = Client()
    client.force_login(users[seat])

    page = client.get(reverse("table-detail", args=[table.pk])).content.decode()

    assert len(re.findall(r'<button type="button"[^>]*data-card="JC"', page)) == 2
    assert len(re.findall(r'<button type="button"[^>]*data-card="5H"', page)) == 2
    assert page.count('class="square-picker" hidden disabled data-allowed="JC"') == 1
    fives = re.findall(r"""value='(\{"card": "5H", "square": [^']*)'""", page)
    assert fives and len(fives) == len(set(fives))
