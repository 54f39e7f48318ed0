"""Password guessing: after a few failures a username is locked out at that address on every
login (site, admin, API token), even with the right password, until the cool-off ends or an
admin unlocks it; 429 with Retry-After. Password reset is offered only where mail can go out."""

import json
import os
import secrets
import subprocess
import sys

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PASSWORD, StaffMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.9"
ELSEWHERE = "198.51.100.7"


@pytest.fixture(autouse=True)
def _fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()


@pytest.fixture
def staff():
    return StaffMembershipFactory(
        user=UserFactory(username="crown", is_staff=True, is_superuser=True)
    ).user


def page_login(path: str, address: str, password: str):
    return Client(REMOTE_ADDR=address).post(path, {"username": "crown", "password": password})


def token_login(address: str, password: str):
    return APIClient(REMOTE_ADDR=address).post(
        "/api/auth/token/", {"username": "crown", "password": password}, format="json"
    )


def login(where: str, address: str, password: str):
    if where == "api":
        return token_login(address, password)
    return page_login(where, address, password)


def succeeded(where: str, response) -> bool:
    return response.status_code == (200 if where == "api" else 302)


@pytest.mark.parametrize("where", ["/accounts/login/", "/admin/login/", "api"])
def test_five_wrong_passwords_lock_the_user_out_at_that_address(staff, where, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(where, ATTACKER, "wrong").status_code in (200, 400)
    locked = login(where, ATTACKER, "wrong")
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) == 3600
    right_password = login(where, ATTACKER, PASSWORD)
    assert right_password.status_code == 429
    if where == "api":
        assert right_password["Content-Type"] == "application/json"
        assert "Too many failed logins" in right_password.json()["detail"]
    else:
        assert "Too many failed logins" in right_password.content.decode()
    # The real user at their own address still gets in.
    assert succeeded(where, login(where, ELSEWHERE, PASSWORD))


def test_failures_on_one_login_count_on_the_others(staff, settings):
    for path in ["/accounts/login/", "/admin/login/", "/accounts/login/", "/admin/login/"]:
        page_login(path, ATTACKER, "wrong")
    token_login(ATTACKER, "wrong")
    assert token_login(ATTACKER, PASSWORD).status_code == 429


def test_a_success_before_the_limit_clears_the_count(staff, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        page_login("/accounts/login/", ATTACKER, "wrong")
    assert page_login("/accounts/login/", ATTACKER, PASSWORD).status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        page_login("/accounts/login/", ATTACKER, "wrong")
    assert page_login("/accounts/login/", ATTACKER, PASSWORD).status_code == 302


def test_an_admin_unlocks_a_user_with_the_management_command(staff, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page_login("/accounts/login/", ATTACKER, "wrong")
    assert page_login("/accounts/login/", ATTACKER, PASSWORD).status_code == 429
    call_command("axes_reset_username", "crown")
    assert page_login("/accounts/login/", ATTACKER, PASSWORD).status_code == 302


def test_an_admin_unlocks_a_user_by_deleting_the_attempt_in_the_admin(client, staff, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        token_login(ATTACKER, "wrong")
    attempt = AccessAttempt.objects.get(username="crown")
    admin = UserFactory(username="boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    listed = client.get("/admin/axes/accessattempt/")
    assert listed.status_code == 200 and "crown" in listed.content.decode()
    response = client.post(
        f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"}, follow=True
    )
    assert response.status_code == 200
    assert token_login(ATTACKER, PASSWORD).status_code == 200


# ---- password reset only where mail works ------------------------------------------------


def settings_in(**env) -> dict:
    """The mail settings a fresh process reads from `env`."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DEBUG"))}
    code = (
        "import json; from django.conf import settings as s; print(json.dumps([s.EMAIL_BACKEND,"
        " s.EMAIL_TIMEOUT, s.PASSWORD_RESET_BY_MAIL]))"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        env={**clean, "SECRET_KEY": secrets.token_urlsafe(50), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_mail_comes_from_the_environment():
    assert settings_in(DEBUG="1") == ["django.core.mail.backends.console.EmailBackend", 10, True]
    assert settings_in(DEBUG="0") == ["django.core.mail.backends.dummy.EmailBackend", 10, False]
    assert settings_in(DEBUG="0", EMAIL_HOST="smtp.example.org", EMAIL_TIMEOUT="5") == [
        "django.core.mail.backends.smtp.EmailBackend",
        5,
        True,
    ]


def test_without_mail_password_reset_is_not_offered(client, staff, settings):
    settings.PASSWORD_RESET_BY_MAIL = False
    login_page = client.get("/accounts/login/").content.decode()
    assert "/accounts/password_reset/" not in login_page
    assert "Ask a league admin" in login_page
    for path in ["/accounts/password_reset/", "/accounts/password_reset/done/"]:
        assert client.get(path).status_code == 404
        assert client.post(path, {"email": "crown@example.org"}).status_code == 404


def test_with_mail_password_reset_sends_a_working_link(client, staff, settings, mailoutbox):
    settings.PASSWORD_RESET_BY_MAIL = True
    staff.email = "crown@example.org"
    staff.save()
    assert "/accounts/password_reset/" in client.get("/accounts/login/").content.decode()
    response = client.post("/accounts/password_reset/", {"email": "crown@example.org"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    link = next(word for word in mailoutbox[0].body.split() if "/accounts/reset/" in word)
    path = link.split("://", 1)[1].split("/", 1)[1]
    form = client.get("/" + path, follow=True)
    assert form.status_code == 200 and "Set a new password" in form.content.decode()


def _log_in(username: str, next_url: str | None = None):
    path = "/accounts/login/" + (f"?next={next_url}" if next_url else "")
    return Client().post(path, {"username": username, "password": PASSWORD}, follow=True)


def test_a_member_of_staff_lands_on_their_fixtures_after_logging_in():
    StaffMembershipFactory(user=UserFactory(username="barkeep"))
    response = _log_in("barkeep")
    assert response.redirect_chain == [(reverse("staff-home"), 302)]
    assert response.status_code == 200


def test_a_player_lands_on_the_home_page_after_logging_in():
    UserFactory(username="ada")
    assert _log_in("ada").redirect_chain == [(reverse("home"), 302)]


def test_next_wins_over_the_staff_page_and_an_outside_next_is_ignored():
    StaffMembershipFactory(user=UserFactory(username="barkeep"))
    assert _log_in("barkeep", "/tables/").redirect_chain == [("/tables/", 302)]
    assert _log_in("barkeep", "https://evil.example/").redirect_chain == [
        (reverse("staff-home"), 302)
    ]
