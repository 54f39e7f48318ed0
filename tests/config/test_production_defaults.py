"""Production defaults: JSON-only API without DEBUG (no browsable API), Cache-Control: private on
staff pages and pages of logged-in users, a Content-Security-Policy on every page (the
browser test tests/browser/test_csp.py shows the pages work under it), and X-Forwarded-Proto
believed only from a trusted proxy."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories import StaffMembershipFactory

ROOT = Path(__file__).resolve().parents[2]


# What the machine's shell may have that the settings under test must not see.
SETTINGS_FROM_THE_SHELL = {"DEBUG", "SECRET_KEY", "CACHE_URL", "TRUSTED_PROXY_COUNT"}


def manage(*args: str, **environment: str) -> subprocess.CompletedProcess:
    """manage.py in a fresh process, with the given settings and a secret key."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_FROM_THE_SHELL}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "SECRET_KEY": secrets.token_urlsafe(50), **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


def shell_json(code: str, **environment: str):
    """What `code` printed last, as JSON, run in `manage.py shell`."""
    result = manage("shell", "-c", code, **environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def renderers_with(debug: str) -> list[str]:
    code = (
        "import json; from django.conf import settings as s; "
        "print(json.dumps(s.REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES']))"
    )
    return shell_json(code, DEBUG=debug)


def test_the_browsable_api_is_off_without_debug():
    assert renderers_with("0") == ["rest_framework.renderers.JSONRenderer"]
    assert "rest_framework.renderers.BrowsableAPIRenderer" in renderers_with("1")


@pytest.mark.django_db
def test_staff_pages_and_pages_for_logged_in_users_are_private(client):
    assert "private" not in client.get("/").get("Cache-Control", "")
    staff = StaffMembershipFactory().user
    client.force_login(staff)
    for path in ["/staff/", "/"]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert "private" in response["Cache-Control"], path


@pytest.mark.django_db
def test_every_page_carries_the_content_security_policy(client):
    for path in ["/", "/accounts/login/", "/api/leagues/", "/api/docs/"]:
        policy = client.get(path)["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "object-src 'none'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path


# A plain-HTTP request claiming to have come through HTTPS: is it believed, and is it
# redirected to HTTPS (DEBUG off)? [request.is_secure(), status, Location]
CLAIMS_HTTPS = """
import json
from django.middleware.security import SecurityMiddleware
from django.test import RequestFactory
request = RequestFactory().get("/", HTTP_HOST="localhost", HTTP_X_FORWARDED_PROTO="https")
redirect = SecurityMiddleware(lambda request: None).process_request(request)
print(json.dumps([request.is_secure(), redirect and redirect.status_code,
                  redirect and redirect["Location"]]))
"""


def test_without_a_trusted_proxy_x_forwarded_proto_is_ignored_and_http_is_redirected():
    answer = shell_json(CLAIMS_HTTPS, DEBUG="0")
    assert answer == [False, 301, "https://localhost/"]


def test_behind_a_trusted_proxy_x_forwarded_proto_says_whether_the_request_was_https():
    answer = shell_json(CLAIMS_HTTPS, DEBUG="0", TRUSTED_PROXY_COUNT="1")
    assert answer == [True, None, None]
