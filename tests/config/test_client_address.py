"""The client's address, for the token endpoint's throttle and the login lockout alike, over real
HTTP to a live server: X-Forwarded-For counts only as far as TRUSTED_PROXY_COUNT says proxies
wrote it (the Nth entry from the right behind N proxies), and not at all without a proxy.

Every request leaves from a loopback address of the test's choosing (127.0.0.x, all this
machine), so "the attacker" and "the victim" are different connecting addresses."""

import http.client
import json
import urllib.parse

import pytest
from django.test import RequestFactory

from config.client_address import client_address
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN_URL = "/api/auth/token/"
ATTACKER, VICTIM = "127.0.0.1", "127.0.0.2"
LIMIT = 10  # API_TOKEN_RATE's default, 10/minute


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def ask_token(
    live_server, *, source: str, forwarded_for: str | None = None, username: str, password="x"
) -> int:
    """POST the token endpoint on a new connection from `source`; the answer's status."""
    address = urllib.parse.urlsplit(live_server.url)
    connection = http.client.HTTPConnection(
        address.hostname, address.port, timeout=30, source_address=(source, 0)
    )
    headers = {"Content-Type": "application/json"}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    try:
        body = json.dumps({"username": username, "password": password})
        connection.request("POST", TOKEN_URL, body=body, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_without_a_proxy_a_new_forwarded_for_on_each_request_does_not_escape_the_throttle(
    live_server,
):
    codes = [
        ask_token(
            live_server, source=ATTACKER, forwarded_for=f"198.51.100.{n}", username=f"guess{n}"
        )
        for n in range(40)
    ]
    assert codes[:LIMIT] == [400] * LIMIT
    assert codes[LIMIT:] == [429] * (40 - LIMIT)


def test_without_a_proxy_naming_the_victims_address_does_not_spend_their_allowance(live_server):
    for n in range(LIMIT + 2):
        ask_token(live_server, source=ATTACKER, forwarded_for=VICTIM, username=f"guess{n}")
    assert ask_token(live_server, source=VICTIM, username="victim") == 400  # not 429


def test_behind_one_proxy_the_address_the_proxy_appended_is_throttled(live_server, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The test plays the proxy: whatever the client sent, then the address it came from.
    codes = [
        ask_token(
            live_server,
            source=ATTACKER,
            forwarded_for=f"198.51.100.{n}, 203.0.113.7",
            username=f"guess{n}",
        )
        for n in range(LIMIT + 2)
    ]
    assert codes == [400] * LIMIT + [429, 429]
    # Someone else through the same proxy keeps their own allowance.
    assert ask_token(live_server, source=ATTACKER, forwarded_for="203.0.113.8", username="x") == 400


def test_behind_one_proxy_a_lockout_holds_the_proxy_appended_address_only(live_server, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    UserFactory(username="landlord")
    for n in range(5):  # LOGIN_FAILURE_LIMIT
        spoofed = f"198.51.100.{n}, 203.0.113.7"
        ask_token(live_server, source=ATTACKER, forwarded_for=spoofed, username="landlord")
    locked = ask_token(
        live_server,
        source=ATTACKER,
        forwarded_for="198.51.100.99, 203.0.113.7",
        username="landlord",
        password=PASSWORD,
    )
    assert locked == 429
    # The landlord at the bar, through the same proxy, signs in.
    at_the_bar = ask_token(
        live_server,
        source=ATTACKER,
        forwarded_for="203.0.113.8",
        username="landlord",
        password=PASSWORD,
    )
    assert at_the_bar == 200


@pytest.mark.parametrize(
    ("proxies", "forwarded_for", "expected"),
    [
        (0, "198.51.100.1", "192.0.2.1"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),
        (2, "198.51.100.1, 203.0.113.7, 10.0.0.2", "203.0.113.7"),
        # Fewer entries than proxies: the request skipped the outer ones; the left-most entry
        # was still written by a proxy of ours.
        (2, "203.0.113.7", "203.0.113.7"),
        (1, None, "192.0.2.1"),
        # What a proxy of ours wrote is not an address (a misconfigured proxy): the connection's.
        (1, "198.51.100.1, not-an-address", "192.0.2.1"),
        (1, "198.51.100.1, ", "192.0.2.1"),
        (1, "2001:db8::7", "2001:db8::7"),
    ],
)
def test_the_client_address_is_the_nth_forwarded_entry_from_the_right(
    settings, proxies, forwarded_for, expected
):
    settings.TRUSTED_PROXY_COUNT = proxies
    extra = {} if forwarded_for is None else {"HTTP_X_FORWARDED_FOR": forwarded_for}
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", **extra)
    assert client_address(request) == expected
