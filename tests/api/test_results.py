"""Submitting and correcting results through the API: session and token auth, the same
permission and validation as the staff form, 409 on a stale version, and nothing changed by any
refusal."""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Fixture, Player
from leagues.services import fixture_relocate
from scoring.models import ResultVersion
from tests.api.conftest import (
    KOROVA_AWAY_WINS,
    KOROVA_HOME_WINS,
    conquian_sheet,
    korova_sheet,
    token_client,
)
from tests.factories import PASSWORD, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def result_url(fixture) -> str:
    return f"/api/fixtures/{fixture.pk}/result/"


def snapshot() -> tuple:
    """Everything a refused request must leave alone."""
    return (
        sorted(
            ResultVersion.objects.values_list(
                "pk", "fixture_id", "number", "is_current", "home_score", "away_score"
            )
        ),
        sorted(Fixture.objects.values_list("pk", "status", "postponed_reason")),
        Fixture.history.count(),
    )


@pytest.fixture
def open_fixture(world):
    """Round 3 at The Crown: Crown Heads v Anchor Rats, no result yet."""
    return world.fixtures[5]


def test_staff_of_the_venue_submit_a_first_result_with_session_auth(world, open_fixture):
    client = APIClient()
    client.force_login(world.crown_staff)
    sheet = korova_sheet(open_fixture, KOROVA_AWAY_WINS)
    response = client.post(
        result_url(open_fixture), {"sheet": sheet, "based_on_version": 0}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["version"] == 1 and body["is_current"] is True
    lineup = ResultVersion.objects.get(fixture=open_fixture).lineup
    assert lineup == {
        "home": sheet["players"][:2],
        "away": sheet["players"][2:],
        "substitutes": [],
    }
    assert (body["home_score"], body["away_score"], body["winner"]) == (100, 45, "away")
    assert body["source"] == "api" and body["created_by"] == "crown-staff"
    open_fixture.refresh_from_db()
    assert open_fixture.status == Fixture.Status.PLAYED
    rows = client.get(f"/api/seasons/{world.season.pk}/standings/").json()["rows"]
    rats = next(row for row in rows if row["team"]["name"] == "Anchor Rats")
    assert (rats["played"], rats["won"], rats["points"]) == (3, 1, 3)


def test_session_auth_needs_the_csrf_token_as_a_browser_would_send_it(world, open_fixture):
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="crown-staff", password=PASSWORD)
    payload = {"sheet": korova_sheet(open_fixture, KOROVA_AWAY_WINS), "based_on_version": 0}
    before = snapshot()
    refused = client.post(result_url(open_fixture), payload, format="json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert snapshot() == before
    client.get("/")  # any page sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(result_url(open_fixture), payload, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201


def test_token_auth_submits_and_then_corrects_a_result(world, open_fixture):
    client = token_client(world.crown_staff)
    first = client.post(
        result_url(open_fixture),
        {"sheet": korova_sheet(open_fixture, KOROVA_AWAY_WINS), "based_on_version": 0},
        format="json",
    )
    assert first.status_code == 201 and first.json()["winner"] == "away"
    corrected = client.post(
        result_url(open_fixture),
        {
            "sheet": korova_sheet(open_fixture, KOROVA_HOME_WINS),
            "based_on_version": 1,
            "note": "Columns were swapped",
        },
        format="json",
    )
    assert corrected.status_code == 201, corrected.json()
    body = corrected.json()
    assert (
        body["version"] == 2 and body["winner"] == "home" and body["note"] == "Columns were swapped"
    )
    versions = ResultVersion.objects.filter(fixture=open_fixture).order_by("number")
    assert [(v.number, v.is_current, v.winner) for v in versions] == [
        (1, False, "away"),
        (2, True, "home"),
    ]
    history = APIClient().get(f"/api/fixtures/{open_fixture.pk}/results/").json()
    assert [v["version"] for v in history] == [2, 1]


def test_a_league_admin_may_submit_for_any_venue(world):
    fixture = world.fixtures[4]  # at The Anchor
    response = token_client(world.admin).post(
        result_url(fixture),
        {"sheet": korova_sheet(fixture, KOROVA_HOME_WINS), "based_on_version": 0},
        format="json",
    )
    assert response.status_code == 201


# ---- 400: the body names the field --------------------------------------------------------


def test_a_round_after_the_game_ended_is_400_naming_the_round(world, open_fixture):
    rounds = [*KOROVA_AWAY_WINS, [5, 5, 5, 10]]
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(open_fixture),
        {"sheet": korova_sheet(open_fixture, rounds), "based_on_version": 0},
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()["sheet"]
    assert list(errors) == ["rounds.3"]
    assert "after the game ended" in errors["rounds.3"][0]
    assert snapshot() == before


def test_several_sheet_problems_are_each_named(world):
    fixture = world.conquian_fixture
    sheet = conquian_sheet(fixture, ["home", "sideways"], ["away"] * 5)
    sheet["singles"][1]["deals"].append("away")  # a deal after the single was won
    current = fixture.result_versions.get(is_current=True).number
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(fixture), {"sheet": sheet, "based_on_version": current}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["sheet"]
    assert "singles.0.deals.1" in errors and "sideways" in errors["singles.0.deals.1"][0]
    assert "singles.1.deals.5" in errors
    assert snapshot() == before


def test_a_sheet_with_players_from_another_team_is_400(world, open_fixture):
    sheet = korova_sheet(open_fixture, KOROVA_AWAY_WINS)
    sheet["players"][0] = world.teams[0].members.first().player_id  # Alice plays for Jewels
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(open_fixture), {"sheet": sheet, "based_on_version": 0}, format="json"
    )
    assert response.status_code == 400
    # The message names the player and the team, not ids and "home".
    message = response.json()["sheet"]["players.0"][0]
    assert message == f"Alice Archer does not play for {open_fixture.home_team.name}."
    assert snapshot() == before


@pytest.mark.parametrize("sheet", [[1, 2, 3], "rounds", None, 7])
def test_a_sheet_that_is_not_an_object_is_400_under_sheet(world, open_fixture, sheet):
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(open_fixture), {"sheet": sheet, "based_on_version": 0}, format="json"
    )
    assert response.status_code == 400
    assert "non_field_errors" in response.json()["sheet"]
    assert snapshot() == before


@pytest.mark.parametrize("value", ["one", None, [], {}, 1.5, -1, True, ""])
def test_a_bad_based_on_version_is_400_naming_the_field(world, open_fixture, value):
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(open_fixture),
        {"sheet": korova_sheet(open_fixture, KOROVA_AWAY_WINS), "based_on_version": value},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()) == ["based_on_version"]
    assert snapshot() == before


def test_a_missing_body_is_400_naming_both_fields(world, open_fixture):
    response = token_client(world.crown_staff).post(result_url(open_fixture), {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"sheet", "based_on_version"}


def test_a_too_long_note_is_400_naming_the_note(world, open_fixture):
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(open_fixture),
        {
            "sheet": korova_sheet(open_fixture, KOROVA_AWAY_WINS),
            "based_on_version": 0,
            "note": "x" * 251,
        },
        format="json",
    )
    assert response.status_code == 400 and "note" in response.json()
    assert snapshot() == before


def test_malformed_json_is_400(world, open_fixture):
    response = token_client(world.crown_staff).post(
        result_url(open_fixture), "{not json", content_type="application/json"
    )
    assert response.status_code == 400 and "detail" in response.json()


# ---- 409: stale versions and void fixtures ------------------------------------------------


def test_a_stale_version_is_409_with_the_current_version_and_nothing_changes(world):
    fixture = world.fixtures[0]  # version 1 saved by the admin
    client = token_client(world.crown_staff)
    ok = client.post(
        result_url(fixture),
        {"sheet": korova_sheet(fixture, KOROVA_AWAY_WINS), "based_on_version": 1},
        format="json",
    )
    assert ok.status_code == 201 and ok.json()["version"] == 2
    before = snapshot()
    stale = client.post(
        result_url(fixture),
        {"sheet": korova_sheet(fixture, KOROVA_HOME_WINS), "based_on_version": 1},
        format="json",
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["current_version"]["version"] == 2
    assert body["current_version"]["winner"] == "away"
    assert "current version is 2" in body["based_on_version"][0]
    assert snapshot() == before


def test_a_first_result_racing_an_existing_one_is_409(world):
    fixture = world.fixtures[0]
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(fixture),
        {"sheet": korova_sheet(fixture, KOROVA_HOME_WINS), "based_on_version": 0},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["current_version"]["version"] == 1
    assert snapshot() == before


def test_a_version_from_the_future_is_409(world, open_fixture):
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(open_fixture),
        {"sheet": korova_sheet(open_fixture, KOROVA_HOME_WINS), "based_on_version": 4},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["current_version"] is None
    assert snapshot() == before


def test_a_void_fixture_takes_no_result(world, open_fixture):
    Fixture.objects.filter(pk=open_fixture.pk).update(status=Fixture.Status.VOID)
    before = snapshot()
    response = token_client(world.crown_staff).post(
        result_url(open_fixture),
        {"sheet": korova_sheet(open_fixture, KOROVA_HOME_WINS), "based_on_version": 0},
        format="json",
    )
    assert response.status_code == 409
    assert "void" in response.json()["detail"]
    assert snapshot() == before


def test_an_unknown_fixture_is_404(world):
    response = token_client(world.admin).post(
        "/api/fixtures/987654321/result/", {"sheet": {}, "based_on_version": 0}, format="json"
    )
    assert response.status_code == 404


# ---- refusals: who may not submit -----------------------------------------------------------


def payload(fixture) -> dict:
    return {"sheet": korova_sheet(fixture, KOROVA_AWAY_WINS), "based_on_version": 0}


@pytest.mark.parametrize("auth", ["session", "token"])
def test_staff_of_another_venue_are_refused_403(world, open_fixture, auth):
    client = token_client(world.anchor_staff) if auth == "token" else APIClient()
    if auth == "session":
        client.force_login(world.anchor_staff)
    before = snapshot()
    response = client.post(result_url(open_fixture), payload(open_fixture), format="json")
    assert response.status_code == 403
    assert "venue you serve" in response.json()["detail"]
    assert snapshot() == before


def test_a_player_of_the_fixture_submits_a_result_that_awaits_the_other_team(world, open_fixture):
    user = UserFactory(username="cara")
    Player.objects.filter(pk=open_fixture.home_team.members.first().player_id).update(user=user)
    response = token_client(user).post(
        result_url(open_fixture), payload(open_fixture), format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["confirmation"] == "awaiting" and body["source"] == "player"
    assert body["confirm_by"].endswith("Z")


def test_a_player_of_neither_team_is_refused_403(world, open_fixture):
    user = UserFactory(username="cara")
    other_team = TeamFactory()  # plays in the league, not in this fixture
    Player.objects.filter(pk=other_team.members.first().player_id).update(user=user)
    before = snapshot()
    response = token_client(user).post(
        result_url(open_fixture), payload(open_fixture), format="json"
    )
    assert response.status_code == 403
    assert snapshot() == before


def test_an_inactive_staff_member_is_refused(world, open_fixture):
    client = token_client(world.crown_staff)
    world.crown_staff.is_active = False
    world.crown_staff.save()
    before = snapshot()
    response = client.post(result_url(open_fixture), payload(open_fixture), format="json")
    assert response.status_code in (401, 403)
    assert snapshot() == before


def test_an_anonymous_visitor_is_refused_401(world, open_fixture):
    before = snapshot()
    response = APIClient().post(result_url(open_fixture), payload(open_fixture), format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")
    assert snapshot() == before


def test_a_wrong_token_is_refused_401(world, open_fixture):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    before = snapshot()
    response = client.post(result_url(open_fixture), payload(open_fixture), format="json")
    assert response.status_code == 401
    assert snapshot() == before


def test_a_refused_user_learns_nothing_from_a_bad_sheet(world, open_fixture):
    """Permission is checked before the sheet: another venue's staff get 403, not the errors."""
    sheet = korova_sheet(open_fixture, [[200, 0, 0, 0]])
    response = token_client(world.anchor_staff).post(
        result_url(open_fixture), {"sheet": sheet, "based_on_version": 0}, format="json"
    )
    assert response.status_code == 403


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"sheet": "not an object", "based_on_version": "one"},
        {"sheet": {}, "based_on_version": -1, "note": "x" * 10_000},
        "{not json",
    ],
)
def test_another_venues_staff_get_403_even_for_a_malformed_body(world, open_fixture, body):
    """Permission comes before validation: no field errors for someone who may not write."""
    client = token_client(world.anchor_staff)
    before = snapshot()
    if isinstance(body, str):
        response = client.post(result_url(open_fixture), body, content_type="application/json")
    else:
        response = client.post(result_url(open_fixture), body, format="json")
    assert response.status_code == 403
    assert set(response.json()) == {"detail"}
    assert snapshot() == before


def test_after_a_fixture_moves_venue_its_new_venues_staff_enter_the_result(world, open_fixture):
    relocated = fixture_relocate(
        fixture_id=open_fixture.pk, venue_id=world.anchor.pk, by=world.admin
    )
    assert relocated.venue_id == world.anchor.pk
    body = {"sheet": korova_sheet(open_fixture, KOROVA_HOME_WINS), "based_on_version": 0}
    old = token_client(world.crown_staff).post(result_url(open_fixture), body, format="json")
    assert old.status_code == 403
    new = token_client(world.anchor_staff).post(result_url(open_fixture), body, format="json")
    assert new.status_code == 201


def test_the_result_author_is_hidden_from_another_venues_staff(world):
    fixture = world.fixtures[0]  # at The Crown, saved by the league admin
    for path in (result_url(fixture), f"/api/fixtures/{fixture.pk}/results/"):
        seen = token_client(world.crown_staff).get(path).json()
        hidden = token_client(world.anchor_staff).get(path).json()
        first_seen = seen if isinstance(seen, dict) else seen[0]
        first_hidden = hidden if isinstance(hidden, dict) else hidden[0]
        assert first_seen["created_by"] == "league-admin", path
        assert first_hidden["created_by"] is None, path


def test_403_comes_before_409_through_the_api(world):
    """Another venue's staff sending a stale version, or writing to a void fixture, learn
    nothing about the fixture's versions or state: 403 either way."""
    played = world.fixtures[0]  # at The Crown, version 1 saved
    stale = {"sheet": korova_sheet(played, KOROVA_AWAY_WINS), "based_on_version": 0}
    client = token_client(world.anchor_staff)
    response = client.post(result_url(played), stale, format="json")
    assert response.status_code == 403
    assert "current_version" not in response.json()
    assert (
        token_client(world.crown_staff).post(result_url(played), stale, format="json").status_code
        == 409
    )


def test_a_result_for_a_fixture_weeks_ahead_is_409_naming_its_day(world, open_fixture):
    five_weeks = timezone.now() + datetime.timedelta(weeks=5)
    Fixture.objects.filter(pk=open_fixture.pk).update(starts_at=five_weeks)
    client = token_client(world.crown_staff)
    payload = {"sheet": korova_sheet(open_fixture, KOROVA_AWAY_WINS), "based_on_version": 0}
    before = snapshot()

    refused = client.post(result_url(open_fixture), payload, format="json")
    overriding = client.post(
        result_url(open_fixture), {**payload, "before_fixture_day": True}, format="json"
    )

    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "before_fixture_day"
    assert body["fixture_day"] == timezone.localdate(five_weeks).isoformat()
    assert "from that day on" in body["detail"]
    assert overriding.status_code == 403  # only a league admin may override
    assert snapshot() == before
    assert client.get(f"/api/fixtures/{open_fixture.pk}/result/").status_code == 404


def test_a_league_admin_records_a_result_before_the_fixtures_day(world, open_fixture):
    Fixture.objects.filter(pk=open_fixture.pk).update(
        starts_at=timezone.now() + datetime.timedelta(days=2)
    )
    payload = {
        "sheet": korova_sheet(open_fixture, KOROVA_AWAY_WINS),
        "based_on_version": 0,
        "before_fixture_day": True,
    }

    response = token_client(world.admin).post(result_url(open_fixture), payload, format="json")

    assert response.status_code == 201, response.json()
