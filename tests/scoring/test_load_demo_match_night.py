"""The demo's match night stays true from one `make run` to the next: once beat has confirmed
the awaiting result (its window passed) and staff decided the disputed one, loading the demo
again has the home captain enter them again, so that what it prints (one result awaiting the
away team, one disputed) is what the site shows."""

import datetime
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from scoring.models import ResultVersion
from scoring.results.confirmation import result_decide, results_confirm_overdue
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _development(settings):
    settings.DEBUG = True  # as `make run` loads it


def load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def current(confirmation: str) -> ResultVersion:
    return ResultVersion.objects.get(is_current=True, confirmation=confirmation)


def test_answered_meanwhile_the_demo_results_await_and_are_disputed_again(client):
    load_demo()
    awaiting, disputed = current("awaiting"), current("disputed")
    # A day later: beat confirms the awaiting one, staff decide the disputed one.
    assert results_confirm_overdue(now=timezone.now() + datetime.timedelta(hours=25)) == [
        awaiting.fixture_id
    ]
    result_decide(
        fixture_id=disputed.fixture_id,
        version=disputed.number,
        choose=1,
        by=UserFactory(is_superuser=True),
    )
    assert not ResultVersion.objects.filter(is_current=True).exclude(confirmation="confirmed")

    output = load_demo()

    again = current("awaiting")
    assert again.fixture_id == awaiting.fixture_id and again.number == awaiting.number + 2
    assert again.created_by == awaiting.created_by  # the home captain, as the first time
    assert again.sheet == awaiting.sheet and again.confirm_by > timezone.now()
    # The history keeps what happened meanwhile: entered, confirmed by the window, again.
    history = ResultVersion.objects.filter(fixture_id=awaiting.fixture_id).order_by("number")
    assert [(v.number, v.source, v.confirmation) for v in history] == [
        (1, "player", "awaiting"),
        (2, "auto", "confirmed"),
        (3, "player", "awaiting"),
    ]
    redisputed = current("disputed")
    assert redisputed.fixture_id == disputed.fixture_id and redisputed.number == 5
    assert "is disputed: staff of" in output

    # What it prints is true: the away captain it names may confirm the awaiting result.
    line = next(line for line in output.splitlines() if "awaits" in line)
    username, password = re.search(r"log in as (\S+) / (\S+) at", line).groups()
    assert f"/fixtures/{awaiting.fixture_id}/" in line
    assert client.login(username=username, password=password)
    page = client.get(reverse("fixture-detail", args=[awaiting.fixture_id])).content.decode()
    assert 'id="confirm-result"' in page

    load_demo()  # as the demo left them: nothing more
    assert ResultVersion.objects.filter(fixture_id=awaiting.fixture_id).count() == 3
    assert ResultVersion.objects.filter(fixture_id=disputed.fixture_id).count() == 5
