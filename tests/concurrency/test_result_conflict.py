"""Two members of staff save the same fixture at the same moment, over real HTTP, on PostgreSQL.

Both load the sheet at the same version and both post it while the other's request is in
flight (a threading.Barrier releases the two POSTs together, each on its own connection and
session). With the fixture row locked by scoring.results.services._locked_fixture, exactly one new
version is written and the other member of staff gets the conflict page (409).

The control takes the lock away (a plain read) and holds both requests, inside the server,
until both have read the current version: both then pass the version check and both set out
to write the same next version — the lost update the lock prevents. (Here only the unique
constraint on (fixture, number) stops the second write; the service turns that into the same
conflict page, and the spies show how it got there.)
"""

import http.client
import re
import threading
import time
import urllib.parse

import pytest
from django.conf import settings
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from leagues.models import Fixture, Game
from scoring.models import ResultVersion
from scoring.results import services
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    VenueFactory,
)

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

ROUNDS = 5  # how many times the two members of staff collide
HOLD_LOCK_SECONDS = 0.5


# One whole Корова sheet per member of staff, so that the saved version says whose it was.
SHEETS = {
    "alice": [[20, 5, 10, 5]] * 4,  # the away team wins
    "bruno": [[5, 5, 20, 10]] * 4,  # the home team wins
}


class StaffSession:
    """A logged-in browser of one member of staff, speaking plain HTTP to the live server."""

    def __init__(self, live_server, user):
        client = Client()
        client.force_login(user)
        self.cookies = {
            settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value
        }
        self.address = urllib.parse.urlsplit(live_server.url)
        self.user = user

    def request(self, method: str, path: str, body: dict | None = None):
        connection = http.client.HTTPConnection(
            self.address.hostname, self.address.port, timeout=30
        )
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{self.address.netloc}{path}"
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            for header in response.msg.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, response.getheader("Location"), text
        finally:
            connection.close()

    def load_sheet(self, path: str) -> dict:
        """GET the entry page: the form's CSRF token and the version it was loaded from."""
        status, _, html = self.request("GET", path)
        assert status == 200, html
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        version = re.search(r'name="based_on_version" value="(\d+)"', html)
        assert token and version, html
        return {"csrfmiddlewaretoken": token[1], "based_on_version": version[1]}


def _korova_form(loaded: dict, rounds: list) -> dict:
    form = dict(loaded, action="save")
    for index, row in enumerate(rounds):
        for seat, heads in enumerate(row):
            form[f"rounds.{index}.{seat}"] = str(heads)
    return form


@pytest.fixture
def fixture():
    venue = VenueFactory()
    return FixtureFactory(
        season=SeasonFactory(league=LeagueFactory(game=Game.KOROVA)),
        home_team=TeamFactory(home_venue=venue),
        away_team=TeamFactory(),
        venue=venue,
    )


@pytest.fixture
def sessions(live_server, fixture):
    return [
        StaffSession(
            live_server,
            StaffMembershipFactory(user__username=name, venue=fixture.venue).user,
        )
        for name in SHEETS
    ]


@pytest.fixture
def spies(monkeypatch):
    """Record, inside the server, who passed the version check and how each submit ended."""
    record = {"validated": [], "outcomes": [], "lock": []}
    lock = threading.Lock()
    real_validate, real_submit = services.validate_sheet, services.result_submit

    def validate_sheet(**kwargs):  # reached only after the version check passed
        with lock:
            record["validated"].append(threading.get_ident())
        return real_validate(**kwargs)

    def result_submit(**kwargs):
        try:
            version = real_submit(**kwargs)
        except Exception as error:
            with lock:
                record["outcomes"].append((kwargs["by"].username, error))
            raise
        with lock:
            record["outcomes"].append((kwargs["by"].username, version))
        return version

    monkeypatch.setattr(services, "validate_sheet", validate_sheet)
    monkeypatch.setattr(services, "result_submit", result_submit)
    return record


def _collide(sessions, path: str) -> dict:
    """Both load the sheet, then both POST it at once; returns {username: (status, body)}."""
    loaded = {session.user.username: session.load_sheet(path) for session in sessions}
    versions = {form["based_on_version"] for form in loaded.values()}
    assert len(versions) == 1, "both members of staff must start from the same version"
    barrier = threading.Barrier(len(sessions))
    results = {}

    def post(session):
        form = _korova_form(loaded[session.user.username], SHEETS[session.user.username])
        barrier.wait(timeout=10)
        status, _, html = session.request("POST", path, form)
        results[session.user.username] = (status, html)

    threads = [threading.Thread(target=post, args=(session,)) for session in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == len(sessions), "a request did not come back"
    return results


def test_two_concurrent_saves_make_one_version_and_one_conflict_page(
    sessions, fixture, spies, monkeypatch
):
    real_lock = services._locked_fixture
    lock_log = spies["lock"]

    def locked_fixture_held(fixture_id):
        asked = time.monotonic()
        locked = real_lock(fixture_id)
        lock_log.append((asked, time.monotonic()))
        time.sleep(HOLD_LOCK_SECONDS)  # hold the lock: the other request must queue behind it
        return locked

    monkeypatch.setattr(services, "_locked_fixture", locked_fixture_held)
    path = reverse("result-entry", args=[fixture.pk])

    for number in range(1, ROUNDS + 1):
        spies["validated"].clear()
        spies["outcomes"].clear()
        lock_log.clear()

        results = _collide(sessions, path)

        statuses = sorted(status for status, _ in results.values())
        assert statuses == [302, 409], results
        loser = next(name for name, (status, _) in results.items() if status == 409)
        winner = next(name for name in results if name != loser)
        assert "Not saved: the result changed" in results[loser][1]
        assert f"version {number}" in results[loser][1]
        # The second request really was in flight: it asked for the lock while the first
        # held it, and got it only once the first had let go.
        (first_asked, first_got), (second_asked, second_got) = sorted(lock_log, key=lambda t: t[1])
        assert second_asked < first_got + HOLD_LOCK_SECONDS
        assert second_got >= first_got + HOLD_LOCK_SECONDS
        # Only one request passed the version check; the other was stopped by it, not by the
        # database's unique constraint.
        assert len(spies["validated"]) == 1
        conflict = dict(spies["outcomes"])[loser]
        assert isinstance(conflict, services.ResultConflict)
        assert conflict.__cause__ is None
        # Exactly one new version, the winner's, and it is the only current one.
        versions = list(ResultVersion.objects.filter(fixture=fixture).order_by("number"))
        assert [v.number for v in versions] == list(range(1, number + 1))
        assert [v.is_current for v in versions] == [False] * (number - 1) + [True]
        assert versions[-1].created_by.username == winner
        assert versions[-1].sheet["rounds"] == SHEETS[winner]

    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED


def test_control_without_the_lock_both_requests_pass_the_version_check(
    sessions, fixture, spies, monkeypatch
):
    """The race the lock prevents: without it, both requests believe they write the next version."""
    read_together = threading.Barrier(2)
    reads = []
    reads_lock = threading.Lock()
    real_current = services.fixture_current_result

    def unlocked_fixture(fixture_id):
        return Fixture.objects.get(pk=fixture_id)  # the same read, without select_for_update

    def current_version_read_together(*, fixture):
        current = real_current(fixture=fixture)
        with reads_lock:
            reads.append(current.number if current else 0)
            first_two = len(reads) <= 2
        if first_two:  # hold each request until both have read the current version
            read_together.wait(timeout=10)
        return current

    monkeypatch.setattr(services, "_locked_fixture", unlocked_fixture)
    monkeypatch.setattr(services, "fixture_current_result", current_version_read_together)
    path = reverse("result-entry", args=[fixture.pk])

    for number in range(1, ROUNDS + 1):
        spies["validated"].clear()
        spies["outcomes"].clear()
        reads.clear()
        read_together.reset()

        results = _collide(sessions, path)

        # Both read the same current version and both passed the version check ...
        assert reads[:2] == [number - 1, number - 1]
        assert len(spies["validated"]) == 2
        # ... so both set out to write version `number`: only the unique constraint on
        # (fixture, number) refused the second, which lost its update.
        outcomes = dict(spies["outcomes"])
        refused = [error for error in outcomes.values() if isinstance(error, Exception)]
        assert len(refused) == 1
        assert isinstance(refused[0], services.ResultConflict)
        assert isinstance(refused[0].__cause__, IntegrityError)
        assert sorted(status for status, _ in results.values()) == [302, 409]
        assert ResultVersion.objects.filter(fixture=fixture).count() == number
