"""The match night API's schedule (docs/api.md "Match night"): new dates proposed by one team
and answered by the other, and availability; every refusal of the contract."""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Availability, Entry, Fixture, RescheduleProposal, Reserve
from leagues.services import fixture_status_change
from tests.factories import (
    FixtureFactory,
    PlayerFactory,
    StaffMembershipFactory,
    UserFactory,
    team_player_user,
)

pytestmark = pytest.mark.django_db

NEXT_WEEK = (timezone.now() + datetime.timedelta(days=7)).replace(microsecond=0)


def as_user(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def fixture():
    return FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=1))


@pytest.fixture
def people(fixture):
    return {
        "home": team_player_user(fixture.home_team, 1),
        "home partner": team_player_user(fixture.home_team, 2),
        "away": team_player_user(fixture.away_team, 1),
        "staff": StaffMembershipFactory(venue=fixture.venue).user,
        "stranger": UserFactory(),
    }


def propose(fixture, user, **body):
    body = {"starts_at": NEXT_WEEK.isoformat(), "message": "Quiz night", **body}
    return as_user(user).post(f"/api/fixtures/{fixture.pk}/reschedule/", body, format="json")


def test_one_team_proposes_and_the_other_accepts_the_fixture_moves(fixture, people):
    response = propose(fixture, people["home"])
    assert response.status_code == 201, response.json()
    proposal = response.json()
    assert {"id", "starts_at", "status"} <= set(proposal)
    assert proposal["status"] == "proposed"

    response = as_user(people["away"]).post(f"/api/reschedules/{proposal['id']}/accept/")

    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "accepted"
    fixture.refresh_from_db()
    assert fixture.starts_at == NEXT_WEEK
    detail = as_user(None).get(f"/api/fixtures/{fixture.pk}/").json()
    assert datetime.datetime.fromisoformat(detail["starts_at"]) == NEXT_WEEK


def test_decline_keeps_the_date(fixture, people):
    before = fixture.starts_at
    proposal = propose(fixture, people["away"]).json()
    response = as_user(people["home partner"]).post(f"/api/reschedules/{proposal['id']}/decline/")
    assert (response.status_code, response.json()["status"]) == (200, "declined")
    fixture.refresh_from_db()
    assert fixture.starts_at == before


@pytest.mark.parametrize("who", ["stranger", "staff"])
def test_anyone_but_a_player_of_the_fixture_cannot_propose(fixture, people, who):
    response = propose(fixture, people[who], starts_at="not a date")
    assert response.status_code == 403
    assert not RescheduleProposal.objects.exists()


def test_anonymous_proposal_is_401(fixture):
    assert propose(fixture, None).status_code == 401


@pytest.mark.parametrize("who", ["home", "home partner", "stranger", "staff"])
@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_the_proposing_team_and_outsiders_cannot_answer(fixture, people, who, answer):
    proposal = propose(fixture, people["home"]).json()
    response = as_user(people[who]).post(f"/api/reschedules/{proposal['id']}/{answer}/")
    assert response.status_code == 403, response.json()
    assert RescheduleProposal.objects.get().status == "proposed"


def test_a_second_open_proposal_is_409(fixture, people):
    propose(fixture, people["home"])
    response = propose(fixture, people["away"])
    assert response.status_code == 409
    assert "detail" in response.json()
    assert RescheduleProposal.objects.count() == 1


@pytest.mark.parametrize("status", ["played", "void"])
def test_a_played_or_void_fixture_is_409(fixture, people, status):
    Fixture.objects.filter(pk=fixture.pk).update(status=status)
    assert propose(fixture, people["home"]).status_code == 409


def test_accepting_when_the_fixture_was_played_meanwhile_is_409(fixture, people):
    proposal = propose(fixture, people["home"]).json()
    Fixture.objects.filter(pk=fixture.pk).update(status="played")
    response = as_user(people["away"]).post(f"/api/reschedules/{proposal['id']}/accept/")
    assert response.status_code == 409


@pytest.mark.parametrize("starts_at", ["2020-01-01T19:30:00Z", "tomorrow", ""])
def test_a_past_or_bad_date_is_400_naming_starts_at(fixture, people, starts_at):
    response = propose(fixture, people["home"], starts_at=starts_at)
    assert response.status_code == 400
    assert "starts_at" in response.json()
    assert not RescheduleProposal.objects.exists()


def test_an_already_decided_proposal_is_409(fixture, people):
    proposal = propose(fixture, people["home"]).json()
    as_user(people["away"]).post(f"/api/reschedules/{proposal['id']}/decline/")
    for answer in ("accept", "decline"):
        response = as_user(people["away"]).post(f"/api/reschedules/{proposal['id']}/{answer}/")
        assert response.status_code == 409


def test_an_unknown_fixture_or_proposal_is_404(people):
    assert as_user(people["home"]).post("/api/reschedules/999999/accept/").status_code == 404
    response = as_user(people["home"]).post(
        "/api/fixtures/999999/reschedule/", {"starts_at": NEXT_WEEK.isoformat()}, format="json"
    )
    assert response.status_code == 404


# ---- Availability -----------------------------------------------------------------------------


def test_players_and_reserves_say_whether_they_can_play_and_anyone_reads_it(fixture, people):
    reserve = PlayerFactory(user=UserFactory())
    Reserve.objects.create(
        entry=Entry.objects.create(season=fixture.season, team=fixture.away_team), player=reserve
    )
    url = f"/api/fixtures/{fixture.pk}/availability/"
    response = as_user(people["away"]).put(url, {"available": False}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["available"] is False
    assert as_user(reserve.user).put(url, {"available": True}, format="json").status_code == 200

    read = as_user(None).get(url).json()
    assert read["fixture"] == fixture.pk
    assert [mark["available"] for mark in read["away"]["players"]] == [False, None]
    assert [mark["player"] for mark in read["away"]["stand_ins"]] == [reserve.pk]
    assert read["home"]["stand_ins"] == []


@pytest.mark.parametrize("who", ["stranger", "staff"])
def test_availability_of_anyone_else_is_403(fixture, people, who):
    url = f"/api/fixtures/{fixture.pk}/availability/"
    response = as_user(people[who]).put(url, {"available": "maybe"}, format="json")
    assert response.status_code == 403
    assert not Availability.objects.exists()


def test_availability_needs_a_boolean_and_an_open_fixture(fixture, people):
    url = f"/api/fixtures/{fixture.pk}/availability/"
    response = as_user(people["home"]).put(url, {"available": "maybe"}, format="json")
    assert response.status_code == 400 and "available" in response.json()
    assert as_user(None).put(url, {"available": True}, format="json").status_code == 401
    Fixture.objects.filter(pk=fixture.pk).update(status="void")
    assert as_user(people["home"]).put(url, {"available": True}, format="json").status_code == 409
    assert not Availability.objects.exists()


def test_accepting_a_proposal_closed_by_staffs_own_move_is_409(fixture, people):
    proposal = propose(fixture, people["home"]).json()
    moved_to = NEXT_WEEK + datetime.timedelta(days=2)
    fixture_status_change(
        fixture_id=fixture.pk, status="scheduled", starts_at=moved_to, by=people["staff"]
    )
    response = as_user(people["away"]).post(f"/api/reschedules/{proposal['id']}/accept/")
    assert response.status_code == 409 and response.json()["detail"]
    fixture.refresh_from_db()
    assert fixture.starts_at == moved_to
    assert RescheduleProposal.objects.get(pk=proposal["id"]).status == "withdrawn"
