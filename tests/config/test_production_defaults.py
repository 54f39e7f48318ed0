"""Production defaults: JSON-only API without DEBUG (no browsable API), Cache-Control: private on
staff pages and pages of logged-in users, and a Content-Security-Policy on every page (the
browser test tests/browser/test_csp.py shows the pages work under it)."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories import StaffMembershipFactory

ROOT = Path(__file__).resolve().parents[2]


def renderers_with(debug: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    code = (
        "import json; from django.conf import settings as s; "
        "print(json.dumps(s.REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES']))"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**clean, "DEBUG": debug, "SECRET_KEY": secrets.token_urlsafe(50)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


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
