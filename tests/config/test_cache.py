"""A cache outage costs speed, not pages: with CACHE_URL at a Redis that refuses connections,
or one that accepts them and never answers, the standings page and API still answer 200
quickly, computed from the database, with a warning in the log. Real sockets, no mocks."""

import logging
import os
import socket
import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from config.settings import redis_cache
from tests.api.conftest import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_world()


@pytest.fixture
def refused_port():
    """A port on which nothing listens: connecting is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def silent_port():
    """A listener that accepts connections (the kernel does) and never reads or answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    yield listener.getsockname()[1]
    listener.close()


def standings_urls(world) -> list[str]:
    page = reverse(
        "season-detail",
        kwargs={"league_slug": world.league.slug, "season_slug": world.season.slug},
    )
    return [page, f"/api/seasons/{world.season.pk}/standings/"]


def fetch_all(client, world):
    started = time.monotonic()
    responses = [client.get(url) for url in standings_urls(world)]
    return responses, time.monotonic() - started


@pytest.mark.parametrize("outage", ["refused_port", "silent_port"])
def test_standings_answer_200_without_the_cache_and_warn(
    client, world, settings, caplog, outage, request
):
    port = request.getfixturevalue(outage)
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{port}/0")}
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        responses, took = fetch_all(client, world)
    assert [response.status_code for response in responses] == [200, 200]
    assert "Crown Jewels" in responses[0].content.decode()
    assert responses[1].json()["rows"][0]["team"]["name"] == "Crown Jewels"
    assert took < 3, f"took {took:.1f} s"
    assert any("unavailable" in record.getMessage() for record in caplog.records)


def test_a_silent_cache_is_not_asked_again_at_once(client, world, settings, silent_port):
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{silent_port}/0")}
    fetch_all(client, world)  # pays one read timeout and stops asking
    _, took = fetch_all(client, world)
    assert took < 0.3, f"took {took:.2f} s"


def test_a_working_redis_still_caches_the_table(client, world, settings):
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
    settings.CACHES = {"default": redis_cache(f"{url}/15")}
    cache.clear()
    client.get(standings_urls(world)[1])
    cached = [key for key in cache._cache.get_client().keys("*") if b"standings" in key]
    assert cached
    cache.clear()
