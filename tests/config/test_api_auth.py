"""API tokens: expiring, stored hashed, revoked by logout and by a password change; the token
endpoint is throttled per address (429 with Retry-After)."""

import datetime

import pytest
from django.core.cache import cache
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import PASSWORD, StaffMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"
WHO_AM_I = "/api/auth/logout/"  # any endpoint that needs a token


@pytest.fixture(autouse=True)
def _fast_hasher_and_fresh_throttle(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()


@pytest.fixture
def staff():
    return StaffMembershipFactory(user=UserFactory(username="crown")).user


def get_token(client, username="crown", password=PASSWORD):
    return client.post(TOKEN_URL, {"username": username, "password": password}, format="json")


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def works(token: str) -> bool:
    """Whether the token authenticates (the result API answers 400, not 401, to an empty body)."""
    response = with_token(token).post("/api/fixtures/999999/result/", {}, format="json")
    return response.status_code != 401


def test_the_token_endpoint_answers_a_new_expiring_token_for_good_credentials(staff):
    client = APIClient()
    first = get_token(client)
    assert first.status_code == 200
    body = first.json()
    assert set(body) == {"token", "expiry"}
    expiry = parse_datetime(body["expiry"])
    lifetime = expiry - timezone.now()
    assert datetime.timedelta(days=6, hours=23) < lifetime <= datetime.timedelta(days=7)
    second = get_token(client)
    assert second.json()["token"] != body["token"]
    assert works(body["token"]) and works(second.json()["token"])


def test_a_wrong_password_is_400_naming_no_field(staff):
    response = get_token(APIClient(), password="wrong")
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["Unable to log in with provided credentials."]}


def test_tokens_are_stored_only_as_a_hash(staff):
    token = get_token(APIClient()).json()["token"]
    stored = AuthToken.objects.get(user=staff)
    assert token not in (stored.digest, stored.token_key)
    assert stored.digest != token and len(stored.digest) == 128


def test_an_expired_token_is_refused_401(staff):
    token = get_token(APIClient()).json()["token"]
    AuthToken.objects.filter(user=staff).update(expiry=timezone.now() - datetime.timedelta(1))
    assert not works(token)


def test_logout_revokes_only_the_token_it_is_sent_with(staff):
    phone = get_token(APIClient()).json()["token"]
    laptop = get_token(APIClient()).json()["token"]
    assert with_token(phone).post("/api/auth/logout/").status_code == 204
    assert not works(phone)
    assert works(laptop)


def test_logout_all_revokes_every_token_of_the_user(staff):
    other = UserFactory(username="lion")
    phone = get_token(APIClient()).json()["token"]
    laptop = get_token(APIClient()).json()["token"]
    theirs = get_token(APIClient(), username="lion").json()["token"]
    assert with_token(phone).post("/api/auth/logout-all/").status_code == 204
    assert not works(phone) and not works(laptop)
    assert works(theirs) and other.is_active


def test_logout_without_a_token_is_401_json():
    response = APIClient().post("/api/auth/logout/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert "detail" in response.json()


def test_changing_the_password_on_the_site_revokes_every_token(client, staff):
    token = get_token(APIClient()).json()["token"]
    client.force_login(staff)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-passphrase-42",
            "new_password2": "another-long-passphrase-42",
        },
    )
    assert response.status_code == 302
    assert not works(token)


def test_a_password_set_anywhere_else_revokes_the_tokens_too(staff):
    token = get_token(APIClient()).json()["token"]
    staff.set_password("another-long-passphrase-42")
    staff.save()
    assert not works(token)


def test_the_token_endpoint_is_throttled_per_address_with_retry_after(staff, settings):
    client = APIClient()
    answers = [get_token(client, username=f"guess{n}", password="x") for n in range(12)]
    codes = [answer.status_code for answer in answers]
    assert codes[:10] == [400] * 10
    assert codes[10:] == [429, 429]
    assert int(answers[10]["Retry-After"]) > 0
    assert "detail" in answers[10].json()
    elsewhere = APIClient(REMOTE_ADDR="10.1.2.3")
    assert get_token(elsewhere).status_code == 200
