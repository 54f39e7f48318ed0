"""The API of walkovers and lineups (docs/contracts.md "Seasons as pub leagues run them"): POST
/api/fixtures/{id}/walkover/, a result's "walkover" and a version's "lineup"."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Game
from scoring.models import ResultVersion
from tests.factories import PlayerFactory, StaffMembershipFactory, UserFactory
from tests.scoring.squads import CONVOY_SHEET, korova_sheet, make_squads

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def walkover_url(fixture) -> str:
    return f"/api/fixtures/{fixture.pk}/walkover/"


def test_staff_award_a_walkover_and_every_answer_marks_it():
    squads = make_squads(Game.KOROVA)
    client = client_for(squads.staff)

    answer = client.post(walkover_url(squads.fixture), {"team": "home"}, format="json")

    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["walkover"], body["winner"], body["version"]) == ("home", "home", 1)
    assert (body["home_score"], body["away_score"]) == (0, 66)
    assert body["sheet"] == {} and body["lineup"] == []
    assert client.get(f"/api/fixtures/{squads.fixture.pk}/result/").json()["walkover"] == "home"
    fixture = client.get(f"/api/fixtures/{squads.fixture.pk}/").json()
    assert fixture["result"]["walkover"] == "home"
    history = client.get(f"/api/fixtures/{squads.fixture.pk}/results/").json()
    assert history[0]["walkover"] == "home"


def test_a_played_result_says_walkover_null():
    squads = make_squads(Game.KOROVA)
    client = client_for(squads.staff)
    client.post(
        f"/api/fixtures/{squads.fixture.pk}/result/",
        {"sheet": korova_sheet(squads.players(0), squads.players(1)), "based_on_version": 0},
        format="json",
    )

    assert client.get(f"/api/fixtures/{squads.fixture.pk}/").json()["result"]["walkover"] is None


def test_a_walkover_for_a_played_fixture_is_409_and_changes_nothing():
    squads = make_squads(Game.KOROVA)
    client = client_for(squads.staff)
    client.post(
        f"/api/fixtures/{squads.fixture.pk}/result/",
        {"sheet": korova_sheet(squads.players(0), squads.players(1)), "based_on_version": 0},
        format="json",
    )

    answer = client.post(walkover_url(squads.fixture), {"team": "away"}, format="json")

    assert answer.status_code == 409
    assert "played result" in answer.json()["detail"]
    assert ResultVersion.objects.filter(fixture=squads.fixture).count() == 1


@pytest.mark.parametrize("body", [{"team": "both"}, {"team": ""}, {}, {"team": ["home"]}])
def test_a_bad_team_is_400_naming_the_field(body):
    squads = make_squads()

    answer = client_for(squads.staff).post(walkover_url(squads.fixture), body, format="json")

    assert answer.status_code == 400
    assert "team" in answer.json()
    assert not ResultVersion.objects.exists()


def test_staff_of_another_venue_and_players_get_403_and_visitors_401():
    squads = make_squads()
    player_user = UserFactory()
    player = squads.teams[0].members.first().player
    player.user = player_user
    player.save()

    for user in (StaffMembershipFactory().user, player_user):
        answer = client_for(user).post(walkover_url(squads.fixture), {"team": "home"})
        assert answer.status_code == 403
    assert APIClient().post(walkover_url(squads.fixture), {"team": "home"}).status_code == 401
    assert client_for(squads.staff).post("/api/fixtures/999999/walkover/", {}).status_code == 404
    assert not ResultVersion.objects.exists()


def test_a_lineup_with_a_substitute_in_and_out_of_the_api():
    squads = make_squads(Game.CONVOY)
    reserve = squads.reserve(0)
    home, away = squads.players(0), squads.players(1)
    home_team, away_team = squads.teams[0].pk, squads.teams[1].pk
    lineup = [
        {"team": home_team, "player": home[0]},
        {"team": home_team, "player": reserve.pk},
        {"team": away_team, "player": away[0]},
        {"team": away_team, "player": away[1]},
    ]

    answer = client_for(squads.staff).post(
        f"/api/fixtures/{squads.fixture.pk}/result/",
        {"sheet": CONVOY_SHEET, "based_on_version": 0, "lineup": lineup},
        format="json",
    )

    assert answer.status_code == 201, answer.json()
    assert answer.json()["lineup"] == [
        {"team": home_team, "player": home[0], "substitute": False},
        {"team": home_team, "player": reserve.pk, "substitute": True},
        {"team": away_team, "player": away[0], "substitute": False},
        {"team": away_team, "player": away[1], "substitute": False},
    ]
    read = APIClient().get(f"/api/fixtures/{squads.fixture.pk}/result/").json()
    assert read["lineup"] == answer.json()["lineup"]


@pytest.mark.parametrize("bad", ["stranger", "other team", "one short"])
def test_a_bad_lineup_is_400_naming_lineup(bad):
    squads = make_squads(Game.CONVOY)
    home, away = squads.players(0), squads.players(1)
    home_team, away_team = squads.teams[0].pk, squads.teams[1].pk
    lineup = [
        {"team": home_team, "player": home[0]},
        {"team": home_team, "player": home[1]},
        {"team": away_team, "player": away[0]},
        {"team": away_team, "player": away[1]},
    ]
    if bad == "stranger":
        lineup[1]["player"] = PlayerFactory().pk
    elif bad == "other team":
        lineup[0]["team"] = squads.teams[0].pk + 1000
    else:
        lineup.pop()

    answer = client_for(squads.staff).post(
        f"/api/fixtures/{squads.fixture.pk}/result/",
        {"sheet": CONVOY_SHEET, "based_on_version": 0, "lineup": lineup},
        format="json",
    )

    assert answer.status_code == 400
    assert list(answer.json()) == ["lineup"]
    assert not ResultVersion.objects.exists()
