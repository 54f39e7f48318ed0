"""The public pages of a season of two divisions: a table per division with its zones and
points adjustments (test client), the fixtures page's division switch, the printed table and
the TV screen."""

import datetime
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring.season_rules.services import points_adjustment_add
from tests.scoring.division_builders import two_divisions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.fixture
def world(superuser):
    world = two_divisions()
    points_adjustment_add(
        season_id=world.season.pk,
        team_id=world.top_teams[1].pk,
        points=-3,
        reason="Fielded an ineligible player",
        on=datetime.date(2026, 11, 1),
        by=superuser,
    )
    return world


def season_page(client, world, name="season-detail", query=""):
    args = [world.season.league.slug, world.season.slug]
    response = client.get(reverse(name, args=args) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_season_page_shows_each_division_with_its_zones_and_legend(client, world):
    page = season_page(client, world)
    premier, second = page.split("<h2")[1:3]
    assert "Premier" in premier and "Division One" in second
    assert re.search(r'<tr class="zone-relegation">.*?Top C', premier, re.S)
    assert re.search(r'<tr class="zone-promotion">.*?Low A', second, re.S)
    assert "Relegation: the bottom team goes down at the season&#x27;s end." in premier
    assert "Promotion: the top team goes up at the season&#x27;s end." in second
    assert "(Relegation)" in premier  # said in words, not by colour alone


def test_an_adjusted_team_is_marked_and_the_reason_is_a_footnote(client, world):
    page = season_page(client, world)
    assert re.search(r"Top B</a><a class=\"adjusted\"[^>]*>\*</a>", page)
    assert "3 points deducted on 1 November 2026: Fielded an ineligible player" in page


def test_the_fixtures_page_switches_between_divisions(client, world):
    page = season_page(client, world, "season-fixtures", f"?division={world.second.pk}")
    assert "Low A" in page and "Top A" not in page
    everything = season_page(client, world, "season-fixtures")
    assert "Low A" in everything and "Top A" in everything and "· Division One" in everything
    args = [world.season.league.slug, world.season.slug]
    assert client.get(reverse("season-fixtures", args=args) + "?division=0").status_code == 404


def test_the_printed_table_has_a_table_per_division_with_zones_and_notes(client, world):
    args = [world.season.league.slug, world.season.slug]
    page = client.get(reverse("season-print-table", args=args)).content.decode()
    assert "<h2>Premier</h2>" in page and "<h2>Division One</h2>" in page
    assert 'class="zone-promotion"' in page and 'class="zone-relegation"' in page
    assert "Top B*" in page and "Fielded an ineligible player" in page


def test_the_tables_read_on_a_phone_without_sideways_scroll_rules(client, world):
    """At 390 px the wide columns hide (roundel.css) and the tables sit in .table-wrap: the
    zone legend and the notes are plain text that wraps."""
    page = season_page(client, world)
    assert page.count('<div class="table-wrap">') == 2
    assert '<ul class="zone-legend"' in page and 'class="adjustment-notes"' in page


def test_the_tv_shows_the_table_of_the_division_playing_tonight(client, world):
    from django.utils import timezone

    from leagues.models import Fixture
    from scoring.publishing.services import venue_screen_issue

    tonight = Fixture.objects.filter(division=world.premier).first()
    tonight.starts_at = timezone.now()
    tonight.save()
    venue = tonight.venue
    screen = venue_screen_issue(venue_id=venue.pk)
    board = client.get(reverse("tv-board", args=[venue.slug, screen.token])).content.decode()
    assert "· Premier</caption>" in board and "Division One</caption>" not in board
    assert 'class="zone-relegation"' in board
    assert "Top B*" in board and "\u22123 (Fielded an ineligible player)" in board
