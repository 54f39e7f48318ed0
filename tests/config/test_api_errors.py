"""Every error under /api/ is JSON with a "detail": also an oversize body (413, before anything
reads it), a request Django itself refuses (400, 403) and a bug (500); the pages keep HTML."""

import json

import pytest
from django.test import Client

from scoring.models import ResultVersion
from tests.api.conftest import build_world, korova_sheet, token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_world()


@pytest.fixture
def production(settings):
    """Django's own error pages are shown only with DEBUG off (DEBUG shows tracebacks)."""
    settings.DEBUG = False
    return Client(raise_request_exception=False)


def assert_json_error(response, status: int) -> str:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    return response.json()["detail"]


@pytest.mark.parametrize("content_type", ["application/json", "application/x-www-form-urlencoded"])
def test_a_body_over_the_upload_limit_is_413_json_and_changes_nothing(
    world, settings, content_type
):
    fixture = world.fixtures[5]
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    body = {"sheet": korova_sheet(fixture, [[1, 2, 3, 4]]), "based_on_version": 0, "note": padding}
    data = json.dumps(body) if content_type == "application/json" else f"note={padding}"
    before = ResultVersion.objects.count()
    response = token_client(world.crown_staff).generic(
        "POST", f"/api/fixtures/{fixture.pk}/result/", data, content_type=content_type
    )
    assert "over the limit" in assert_json_error(response, 413)
    assert ResultVersion.objects.count() == before


def test_an_oversize_login_through_the_session_is_413_too(world, settings):
    client = Client()
    client.force_login(world.crown_staff)
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(f"/api/fixtures/{world.fixtures[5].pk}/result/", {"note": padding})
    assert_json_error(response, 413)


def test_a_bug_in_an_api_view_is_a_json_500(world, production, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("scoring.standings.api.season_standings", broken)
    response = production.get(f"/api/seasons/{world.season.pk}/standings/")
    detail = assert_json_error(response, 500)
    assert "a bug" not in detail


def test_a_request_django_refuses_under_api_is_json(world, production):
    # A host not in ALLOWED_HOSTS: refused by Django before any view (SuspiciousOperation).
    response = production.get("/api/leagues/", HTTP_HOST="evil.example")
    assert_json_error(response, 400)


def test_pages_keep_their_html_error_pages(world, production):
    response = production.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
