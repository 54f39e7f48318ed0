"""POST /api/fixtures/{id}/result/confirm/ and /dispute/, and the table's "uncounted", as the
contract in docs/api.md says (docs/contracts.md, "Match night")."""

import pytest
from rest_framework.test import APIClient

from scoring.models import ResultVersion
from scoring.results import services
from tests.scoring.results.match_night import MatchNight, match_night

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def night() -> MatchNight:
    night = match_night()
    services.result_submit(
        fixture_id=night.fixture.pk, sheet=night.sheet(), based_on_version=0, by=night.home[0]
    )
    return night


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def url(night, what: str) -> str:
    return f"/api/fixtures/{night.fixture.pk}/result/{what}/"


def version_count(night) -> int:
    return ResultVersion.objects.filter(fixture=night.fixture).count()


def test_a_player_of_the_other_team_confirms_and_gets_the_confirmed_result(night):
    response = as_user(night.away[0]).post(url(night, "confirm"), {"version": 1}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["version"] == 2 and body["confirmation"] == "confirmed"
    assert body["confirm_by"] is None and body["is_current"] is True


def test_the_result_shows_awaiting_with_its_deadline_in_utc(night):
    body = APIClient().get(url(night, "")[:-1]).json()  # GET /api/fixtures/{id}/result/
    assert body["confirmation"] == "awaiting"
    assert body["confirm_by"].endswith("Z")


@pytest.mark.parametrize("who", ["enterer", "partner", "stranger", "staff", "other_staff"])
def test_everyone_else_is_refused_403_and_nothing_is_written(night, who):
    user = {
        "enterer": night.home[0],
        "partner": night.home[1],
        "stranger": night.stranger,
        "staff": night.staff,
        "other_staff": night.other_staff,
    }[who]
    for what, body in (("confirm", {"version": 1}), ("dispute", {"version": 1, "reason": "x"})):
        response = as_user(user).post(url(night, what), body, format="json")
        assert response.status_code == 403, (what, response.json())
        assert "detail" in response.json()
    assert version_count(night) == 1


def test_anonymous_is_told_to_authenticate(night):
    response = APIClient().post(url(night, "confirm"), {"version": 1}, format="json")
    assert response.status_code in (401, 403)
    assert version_count(night) == 1


def test_a_version_that_is_not_the_current_one_is_409_with_the_current_version(night):
    client = as_user(night.away[0])
    assert client.post(url(night, "confirm"), {"version": 1}, format="json").status_code == 200
    for what, body in (("confirm", {"version": 1}), ("dispute", {"version": 1, "reason": "x"})):
        response = client.post(url(night, what), body, format="json")
        assert response.status_code == 409
        assert response.json()["version"] == 2 and response.json()["detail"]
    # Confirming a confirmed result again: 409 too (it no longer awaits an answer).
    again = client.post(url(night, "confirm"), {"version": 2}, format="json")
    assert again.status_code == 409 and again.json()["version"] == 2
    assert version_count(night) == 2


def test_a_dispute_needs_a_reason_400_naming_it(night):
    client = as_user(night.away[1])
    for body in ({"version": 1}, {"version": 1, "reason": ""}):
        response = client.post(url(night, "dispute"), body, format="json")
        assert response.status_code == 400 and "reason" in response.json()
    assert version_count(night) == 1


def test_a_dispute_is_disputed_and_out_of_the_table(night):
    response = as_user(night.away[1]).post(
        url(night, "dispute"), {"version": 1, "reason": "Round 2 was 40"}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["confirmation"] == "disputed" and body["note"] == "Round 2 was 40"
    assert body["confirm_by"] is None
    standings = APIClient().get(f"/api/seasons/{night.fixture.season_id}/standings/").json()
    assert standings["uncounted"] == [night.fixture.pk]


def test_the_table_counts_the_result_once_confirmed(night):
    season = night.fixture.season_id
    assert APIClient().get(f"/api/seasons/{season}/standings/").json()["uncounted"] == [
        night.fixture.pk
    ]
    as_user(night.away[0]).post(url(night, "confirm"), {"version": 1}, format="json")
    standings = APIClient().get(f"/api/seasons/{season}/standings/").json()
    assert standings["uncounted"] == []


@pytest.mark.parametrize("who", ["enterer", "partner"])
@pytest.mark.parametrize(
    "what, body",
    [
        ("confirm", {"version": 7}),  # a stale (or unknown) version: still 403, not 409
        ("confirm", {}),  # no version at all: 403, not 400
        ("dispute", {"version": 7, "reason": "x"}),
        ("dispute", {"version": 1, "reason": ""}),  # an empty reason: 403, not 400
        ("dispute", {"version": 7}),
    ],
)
def test_the_entering_team_is_refused_403_whatever_the_version_or_the_body(night, who, what, body):
    user = night.home[0] if who == "enterer" else night.home[1]
    response = as_user(user).post(url(night, what), body, format="json")
    assert response.status_code == 403, response.json()
    assert "entered this result" in response.json()["detail"]
    assert version_count(night) == 1


@pytest.mark.parametrize("what", ["confirm", "dispute"])
def test_once_answered_the_entering_team_is_still_refused_403_not_409(night, what):
    """After the other team's answer the enterer's stale version is theirs to answer no more."""
    as_user(night.away[0]).post(url(night, "confirm"), {"version": 1}, format="json")
    for user in night.home:
        response = as_user(user).post(url(night, what), {"version": 1, "reason": ""}, format="json")
        assert response.status_code == 403, response.json()
    # The other team's player, who may answer, is told the version is stale (409) ...
    stale = as_user(night.away[1]).post(
        url(night, what), {"version": 1, "reason": "x"}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["version"] == 2
    assert version_count(night) == 2


def test_for_the_other_team_the_version_comes_before_the_reason(night):
    client = as_user(night.away[0])
    assert client.post(url(night, "confirm"), {"version": 1}, format="json").status_code == 200
    for body in ({"version": 1, "reason": ""}, {"version": 1}):
        response = client.post(url(night, "dispute"), body, format="json")
        assert response.status_code == 409 and response.json()["version"] == 2
    assert version_count(night) == 2
