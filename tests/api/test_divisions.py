"""The read API's divisions (docs/api.md): a season's divisions, a division's table with its
zones and points adjustments, a fixture's division and competition, ?division= filters."""

import datetime
import json
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from leagues.models import Entry, League, Season
from scoring.season_rules.services import points_adjustment_add
from tests.factories import SeasonFactory, TeamFactory
from tests.scoring.division_builders import two_divisions

pytestmark = pytest.mark.django_db
API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


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


def test_a_season_created_straight_in_the_database_has_its_one_division(api):
    league = League.objects.create(name="Plain League", slug="plain", game="convoy")
    season = Season.objects.create(
        league=league, name="Plain", slug="plain", starts_on=datetime.date(2026, 9, 1)
    )
    team = TeamFactory()
    Entry.objects.create(season=season, team=team)

    divisions = api.get(f"/api/seasons/{season.pk}/").json()["divisions"]
    body = api.get(f"/api/seasons/{season.pk}/standings/").json()

    assert [(d["name"], d["level"], d["teams"]) for d in divisions] == [
        ("Division 1", 1, [team.pk])
    ]
    assert body["division"] == {"id": divisions[0]["id"], "name": "Division 1", "level": 1}
    assert [row["team"]["id"] for row in body["rows"]] == [team.pk]


def test_the_docs_standings_example_has_the_answers_fields(api, superuser):
    world = two_divisions()
    points_adjustment_add(
        season_id=world.season.pk,
        team_id=world.top_teams[2].pk,
        points=-2,
        reason="Late result",
        on=datetime.date(2026, 11, 1),
        by=superuser,
    )
    answer = api.get(f"/api/seasons/{world.season.pk}/standings/").json()
    text = API_DOC.read_text()
    block = re.search(r"A standings answer[^\n]*\n\n```json\n(.*?)\n```", text, re.DOTALL)
    assert block is not None
    example = json.loads(block.group(1))

    assert list(example) == list(answer)
    for key in ("season", "league", "division", "points"):
        assert list(example[key]) == list(answer[key]), key
    assert list(example["rows"][0]) == list(answer["rows"][0])
    adjusted = [row for row in example["rows"] if row["adjustments"]]
    assert adjusted and list(adjusted[0]["adjustments"][0]) == ["points", "reason", "on"]


def test_the_reading_table_lists_each_endpoint_once():
    reading = API_DOC.read_text().split("## Reading", 1)[1].split("\n\n```", 1)[0]
    endpoints = re.findall(r"^\| (`GET [^|]+) \|", reading, re.MULTILINE)
    assert endpoints
    assert len(endpoints) == len(set(endpoints)), endpoints
    fixtures = next(line for line in reading.splitlines() if line.startswith("| `GET /api/fix"))
    assert "`cup`" in fixtures and "`division`" in fixtures


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
