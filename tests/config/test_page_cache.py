"""Public pages for anonymous visitors come from the shared cache (config/page_cache.py): built
once per address and language, renewed by any league write, never shown to a logged-in
reader, and each visitor still gets a CSRF token of their own that their forms can use."""

import os
import re

import pytest
import redis
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config.settings import redis_cache
from tests.api.conftest import KOROVA_AWAY_WINS, build_world, korova_sheet

pytestmark = pytest.mark.django_db

TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
ANY_TOKEN = re.compile(rb"[A-Za-z0-9]{64}")  # the form's and htmx's header's


@pytest.fixture
def shared_cache(settings, worker_id):
    """The production arrangement: a Redis cache (a database of this test worker's own)."""
    base = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
    number = 12 + (int(worker_id[2:]) if worker_id.startswith("gw") else 0)
    settings.CACHES = {"default": redis_cache(f"{base}/{number}")}
    settings.PAGE_CACHE_SECONDS = 30
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_world()


def season_url(world) -> str:
    return reverse("season-detail", args=[world.league.slug, world.season.slug])


def test_a_second_visitor_is_served_without_a_query(shared_cache, world, django_assert_num_queries):
    first = Client().get(season_url(world))
    assert first.status_code == 200
    with django_assert_num_queries(0):
        second = Client().get(season_url(world))
    assert second.status_code == 200
    assert ANY_TOKEN.sub(b"", second.content) == ANY_TOKEN.sub(b"", first.content)


def test_each_visitor_gets_a_working_token_of_their_own(shared_cache, world):
    Client().get(season_url(world))  # kept
    visitors = [Client(enforce_csrf_checks=True) for _ in range(2)]
    tokens = []
    for visitor in visitors:
        page = visitor.get(season_url(world))
        assert b"page_cache_csrf_token_placeholder" not in page.content
        assert "csrftoken" in page.cookies  # the first visit is given its cookie
        tokens.append(TOKEN.search(page.content).group(1).decode())
    assert tokens[0] != tokens[1]
    for visitor, token in zip(visitors, tokens, strict=True):
        switched = visitor.post(
            reverse("language-choose"),
            {"language": "fi", "next": season_url(world), "csrfmiddlewaretoken": token},
        )
        assert switched.status_code == 302  # the switcher's form works: not a 403 CSRF page
    swapped = visitors[0].post(
        reverse("language-choose"), {"language": "ru", "csrfmiddlewaretoken": "x" * 64}
    )
    assert swapped.status_code == 403  # the token is still checked


def test_a_result_entered_shows_at_once(shared_cache, world, django_capture_on_commit_callbacks):
    fixture = world.fixtures[4]  # round 3, not played yet
    pages = [season_url(world), reverse("fixture-detail", args=[fixture.pk])]
    before = [ANY_TOKEN.sub(b"", Client().get(page).content) for page in pages]
    with django_capture_on_commit_callbacks(execute=True):
        world.submit(fixture, korova_sheet(fixture, KOROVA_AWAY_WINS))
    served = [ANY_TOKEN.sub(b"", Client().get(page).content) for page in pages]
    cache.clear()
    built = [ANY_TOKEN.sub(b"", Client().get(page).content) for page in pages]
    assert served == built  # what a visitor reads is the page as built after the result
    assert served[0] != before[0] and served[1] != before[1]


def test_a_logged_in_reader_is_never_served_the_kept_page(shared_cache, world):
    Client().get(season_url(world))
    reader = Client()
    reader.force_login(world.crown_staff)
    page = reader.get(season_url(world))
    assert b"crown-staff" in page.content  # their own header, with Log out
    assert b"crown-staff" not in Client().get(season_url(world)).content


def test_each_language_is_kept_apart(shared_cache, world):
    english = Client().get(season_url(world), HTTP_ACCEPT_LANGUAGE="en-GB")
    finnish = Client().get(season_url(world), HTTP_ACCEPT_LANGUAGE="fi")
    assert english.content.startswith(b"<!") and b'lang="en-gb"' in english.content
    assert b'lang="fi"' in finnish.content
    again = Client().get(season_url(world), HTTP_ACCEPT_LANGUAGE="fi")
    assert b'lang="fi"' in again.content


def test_nothing_is_kept_without_a_shared_cache(world, settings):
    assert settings.PAGE_CACHE_SECONDS == 0  # the embedded default: an in-process cache only
    Client().get(season_url(world))
    with CaptureQueriesContext(connection) as queries:
        Client().get(season_url(world))
    assert len(queries) > 0  # built again


def test_made_up_query_parameters_are_not_kept(shared_cache, world, settings):
    """Each made-up parameter would otherwise keep another copy of the page; the parameter a
    page reads (the fixtures' ?division=) is kept per value."""
    fixtures = reverse("season-fixtures", args=[world.league.slug, world.season.slug])
    division = world.season.divisions.get()

    kept = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])

    def kept_pages() -> int:
        return len(kept.keys("*page-cache:*:*:*"))

    for number in range(5):
        assert Client().get(f"{season_url(world)}?x={number}").status_code == 200
    assert kept_pages() == 0
    for _ in range(2):
        assert Client().get(f"{fixtures}?division={division.pk}").status_code == 200
    assert Client().get(fixtures).status_code == 200
    assert kept_pages() == 2
