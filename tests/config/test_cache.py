"""A cache outage costs speed, not pages: with CACHE_URL at a Redis that refuses connections,
or one that accepts them and never answers, the standings page and API still answer 200
quickly, computed from the database, with a warning in the log. Real sockets, no mocks."""

import logging
import os
import socket
import threading
import time
import urllib.request

import pytest
import redis
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


class SilentServer:
    """Accepts connections (and counts them), never reads or answers."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.held = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(connection)

    def close(self):
        self.listener.close()
        for connection in self.held:
            connection.close()


@pytest.fixture
def silent_server():
    server = SilentServer()
    yield server
    server.close()


@pytest.fixture
def silent_port(silent_server):
    return silent_server.port


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


def test_a_silent_cache_is_not_asked_again_at_once(client, world, settings, silent_server):
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{silent_server.port}/0")}
    fetch_all(client, world)  # pays one read timeout and stops asking
    asked = len(silent_server.held)
    assert asked >= 1
    responses, _ = fetch_all(client, world)
    assert [response.status_code for response in responses] == [200, 200]
    assert len(silent_server.held) == asked  # no new connection: the cache was left alone


def test_a_working_redis_still_caches_the_table(client, world, settings):
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
    settings.CACHES = {"default": redis_cache(f"{url}/15")}
    cache.clear()
    client.get(standings_urls(world)[1])
    cached = [key for key in cache._cache.get_client().keys("*") if b"standings" in key]
    assert cached
    cache.clear()


class CountingConnection(redis.Connection):
    """A real connection to the test Redis that counts how often one is opened."""

    opened = 0

    def connect(self):
        if self._sock is None:
            type(self).opened += 1
        super().connect()


@pytest.mark.django_db(transaction=True)
def test_requests_under_asgi_share_one_redis_connection(live_server, settings):
    """Django makes a cache client per request under ASGI; each opened its own connection
    (a tenth of the web server's CPU on a pub night's bench). Twenty page reads through the
    ASGI server now reuse the process's pool."""
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
    settings.CACHES = {
        "default": {
            **redis_cache(f"{url}/15"),
            "OPTIONS": {"connection_class": CountingConnection},
        }
    }
    settings.PAGE_CACHE_SECONDS = 30  # anonymous pages are read from the cache
    CountingConnection.opened = 0
    for _ in range(20):
        with urllib.request.urlopen(live_server.url + reverse("home")) as response:
            assert response.status == 200
    assert 1 <= CountingConnection.opened <= 2
