"""Browser tests: Playwright (sync API) driving Debian's chromium against the live server, an
ASGI server in the test process (tests/asgi_server.py) as in production.

Playwright's sync API runs an asyncio event loop in the test's thread, so Django's guard
against ORM calls from async code would refuse the test's own database work: it is lifted
while the browser is up (the ORM is still used from one thread at a time). The browser
tests share one xdist group so that they run in one process, one after the other.
"""

import datetime
import os

import pytest
from django.utils import timezone

from leagues.models import Game


def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.xdist_group("browser"))


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if previous is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def live_server(django_db_setup):
    """The site under an ASGI server, as production serves it (pytest-django's own is a WSGI
    server, where the table pages' event streams answer 204 and the pages poll)."""
    from tests.asgi_server import AsgiLiveServer

    server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture
def phone(chromium):
    """A fresh page on a 390 × 844 phone screen (touch, no shared cookies)."""
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def phones(chromium, live_server):
    """Makes logged-in phones (`phones(user)` -> page); all closed after the test, before the
    database goes, so that no poll reaches a server whose test has ended."""
    from tests.browser.play import phone_for

    contexts = []

    def make(user):
        context, page = phone_for(chromium, live_server, user)
        contexts.append(context)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def cow_league_fixture():
    """Red Lions (Ann, Bea) v Night Owls (Cy, Dot) at The Black Cow two hours ago, in the Cow
    League's Autumn season (Корова), and the pub's barkeep: (season, fixture, staff user)."""
    from tests.factories import (
        EntryFactory,
        FixtureFactory,
        LeagueFactory,
        PlayerFactory,
        SeasonFactory,
        StaffMembershipFactory,
        TeamFactory,
        VenueFactory,
    )

    venue = VenueFactory(name="The Black Cow")
    season = SeasonFactory(league=LeagueFactory(name="Cow League", game=Game.KOROVA), name="Autumn")
    home = TeamFactory(
        name="Red Lions",
        home_venue=venue,
        members=[PlayerFactory(name="Ann"), PlayerFactory(name="Bea")],
    )
    away = TeamFactory(
        name="Night Owls", members=[PlayerFactory(name="Cy"), PlayerFactory(name="Dot")]
    )
    for team in (home, away):
        EntryFactory(season=season, team=team)
    fixture = FixtureFactory(
        season=season,
        home_team=home,
        away_team=away,
        venue=venue,
        starts_at=timezone.now() - datetime.timedelta(hours=2),
    )
    staff = StaffMembershipFactory(user__username="barkeep", venue=venue).user
    return season, fixture, staff
