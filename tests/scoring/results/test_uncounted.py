"""What a table says it does not count yet: only the awaiting or disputed results of the league
fixtures of the division it shows (the standings API's "uncounted", the season page's line
under each division's table). A cup tie's or another division's result is never listed."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from leagues.models import Fixture
from scoring.models import ResultVersion
from tests.factories import DivisionFactory, EntryFactory, FixtureFactory, UserFactory

pytestmark = pytest.mark.django_db


def awaiting(fixture: Fixture, confirmation: str = "awaiting") -> ResultVersion:
    """A player's result of `fixture` that the table does not count yet."""
    return ResultVersion.objects.create(
        fixture=fixture,
        number=1,
        sheet={"rounds": [[17, 4]]},
        home_score=17,
        away_score=4,
        winner="home",
        source=ResultVersion.Source.PLAYER,
        created_by=UserFactory.create(),
        confirmation=confirmation,
    )


@pytest.fixture
def season_of_two_divisions():
    """A league fixture in each division, each with an unconfirmed result, and a cup tie of
    the top division's two teams with one too."""
    top_fixture = FixtureFactory()
    season = top_fixture.season
    top = season.divisions.get()
    second = DivisionFactory(season=season, name="Division 2")
    Fixture.objects.filter(pk=top_fixture.pk).update(division=top)
    second_fixture = FixtureFactory(season=season, division=second)
    for fixture, division in ((top_fixture, top), (second_fixture, second)):
        for team in (fixture.home_team, fixture.away_team):
            EntryFactory(season=season, team=team, division=division)
    cup_tie = FixtureFactory(
        season=season,
        stage=Fixture.Stage.CUP,
        home_team=top_fixture.home_team,
        away_team=top_fixture.away_team,
    )
    awaiting(top_fixture)
    awaiting(second_fixture, "disputed")
    awaiting(cup_tie)
    return season, top, second, top_fixture, second_fixture, cup_tie


def uncounted(season, division=None) -> list[int]:
    query = "" if division is None else f"?division={division.pk}"
    response = APIClient().get(f"/api/seasons/{season.pk}/standings/{query}")
    assert response.status_code == 200, response.json()
    return response.json()["uncounted"]


def test_the_api_lists_only_the_shown_divisions_league_fixtures(season_of_two_divisions):
    season, top, second, top_fixture, second_fixture, cup_tie = season_of_two_divisions
    assert uncounted(season) == [top_fixture.pk]  # the top division by default
    assert uncounted(season, top) == [top_fixture.pk]
    assert uncounted(season, second) == [second_fixture.pk]


def test_a_play_off_is_not_listed_either(season_of_two_divisions):
    season, top, second, top_fixture, second_fixture, cup_tie = season_of_two_divisions
    playoff = FixtureFactory(
        season=season,
        division=second,
        stage=Fixture.Stage.PLAYOFF,
        home_team=second_fixture.home_team,
        away_team=second_fixture.away_team,
    )
    awaiting(playoff)
    assert uncounted(season, second) == [second_fixture.pk]


def test_the_season_page_lists_each_tables_own_under_it(season_of_two_divisions):
    season, top, second, top_fixture, second_fixture, cup_tie = season_of_two_divisions
    html = (
        Client()
        .get(reverse("season-detail", args=[season.league.slug, season.slug]))
        .content.decode()
    )

    def line(element_id: str) -> str:
        return html.split(f'id="{element_id}"', 1)[1].split("</p>", 1)[0]

    top_line, second_line = line("uncounted-results"), line("uncounted-results-2")
    assert f'href="/fixtures/{top_fixture.pk}/"' in top_line
    assert "awaiting confirmation" in top_line
    assert f"/fixtures/{second_fixture.pk}/" not in top_line
    assert f'href="/fixtures/{second_fixture.pk}/"' in second_line and "disputed" in second_line
    assert f"/fixtures/{top_fixture.pk}/" not in second_line
    assert all(f"/fixtures/{cup_tie.pk}/" not in part for part in (top_line, second_line))
