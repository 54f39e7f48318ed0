"""The read API: lists and details, filters, pagination, standings, results and their history."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues.models import Fixture
from tests.api.conftest import KOROVA_AWAY_WINS, korova_sheet
from tests.factories import EntryFactory, FixtureFactory, TeamFactory

pytestmark = pytest.mark.django_db


def ids(response) -> list[int]:
    return [item["id"] for item in response.json()["results"]]


# ---- lists and details --------------------------------------------------------------------


def test_league_list_names_each_league_with_its_game_and_seasons(api, world):
    body = api.get("/api/leagues/").json()
    assert body["count"] == 3
    korova = next(item for item in body["results"] if item["slug"] == "korova-tuesday")
    assert korova["game"] == "korova"
    assert korova["seasons"] == [
        {"id": world.season.pk, "name": "Autumn 2026", "slug": "autumn-2026"}
    ]


def test_league_list_filters_by_game(api, world):
    body = api.get("/api/leagues/", {"game": "convoy"}).json()
    assert [item["slug"] for item in body["results"]] == ["convoy-league"]


def test_season_detail_carries_rules_points_and_teams(api, world):
    body = api.get(f"/api/seasons/{world.season.pk}/").json()
    assert body["game"] == "korova"
    assert body["league"]["slug"] == "korova-tuesday"
    assert (body["points_win"], body["points_draw"], body["points_loss"]) == (3, 1, 0)
    assert body["tie_breakers"] == ["points", "difference", "head_to_head", "wins"]
    assert sorted(team["name"] for team in body["teams"]) == [
        "Anchor Rats",
        "Anchor Swans",
        "Crown Heads",
        "Crown Jewels",
    ]


def test_season_list_filters_by_league_and_game(api, world):
    assert ids(api.get("/api/seasons/", {"league": world.league.pk})) == [world.season.pk]
    assert ids(api.get("/api/seasons/", {"game": "conquian"})) == [world.conquian_fixture.season_id]


def test_team_detail_lists_its_two_players_in_position_order(api, world):
    body = api.get(f"/api/teams/{world.teams[0].pk}/").json()
    assert body["home_venue"]["slug"] == "the-crown"
    assert [(p["name"], p["position"]) for p in body["players"]] == [
        ("Alice Archer", 1),
        ("Bob Baker", 2),
    ]


def test_team_list_filters_by_season_and_venue(api, world):
    conquian_season = world.conquian_fixture.season_id
    assert sorted(ids(api.get("/api/teams/", {"season": conquian_season}))) == sorted(
        [world.teams[0].pk, world.teams[1].pk]
    )
    assert sorted(ids(api.get("/api/teams/", {"venue": world.anchor.pk}))) == sorted(
        [world.teams[2].pk, world.teams[3].pk]
    )


def test_player_list_filters_by_team_and_names_their_teams(api, world):
    body = api.get("/api/players/", {"team": world.teams[3].pk}).json()
    assert [item["name"] for item in body["results"]] == ["Gail Grant", "Hugh Hale"]
    assert body["results"][0]["teams"] == [
        {"id": world.teams[3].pk, "name": "Anchor Swans", "slug": "anchor-swans", "position": 1}
    ]


def test_venue_detail_lists_the_teams_based_there(api, world):
    body = api.get(f"/api/venues/{world.crown.pk}/").json()
    assert body["address"] == "1 High Street"
    assert [team["name"] for team in body["teams"]] == ["Crown Heads", "Crown Jewels"]
    assert api.get("/api/venues/").json()["count"] == 2


@pytest.mark.parametrize("path", ["leagues", "seasons", "teams", "players", "venues", "fixtures"])
def test_unknown_ids_are_404_with_a_json_body(api, world, path):
    response = api.get(f"/api/{path}/987654321/")
    assert response.status_code == 404
    assert "detail" in response.json()


def test_fixture_detail_has_teams_venue_status_and_the_current_result(api, world):
    body = api.get(f"/api/fixtures/{world.fixtures[0].pk}/").json()
    assert body["home_team"]["name"] == "Crown Jewels"
    assert body["away_team"]["name"] == "Crown Heads"
    assert body["venue"]["slug"] == "the-crown"
    assert body["status"] == "played"
    assert body["round"] == 1
    assert body["league"]["game"] == "korova"
    assert body["result"] == {
        "version": 1,
        "home_score": 45,
        "away_score": 100,
        "winner": "home",
        "walkover": None,
        "confirmation": "confirmed",
    }
    unplayed = api.get(f"/api/fixtures/{world.fixtures[5].pk}/").json()
    assert unplayed["status"] == "scheduled" and unplayed["result"] is None


# ---- fixture filters ----------------------------------------------------------------------


def test_fixtures_filter_by_season_round_and_status(api, world):
    season = world.season.pk
    assert len(ids(api.get("/api/fixtures/", {"season": season}))) == 6
    assert ids(api.get("/api/fixtures/", {"season": season, "round": 3})) == [
        world.fixtures[4].pk,
        world.fixtures[5].pk,
    ]
    played = ids(api.get("/api/fixtures/", {"season": season, "status": "played"}))
    assert played == [fixture.pk for fixture in world.fixtures[:4]]
    assert ids(api.get("/api/fixtures/", {"season": season, "status": "scheduled"})) == [
        world.fixtures[4].pk,
        world.fixtures[5].pk,
    ]


def test_fixtures_filter_by_team_home_or_away(api, world):
    swans = world.teams[3]
    got = ids(api.get("/api/fixtures/", {"team": swans.pk}))
    expected = [f.pk for f in world.fixtures if swans.pk in (f.home_team_id, f.away_team_id)]
    assert sorted(got) == sorted(expected) and len(got) == 3


def test_fixtures_filter_by_venue_and_date_range(api, world):
    at_anchor = ids(api.get("/api/fixtures/", {"venue": world.anchor.pk}))
    assert sorted(at_anchor) == sorted(
        f.pk for f in world.fixtures if f.venue_id == world.anchor.pk
    )
    # Round 2 is on 8 September 2026; round 3 on the 15th.
    week_two = ids(
        api.get(
            "/api/fixtures/",
            {"season": world.season.pk, "date_from": "2026-09-08", "date_to": "2026-09-14"},
        )
    )
    assert week_two == [world.fixtures[2].pk, world.fixtures[3].pk]
    from_15th = ids(api.get("/api/fixtures/", {"date_from": "2026-09-15"}))
    assert from_15th == [world.fixtures[4].pk, world.fixtures[5].pk]


@pytest.mark.parametrize(
    "params, field",
    [
        ({"round": "first"}, "round"),
        ({"status": "finished"}, "status"),
        ({"date_from": "2026-13-45"}, "date_from"),
        ({"season": "x"}, "season"),
    ],
)
def test_a_bad_filter_value_is_400_naming_the_filter(api, world, params, field):
    response = api.get("/api/fixtures/", params)
    assert response.status_code == 400
    assert field in response.json()


# ---- pagination ---------------------------------------------------------------------------


def test_fixtures_are_paginated_with_a_page_size_parameter(api, world):
    first = api.get("/api/fixtures/", {"page_size": 3}).json()
    assert first["count"] == 8
    assert len(first["results"]) == 3
    assert first["previous"] is None and "page=2" in first["next"]
    last = api.get("/api/fixtures/", {"page_size": 3, "page": 3}).json()
    assert len(last["results"]) == 2 and last["next"] is None
    seen = ids(api.get("/api/fixtures/", {"page_size": 3})) + ids(
        api.get("/api/fixtures/", {"page_size": 3, "page": 2})
    )
    assert len(set(seen)) == 6


def test_a_page_past_the_end_is_404(api, world):
    assert api.get("/api/fixtures/", {"page": 99}).status_code == 404


def test_page_size_is_capped(api, world):
    body = api.get("/api/fixtures/", {"page_size": 100000}).json()
    assert len(body["results"]) == 8  # all of them, under the cap of 200


def test_fixture_list_costs_the_same_queries_for_more_fixtures(api, world):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/api/fixtures/").status_code == 200
        return len(queries)

    before = count()
    teams = [TeamFactory(home_venue=world.anchor) for _ in range(6)]
    for team in teams:
        EntryFactory(season=world.season, team=team)
    for index, team in enumerate(teams):
        fixture = FixtureFactory(
            season=world.season, round=4, home_team=team, away_team=teams[index - 1]
        )
        world.submit(fixture, korova_sheet(fixture, KOROVA_AWAY_WINS))
    assert count() == before


@pytest.mark.parametrize("path", ["leagues", "seasons", "teams", "players", "venues"])
def test_other_lists_cost_a_fixed_number_of_queries(api, world, path):
    with CaptureQueriesContext(connection) as queries:
        assert api.get(f"/api/{path}/").status_code == 200
    # A season's list adds its divisions (docs/seasons.md) to the count, the page and the teams.
    assert len(queries) <= (4 if path == "seasons" else 3)


# ---- standings ----------------------------------------------------------------------------


def test_standings_json_orders_the_table_with_the_games_own_difference(api, world):
    response = api.get(f"/api/seasons/{world.season.pk}/standings/")
    assert response.status_code == 200
    body = response.json()
    assert body["season"]["id"] == world.season.pk
    assert body["league"]["game"] == "korova"
    assert body["points"] == {
        "win": 3,
        "draw": 1,
        "loss": 0,
        "walkover_winner": 3,
        "walkover_loser": 0,
    }
    table = [
        (
            row["position"],
            row["team"]["name"],
            row["played"],
            row["won"],
            row["drawn"],
            row["lost"],
            row["score_for"],
            row["score_against"],
            row["difference"],
            row["points"],
        )
        for row in body["rows"]
    ]
    assert table == [
        (1, "Crown Jewels", 2, 2, 0, 0, 90, 200, 110, 6),
        (2, "Anchor Swans", 2, 2, 0, 0, 125, 216, 91, 6),
        (3, "Crown Heads", 2, 0, 0, 2, 216, 125, -91, 0),
        (4, "Anchor Rats", 2, 0, 0, 2, 200, 90, -110, 0),
    ]
    assert body["rows"][0]["form"] == ["W", "W"]
    assert body["rows"][3]["form"] == ["L", "L"]


def test_standings_reflect_a_saved_result_at_once(api, world):
    api.get(f"/api/seasons/{world.season.pk}/standings/")
    fixture = world.fixtures[4]  # Anchor Swans v Crown Jewels
    world.submit(fixture, korova_sheet(fixture, KOROVA_AWAY_WINS))  # Crown Jewels win
    rows = api.get(f"/api/seasons/{world.season.pk}/standings/").json()["rows"]
    assert (rows[0]["team"]["name"], rows[0]["points"], rows[0]["played"]) == (
        "Crown Jewels",
        9,
        3,
    )


def test_standings_of_an_unknown_season_are_404(api, world):
    assert api.get("/api/seasons/987654321/standings/").status_code == 404


def test_void_fixtures_do_not_count_in_the_standings(api, world):
    Fixture.objects.filter(pk=world.fixtures[0].pk).update(status=Fixture.Status.VOID)
    world.fixtures[0].refresh_from_db()
    world.fixtures[0].save()  # a history row, as an admin's change would make
    rows = api.get(f"/api/seasons/{world.season.pk}/standings/").json()["rows"]
    jewels = next(row for row in rows if row["team"]["name"] == "Crown Jewels")
    assert (jewels["played"], jewels["points"]) == (1, 3)


# ---- results ------------------------------------------------------------------------------


def test_current_result_of_a_fixture_with_its_sheet(api, world):
    fixture = world.fixtures[0]
    body = api.get(f"/api/fixtures/{fixture.pk}/result/").json()
    assert body["version"] == 1 and body["is_current"] is True
    assert (body["home_score"], body["away_score"], body["winner"]) == (45, 100, "home")
    assert body["sheet"]["rounds"][0] == [6, 8, 10, 20]
    assert body["created_by"] is None  # who saved it is for staff and admins only


def test_staff_of_the_venue_see_who_saved_the_result(api, world):
    api.force_login(world.crown_staff)
    body = api.get(f"/api/fixtures/{world.fixtures[0].pk}/result/").json()
    assert body["created_by"] == "league-admin"


def test_a_fixture_without_a_result_answers_404_on_its_result(api, world):
    response = api.get(f"/api/fixtures/{world.fixtures[5].pk}/result/")
    assert response.status_code == 404
    assert "No result" in response.json()["detail"]
    assert api.get("/api/fixtures/987654321/result/").status_code == 404


def test_result_history_lists_every_version_newest_first_with_what_changed(api, world):
    fixture = world.fixtures[0]
    sheet = korova_sheet(fixture, [[6, 8, 10, 20], [7, 9, 12, 25], [5, 11, 9, 24]])
    world.submit(fixture, sheet)
    body = api.get(f"/api/fixtures/{fixture.pk}/results/").json()
    assert [version["version"] for version in body] == [2, 1]
    assert [version["is_current"] for version in body] == [True, False]
    assert body[0]["changes"] == [{"path": "rounds.2.1", "before": 10, "after": 11}]
    assert body[1]["changes"] == []
    assert api.get("/api/fixtures/987654321/results/").status_code == 404
