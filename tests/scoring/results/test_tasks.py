"""scoring.results.tasks in a real Celery worker with beat, on Redis and the test database: an
awaiting result whose confirmation window has passed is confirmed by beat's sweep, once."""

import datetime
import time

import pytest
from django.conf import settings
from django.utils import timezone

from scoring.models import ResultVersion
from scoring.results import confirmation, services
from tests.scoring.results.match_night import match_night

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_beat_schedules_the_sweep():
    entry = settings.CELERY_BEAT_SCHEDULE["results-confirm-overdue"]
    assert entry["task"] == "scoring.results_confirm_overdue"


def test_beat_confirms_a_result_whose_window_passed_and_leaves_the_others(worker_with_beat):
    due, answered, waiting = match_night(), match_night(), match_night()
    for night in (due, answered, waiting):
        services.result_submit(
            fixture_id=night.fixture.pk, sheet=night.sheet(), based_on_version=0, by=night.home[0]
        )
    confirmation.result_dispute(
        fixture_id=answered.fixture.pk, version=1, reason="No", by=answered.away[0]
    )
    # Their windows have passed (as if the clock had moved on past confirm_by):
    past = timezone.now() - datetime.timedelta(seconds=1)
    ResultVersion.objects.filter(fixture__in=[due.fixture, answered.fixture]).update(
        confirm_by=past
    )

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if ResultVersion.objects.filter(fixture=due.fixture, number=2).exists():
            break
        time.sleep(0.2)
    time.sleep(2.5)  # two more sweeps: they must write nothing more

    auto = ResultVersion.objects.get(fixture=due.fixture, is_current=True)
    assert (auto.number, auto.confirmation, auto.source) == (2, "confirmed", "auto")
    assert auto.created_by is None and "window passed" in auto.note
    assert ResultVersion.objects.counted().filter(fixture=due.fixture).count() == 1
    # A disputed result waits for staff; one still in its window waits for the other team.
    for night, state in ((answered, "disputed"), (waiting, "awaiting")):
        current = ResultVersion.objects.get(fixture=night.fixture, is_current=True)
        assert current.confirmation == state
