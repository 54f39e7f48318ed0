"""The league page (leagues/views.py): its seasons with teams and fixtures played. The pages
that show results are scoring's (tests/scoring/test_pages.py)."""

import pytest
from django.urls import reverse

from leagues.models import Fixture
from tests.factories import EntryFactory, FixtureFactory, LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def test_league_page_lists_its_seasons_with_teams_and_fixtures_played(client):
    league = LeagueFactory(name="Convoy Monday", slug="convoy-monday", game="convoy")
    season = SeasonFactory(league=league, name="Spring 2027", slug="spring-2027")
    for _ in range(3):
        EntryFactory(season=season)
    FixtureFactory(season=season, status=Fixture.Status.PLAYED)
    FixtureFactory(season=season)
    page = client.get(reverse("league-detail", args=[league.slug])).content.decode()
    assert "Convoy Monday" in page and "Spring 2027" in page
    assert reverse("season-detail", args=[league.slug, season.slug]) in page
    assert "1/2" in page  # fixtures played of all


def test_an_unknown_league_is_404(client):
    assert client.get(reverse("league-detail", args=["no-such-league"])).status_code == 404
