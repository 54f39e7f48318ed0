"""The read API's divisions (docs/api.md): a season's divisions, a division's table with its
zones and points adjustments, a fixture's division and competition, ?division= filters."""

import datetime

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from scoring.season_rules.services import points_adjustment_add
from tests.factories import SeasonFactory
from tests.scoring.division_builders import two_divisions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.fixture
def api():
    return APIClient()


def test_a_season_lists_its_divisions_top_first_with_their_teams(api):
    world = two_divisions(played=False)
    body = api.get(f"/api/seasons/{world.season.pk}/").json()
    assert body["divisions"] == [
        {
            "id": world.premier.pk,
            "name": "Premier",
            "level": 1,
            "promoted": 0,
            "relegated": 1,
            "teams": [team.pk for team in world.top_teams],
        },
        {
            "id": world.second.pk,
            "name": "Division One",
            "level": 2,
            "promoted": 1,
            "relegated": 0,
            "teams": [team.pk for team in world.second_teams],
        },
    ]


def test_a_season_set_up_without_divisions_has_exactly_one(api):
    season = SeasonFactory()
    divisions = api.get(f"/api/seasons/{season.pk}/").json()["divisions"]
    assert [(d["name"], d["level"], d["teams"]) for d in divisions] == [("Division 1", 1, [])]


def test_standings_of_a_division_with_zones_and_adjustments(api, superuser):
    world = two_divisions()
    points_adjustment_add(
        season_id=world.season.pk,
        team_id=world.second_teams[2].pk,
        points=-2,
        reason="Late result",
        on=datetime.date(2026, 11, 1),
        by=superuser,
    )
    body = api.get(f"/api/seasons/{world.season.pk}/standings/?division={world.second.pk}").json()
    assert body["division"] == {"id": world.second.pk, "name": "Division One", "level": 2}
    rows = body["rows"]
    assert [row["team"]["name"] for row in rows] == ["Low A", "Low B", "Low C"]
    assert [row["zone"] for row in rows] == ["promotion", None, None]
    assert rows[2]["adjustment"] == -2 and rows[2]["points"] == -2
    assert rows[2]["adjustments"] == [{"points": -2, "reason": "Late result", "on": "2026-11-01"}]
    assert rows[0]["adjustment"] == 0 and rows[0]["adjustments"] == []


def test_standings_without_division_are_the_top_divisions(api):
    world = two_divisions()
    body = api.get(f"/api/seasons/{world.season.pk}/standings/").json()
    assert body["division"]["id"] == world.premier.pk
    assert [row["zone"] for row in body["rows"]] == [None, None, "relegation"]


@pytest.mark.parametrize("division", ["other-season", "abc", "1.5", "٣"])
def test_a_division_not_of_the_season_is_refused_naming_division(api, division):
    world = two_divisions(played=False)
    other = SeasonFactory().divisions.get().pk
    value = other if division == "other-season" else division
    response = api.get(f"/api/seasons/{world.season.pk}/standings/?division={value}")
    assert response.status_code == 400
    assert "division" in response.json()


def test_fixtures_carry_their_division_and_competition_and_filter_by_division(api):
    world = two_divisions(played=False)
    body = api.get(f"/api/fixtures/?division={world.second.pk}").json()
    assert body["count"] == 6
    for fixture in body["results"]:
        assert fixture["division"] == world.second.pk
        assert fixture["competition"] == {"kind": "league"}
    assert api.get(f"/api/fixtures/?division={world.premier.pk}").json()["count"] == 6
    assert api.get("/api/fixtures/?division=abc").status_code == 400
