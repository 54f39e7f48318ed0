"""Printed pages: the season table has its game's own columns, each explained."""

import re

import pytest
from django.urls import reverse

from leagues.models import Game
from tests.scoring.standings.test_figures import conquian_sheet, played

pytestmark = pytest.mark.django_db


def print_table(client, fixture) -> str:
    season = fixture.season
    response = client.get(reverse("season-print-table", args=[season.league.slug, season.slug]))
    assert response.status_code == 200
    return response.content.decode()


def headings(html: str) -> list[str]:
    return re.findall(r"<th>([^<]*)</th>", html.split("</thead>")[0])


def legend(html: str) -> dict[str, str]:
    terms = re.findall(r"<dt[^>]*>([^<]*)</dt><dd[^>]*>([^<]*)</dd>", html)
    return {term: re.sub(r"\s+", " ", meaning) for term, meaning in terms}


def convoy_stalemate(ids):
    return {"games": [{"winner": "stalemate", "convoys": {"home": 2, "away": 2}}]}


def test_a_printed_convoy_table_counts_stalemates_in_the_games_words(client):
    fixture, _ = played(Game.CONVOY, convoy_stalemate)
    html = print_table(client, fixture)
    assert headings(html) == ["#", "Team", "P", "W", "S", "L", "CF", "CA", "Pts"]
    meanings = legend(html)
    assert meanings["S"].startswith("Stalemates")
    assert meanings["Pts"] == "League points: win 3, stalemate 1, loss 0."
    assert set(meanings) == set(headings(html)) - {"Team"}
    assert "drawn" not in re.sub(r"<[^>]+>", " ", html).lower()  # in words; a class may say it


def test_a_printed_conquian_table_shows_singles_won_and_deal_points(client):
    fixture, _ = played(Game.CONQUIAN, conquian_sheet, rule_options={"target": 3})
    html = print_table(client, fixture)
    assert headings(html) == ["#", "Team", "P", "W", "D", "L", "SW", "PF", "PA", "Pts"]
    assert set(legend(html)) == set(headings(html)) - {"Team"}
