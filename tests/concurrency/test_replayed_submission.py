"""A sheet sent twice at the same moment (a phone's kept sheet sent on reconnect while the
reloaded page sends it too; an API client retrying at once), over real HTTP, on PostgreSQL.

Both requests carry the same submission key and start from the same version. With the fixture
row locked by scoring.results.services._locked_fixture, the second one waits for the first,
finds the version its key wrote, and is answered as the first was: one new version, two
"saved" answers (the same redirect; for the API, the same 201 body).

The control takes the lock away (a plain read) and holds both requests, inside the server,
until both have passed the version check: neither found its key, both passed the check and both
set out to write the next version. Only the unique constraint on (fixture, submission_key) (and
the one on (fixture, number)) stops the second, inside the transaction; the service then finds
the first one's version by the key and answers with it. Without that last step the repeat
would be told its sheet is stale (shown too): what the constraint and its handling are for.
"""

import http.client
import json
import threading
import time
import urllib.parse

import pytest
from django.urls import reverse
from knox.models import AuthToken

from leagues.models import Fixture
from scoring.models import ResultVersion
from scoring.results import services
from tests.concurrency.test_result_conflict import SHEETS, StaffSession, _korova_form
from tests.concurrency.test_result_conflict import fixture as fixture  # noqa: F401  # a pytest fixture
from tests.factories import StaffMembershipFactory

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

ROUNDS = 4
HOLD_LOCK_SECONDS = 0.5


@pytest.fixture
def staff(fixture):
    return StaffMembershipFactory(user__username="alice", venue=fixture.venue).user


@pytest.fixture
def lookups(monkeypatch):
    """Each look for a submission key inside the server: (key, found a version?)."""
    record = []
    real = services.fixture_submitted_version

    def fixture_submitted_version(*, fixture, submission_key):
        found = real(fixture=fixture, submission_key=submission_key)
        record.append((submission_key, found is not None))
        return found

    monkeypatch.setattr(services, "fixture_submitted_version", fixture_submitted_version)
    return record


@pytest.fixture
def validated(monkeypatch):
    """The threads that got past the version check (validation comes right after it)."""
    record = []
    real = services.validate_sheet

    def validate_sheet(**kwargs):
        record.append(threading.get_ident())
        return real(**kwargs)

    monkeypatch.setattr(services, "validate_sheet", validate_sheet)
    return record


def _twice_at_once(send) -> list:
    """Call `send()` from two threads released together; their answers."""
    barrier = threading.Barrier(2)
    answers = []

    def run():
        barrier.wait(timeout=10)
        answers.append(send())

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 2, "a request did not come back"
    return answers


def _send_form_twice(live_server, staff, fixture, key: str) -> list:
    """The entry page loaded once, its sheet posted twice at once by the same phone."""
    session = StaffSession(live_server, staff)
    path = reverse("result-entry", args=[fixture.pk])
    form = dict(_korova_form(session.load_sheet(path), SHEETS["alice"]), submission_key=key)
    return [(status, location) for status, location, _ in _twice_at_once(
        lambda: session.request("POST", path, form)
    )]  # fmt: skip


def test_the_same_sheet_sent_twice_at_once_is_saved_once_and_both_are_told_saved(
    live_server, fixture, staff, lookups, validated, monkeypatch
):
    real_lock = services._locked_fixture
    lock_log = []

    def locked_fixture_held(fixture_id):
        asked = time.monotonic()
        locked = real_lock(fixture_id)
        lock_log.append((asked, time.monotonic()))
        time.sleep(HOLD_LOCK_SECONDS)  # the other request must queue behind the lock
        return locked

    monkeypatch.setattr(services, "_locked_fixture", locked_fixture_held)

    for number in range(1, ROUNDS + 1):
        lookups.clear()
        validated.clear()
        lock_log.clear()
        key = f"kept-sheet-{number}"

        answers = _send_form_twice(live_server, staff, fixture, key)

        # Both told "saved", with the same redirect to the fixture's page.
        assert answers[0] == answers[1] and answers[0][0] == 302, answers
        # The second asked for the lock while the first held it, and got it after.
        (_, first_got), (second_asked, second_got) = sorted(lock_log, key=lambda t: t[1])
        assert second_asked < first_got + HOLD_LOCK_SECONDS
        assert second_got >= first_got + HOLD_LOCK_SECONDS
        # The first found no version for its key and wrote one; the second found that one
        # under the lock, before any version check: nothing reached the constraint.
        assert lookups == [(key, False), (key, True)]
        assert len(validated) == 1
        versions = list(ResultVersion.objects.filter(fixture=fixture).order_by("number"))
        assert [v.number for v in versions] == list(range(1, number + 1))
        assert versions[-1].submission_key == key and versions[-1].is_current

    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED


def test_the_same_api_submission_sent_twice_at_once_is_saved_once_with_the_same_answer(
    live_server, fixture, staff
):
    token = AuthToken.objects.create(staff)[1]
    players = [
        m.player_id
        for team in (fixture.home_team, fixture.away_team)
        for m in team.members.order_by("position")
    ]
    body = json.dumps(
        {"sheet": {"players": players, "rounds": SHEETS["alice"]}, "based_on_version": 0}
    )
    address = urllib.parse.urlsplit(live_server.url)

    def post():
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        try:
            connection.request(
                "POST", f"/api/fixtures/{fixture.pk}/result/", body=body,
                headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                         "Idempotency-Key": "api-retry-1"},
            )  # fmt: skip
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    (first_status, first_body), (second_status, second_body) = _twice_at_once(post)

    assert first_status == second_status == 201, (first_body, second_body)
    assert first_body == second_body and first_body["version"] == 1
    assert ResultVersion.objects.filter(fixture=fixture).count() == 1


@pytest.mark.parametrize("handled", [True, False], ids=["constraint-handled", "unhandled"])
def test_control_without_the_lock_both_requests_pass_every_check(
    live_server, fixture, staff, monkeypatch, handled
):
    """The race the lock prevents; the constraint (and the service's look for the key after
    it refused the write) is all that stands in the way."""
    checked_together = threading.Barrier(2)
    lookups = []
    real_lookup = services.fixture_submitted_version
    real_validate = services.validate_sheet

    def unlocked_fixture(fixture_id):
        return Fixture.objects.get(pk=fixture_id)  # the same read, without select_for_update

    def looked_up(*, fixture, submission_key):
        lookups.append(submission_key)
        if len(lookups) <= 2:  # before writing: both look, neither finds the key
            return real_lookup(fixture=fixture, submission_key=submission_key)
        # The look after the constraint refused the second write.
        return real_lookup(fixture=fixture, submission_key=submission_key) if handled else None

    def validate_when_both_checked(**kwargs):
        # Validation comes right after the version check: hold each request here until both
        # have passed it, so neither writes before the other has read the current version.
        checked_together.wait(timeout=10)
        return real_validate(**kwargs)

    monkeypatch.setattr(services, "_locked_fixture", unlocked_fixture)
    monkeypatch.setattr(services, "fixture_submitted_version", looked_up)
    monkeypatch.setattr(services, "validate_sheet", validate_when_both_checked)

    for number in range(1, ROUNDS + 1):
        lookups.clear()
        checked_together.reset()

        answers = _send_form_twice(live_server, staff, fixture, f"kept-sheet-{number}")

        # Neither found the key, both passed the version check and both wrote version `number`:
        # the database refused the second (a third look for the key followed it).
        assert checked_together.n_waiting == 0 and not checked_together.broken
        assert len(lookups) == 3
        if handled:
            assert answers[0] == answers[1] and answers[0][0] == 302, answers
        else:  # the repeat is told its sheet is stale: the answer the handling corrects
            assert sorted(status for status, _ in answers) == [302, 409], answers
        assert ResultVersion.objects.filter(fixture=fixture).count() == number
