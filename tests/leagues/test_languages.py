"""Choosing the language a person reads the site in (leagues/languages.py, docs/languages.md):
the browser's Accept-Language, the switcher's cookie, a logged-in user's profile, and the API
answering in the requester's language while its field names and codes stay English."""

import datetime

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Profile
from tests.factories import PASSWORD, FixtureFactory, LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
# The header's "Log in" (a visitor) and "Log out" (a logged-in user), in each language.
HEADER = {
    "en-gb": (">Log in<", ">Log out<"),
    "ru": (">Войти<", ">Выйти<"),
    "fi": (">Kirjaudu sisään<", ">Kirjaudu ulos<"),
}


def _page_language(response) -> str:
    """The language a page says it is in (<html lang>), checked against its header's text."""
    html = response.content.decode()
    start = html.index('<html lang="') + len('<html lang="')
    language = html[start : html.index('"', start)]
    assert any(text in html for text in HEADER[language]), f"{language} page, other header"
    return language


def test_a_browser_without_a_preference_reads_british_english(client):
    assert _page_language(client.get(reverse("login"))) == "en-gb"


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("ru", "ru"),
        ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
        ("fi-FI,fi;q=0.9", "fi"),
        ("de-DE,fi;q=0.5", "fi"),
        ("de-DE,de;q=0.9", "en-gb"),
        ("en-US,en;q=0.9", "en-gb"),
    ],
)
def test_the_browsers_accept_language_picks_the_language(accept, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    assert _page_language(client.get(reverse("login"))) == language


def test_the_switcher_sets_the_cookie_and_goes_back_to_the_page(client):
    league = LeagueFactory()
    page = reverse("league-detail", args=[league.slug])

    response = client.post(reverse("language-choose"), {"language": "fi", "next": page})

    assert response.status_code == 302
    assert response["Location"] == page
    assert response.cookies[COOKIE].value == "fi"
    assert response.cookies[COOKIE]["max-age"] == settings.LANGUAGE_COOKIE_AGE
    assert _page_language(client.get(page)) == "fi"


def test_the_cookie_wins_over_the_browsers_language():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.post(reverse("language-choose"), {"language": "en-gb", "next": "/"})
    assert _page_language(client.get(reverse("login"))) == "en-gb"


def test_the_switcher_marks_the_current_language_and_names_each_in_itself():
    html = Client(HTTP_ACCEPT_LANGUAGE="fi").get(reverse("login")).content.decode()
    assert 'value="fi" lang="fi" class="link" aria-current="true" disabled>Suomi<' in html
    assert 'value="ru" lang="ru" class="link">Русский<' in html
    assert 'value="en-gb" lang="en-gb" class="link">English<' in html
    assert f'name="next" value="{reverse("login")}"' in html


def test_the_switcher_does_not_send_anyone_to_another_site(client):
    response = client.post(
        reverse("language-choose"), {"language": "ru", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"
    assert response.cookies[COOKIE].value == "ru"


def test_an_unknown_language_changes_nothing(client):
    user = UserFactory()
    Profile.objects.create(user=user, language="ru")
    client.force_login(user)

    response = client.post(reverse("language-choose"), {"language": "xx", "next": "/somewhere/"})

    assert response.status_code == 302
    assert response["Location"] == "/somewhere/"
    assert COOKIE not in response.cookies
    assert Profile.objects.get(user=user).language == "ru"


def test_a_get_to_the_switcher_is_refused(client):
    assert client.get(reverse("language-choose"), {"language": "ru"}).status_code == 405


def test_a_visitors_choice_lives_in_the_cookie_alone(client):
    client.post(reverse("language-choose"), {"language": "ru", "next": "/"})
    assert not Profile.objects.exists()


def test_a_logged_in_users_choice_is_kept_on_their_profile(client):
    user = UserFactory()
    client.force_login(user)

    client.post(reverse("language-choose"), {"language": "fi", "next": "/"})

    assert Profile.objects.get(user=user).language == "fi"


def test_logging_in_on_a_fresh_browser_reads_the_profiles_language():
    user = UserFactory()
    Profile.objects.create(user=user, language="ru")
    browser = Client(HTTP_ACCEPT_LANGUAGE="fi")  # a phone set to Finnish, no cookie yet
    assert _page_language(browser.get(reverse("login"))) == "fi"

    response = browser.post(
        reverse("login"), {"username": user.username, "password": PASSWORD, "next": "/accounts/"}
    )

    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "ru"
    assert _page_language(browser.get(reverse("password_change"))) == "ru"


def test_logging_in_without_a_chosen_language_leaves_the_browsers():
    user = UserFactory()
    browser = Client(HTTP_ACCEPT_LANGUAGE="fi")
    response = browser.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    assert COOKIE not in response.cookies
    assert _page_language(browser.get(reverse("password_change"))) == "fi"


@pytest.mark.parametrize("name", ["home", "league", "login", "api"])
def test_every_answer_varies_by_the_readers_language(client, name):
    """A shared cache (a proxy, a CDN) keys what it keeps by these headers: without them it
    could hand a Finnish page to a Russian reader, or a page chosen by cookie to anyone."""
    league = LeagueFactory()
    path = {
        "home": reverse("home"),
        "league": reverse("league-detail", args=[league.slug]),
        "login": reverse("login"),
        "api": "/api/leagues/",
    }[name]
    response = client.get(path)
    assert response.status_code == 200
    vary = {value.strip().lower() for value in response.get("Vary", "").split(",")}
    assert {"accept-language", "cookie"} <= vary


def test_the_language_switch_itself_varies_too(client):
    response = client.post(reverse("language-choose"), {"language": "ru", "next": "/"})
    assert "Cookie" in response["Vary"]


# ---- The API: sentences in the requester's language, field names and codes in English ----------


@pytest.fixture
def stranger_api():
    api = APIClient()
    api.force_authenticate(UserFactory())
    return api


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en-gb", "Only the players and reserves of the fixture's two teams can do this."),
        ("ru", "Это могут только игроки и запасные двух команд матча."),
        ("fi", "Vain ottelun kahden joukkueen pelaajat ja varapelaajat voivat tehdä tämän."),
    ],
)
def test_an_api_refusal_reads_in_the_requesters_language(stranger_api, language, sentence):
    fixture = FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=2))
    response = stranger_api.put(
        f"/api/fixtures/{fixture.pk}/availability/",
        {"available": True},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 403
    assert response.json() == {"detail": sentence}
    assert response["Content-Language"] == language


@pytest.mark.parametrize("language", ["ru", "fi"])
def test_an_api_field_error_keeps_the_field_name_in_english(language):
    user = UserFactory()
    response = APIClient().post(
        "/api/auth/token/",
        {"username": user.username, "password": "not-the-password"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    body = response.json()
    assert list(body) == ["non_field_errors"]
    assert body["non_field_errors"] != ["Unable to log in with provided credentials."]


@pytest.mark.parametrize(
    ("language", "start"),
    [("ru", "По этому адресу нет метода API"), ("fi", "Tässä osoitteessa ei ole API-rajapintaa")],
)
def test_the_apis_own_404_reads_in_the_requesters_language(client, language, start):
    response = client.get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert response.json()["detail"].startswith(start)


def test_the_venue_admin_sets_its_language(client, superuser):
    """The TV screen reads in the venue's language. (The season's admin, whose fieldsets are
    scoring's, does not offer the season's language yet.)"""
    client.force_login(superuser)
    html = client.get(reverse("admin:leagues_venue_add")).content.decode()
    assert 'name="language"' in html
    assert '<option value="fi">Suomi</option>' in html
