"""Notices through a real Celery worker on Redis and PostgreSQL (no mocks): a saved proposal
queues the task on commit, the worker sends the email (the console backend writes it to the
worker's log), and more runs of the task at once still send it once."""

import datetime
import time

import pytest
from django.utils import timezone

from leagues.schedule_services import reschedule_propose
from scoring.match_night.tasks import match_night_notices_send
from scoring.models import NoticeSent
from tests.factories import FixtureFactory, StaffMembershipFactory, team_player_user

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def wait_for(condition, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s")


def test_a_proposed_date_is_emailed_once_by_the_worker(table_worker):
    fixture = FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=1))
    home = team_player_user(fixture.home_team, 1, email="home-captain@example.com")
    team_player_user(fixture.away_team, 1, email="away-captain@example.com")
    team_player_user(fixture.away_team, 2, email="away-partner@example.com")

    proposal = reschedule_propose(
        fixture_id=fixture.pk, starts_at=timezone.now() + datetime.timedelta(days=8), by=home
    )
    event = f"reschedule-proposed:{proposal.pk}"
    # The commit queued one run; three more at once race for the same two notices.
    for _ in range(3):
        match_night_notices_send.delay()
    wait_for(lambda: NoticeSent.objects.filter(event=event).count() == 2, timeout=30)
    table_worker.wait_until_idle()

    assert set(NoticeSent.objects.filter(event=event).values_list("user__email", flat=True)) == {
        "away-captain@example.com",
        "away-partner@example.com",
    }
    log = table_worker.log.read_text()
    subject = f"Subject: Roundel: {fixture.home_team.name} propose a new date for"
    assert log.count(subject) == 2
    assert log.count("To: away-captain@example.com") == 1
    assert "To: home-captain@example.com" not in log


def test_a_fixture_tonight_is_emailed_once_to_each_by_the_worker(table_worker):
    """No event queues it: the sweep finds it (run here four times at once, as beat would)."""
    now = timezone.localtime()
    starts_at = now + datetime.timedelta(minutes=2)
    morning = now.replace(hour=8, minute=0, second=0, microsecond=0)
    if now < morning:  # before 08:00 only a fixture before then is told at once
        starts_at = min(starts_at, morning)
    if timezone.localdate(starts_at) != now.date():
        pytest.skip("too close to midnight for a fixture later today")
    fixture = FixtureFactory(starts_at=starts_at)
    team_player_user(fixture.home_team, 1, email="tonight-home@example.com")
    team_player_user(fixture.away_team, 1, email="tonight-away@example.com")
    StaffMembershipFactory(venue=fixture.venue, user__email="tonight-bar@example.com")
    StaffMembershipFactory(user__email="other-pub@example.com")

    for _ in range(4):
        match_night_notices_send.delay()
    tonight = NoticeSent.objects.filter(event__startswith=f"fixture-tonight:{fixture.pk}:")
    wait_for(lambda: tonight.count() == 3, timeout=30)
    table_worker.wait_until_idle()

    log = table_worker.log.read_text()
    subject = f"Subject: Roundel: {fixture.home_team.name} v {fixture.away_team.name} is tonight"
    assert log.count(subject) == 3
    for address in ("tonight-home", "tonight-away", "tonight-bar"):
        assert log.count(f"To: {address}@example.com") == 1
    assert "other-pub@example.com" not in log
