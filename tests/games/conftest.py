"""Live-table fixtures: users with API tokens got the way clients get them."""

import pytest
from rest_framework.test import APIClient

from tests.factories import PASSWORD, UserFactory


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def moves_unthrottled(monkeypatch):
    """For tests that play whole games through the API at machine speed: a person never makes
    120 moves a minute, a test does (a Conquian single can take more); the throttle itself is
    tested with its real rate."""
    from games.live.throttles import TableMoveThrottle

    monkeypatch.setattr(TableMoveThrottle, "rate", "1000000/minute", raising=False)


def token_for(user) -> str:
    """A token from POST /api/auth/token/, as any client of the API gets one: each player
    from their own phone (address), since the endpoint is throttled per address."""
    address = f"10.{user.pk // 65536 % 256}.{user.pk // 256 % 256}.{user.pk % 256}"
    response = APIClient().post(
        "/api/auth/token/",
        {"username": user.username, "password": PASSWORD},
        format="json",
        REMOTE_ADDR=address,
    )
    assert response.status_code == 200, response.content
    return response.json()["token"]


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def players(db):
    """Four users and an API client for each."""
    users = [UserFactory(username=f"seat{n}", first_name=name) for n, name in
             enumerate(["Ada", "Bo", "Cal", "Dee"])]  # fmt: skip
    return [(user, client_for(user)) for user in users]
