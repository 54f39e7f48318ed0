"""The sheet pages' markup: every aria-describedby and label points at an element that exists."""

import re

import pytest
from django.urls import reverse

from leagues.models import Game
from tests.scoring.results.staff_sheets import make_fixture, staff_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", [Game.KOROVA, Game.CONQUIAN, Game.CONVOY])
@pytest.mark.parametrize("note", ["", "x" * 300])  # a note too long shows its error too
def test_every_described_by_and_label_on_a_sheet_points_at_an_element(client, game, note):
    fixture = make_fixture(game)
    client.force_login(staff_of(fixture))
    url = reverse("result-entry", args=[fixture.pk])

    pages = [client.get(url), client.post(url, {"based_on_version": "0", "note": note})]

    for response in pages:
        html = response.content.decode()
        ids = set(re.findall(r'\bid="([^"]+)"', html))
        described = re.findall(r'aria-describedby="([^"]+)"', html)
        labelled = re.findall(r'\bfor="([^"]+)"', html)
        assert described, "the note at least is described"
        for reference in [name for value in described for name in value.split()] + labelled:
            assert reference in ids, reference
