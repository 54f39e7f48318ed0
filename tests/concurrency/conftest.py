"""What the concurrency tests share: fast password hashing for their logins, and one way to
POST JSON to the live server from a thread (its own connection per request)."""

import http.client
import json
import urllib.parse

import pytest


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def post_json(live_server, path: str, token: str, body: dict) -> tuple[int, dict]:
    address = urllib.parse.urlsplit(live_server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        connection.request(
            "POST", path, body=json.dumps(body),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )  # fmt: skip
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()
