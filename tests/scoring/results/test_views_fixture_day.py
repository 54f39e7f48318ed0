"""scoring.results.views and the fixture's day: the staff home leads with tonight and what waits for a
result and folds the weeks ahead away; the sheet refuses a result before the fixture's day
(with the reason in the form), unless a league admin ticks the override."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Fixture
from scoring.models import ResultVersion
from tests.factories import UserFactory
from tests.scoring.results.staff_sheets import (
    FULL_GAME,
    entry_url,
    korova_post,
    make_fixture,
    staff_of,
)
from tests.scoring.results.test_preview_parity import messages

pytestmark = pytest.mark.django_db


def _at(fixture, when):
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=when)
    fixture.refresh_from_db()
    return fixture


def _section(html: str, key: str) -> str:
    """The staff home's section `key`, up to the next section."""
    return html.split(f'id="section-{key}"')[1].split('class="staff-section"')[0]


def test_staff_home_leads_with_tonight_then_waiting_and_folds_the_weeks_ahead(client):
    tonight = make_fixture()
    venue = tonight.venue
    now = timezone.localtime()
    _at(tonight, now.replace(hour=20, minute=0))
    last_week = _at(make_fixture(), now - datetime.timedelta(days=7))
    ahead = _at(make_fixture(), now + datetime.timedelta(weeks=5))
    Fixture.objects.filter(pk__in=[last_week.pk, ahead.pk]).update(venue=venue)
    client.force_login(staff_of(tonight))

    html = client.get(reverse("staff-home")).content.decode()

    order = [html.index(f'id="section-{key}"') for key in ("tonight", "waiting", "upcoming")]
    assert order == sorted(order)
    assert entry_url(tonight) in _section(html, "tonight")
    assert entry_url(last_week) in _section(html, "waiting")
    assert entry_url(tonight) not in _section(html, "waiting")
    upcoming = _section(html, "upcoming")
    assert entry_url(ahead) in upcoming
    assert upcoming.index("<details") < upcoming.index(entry_url(ahead))
    assert "<details open" not in upcoming


def test_the_sheet_of_a_fixture_ahead_says_when_it_takes_a_result(client):
    fixture = _at(make_fixture(), timezone.now() + datetime.timedelta(weeks=5))
    client.force_login(staff_of(fixture))

    html = client.get(entry_url(fixture)).content.decode()

    day = timezone.localdate(fixture.starts_at)
    assert "its result can be entered from that day on" in html
    assert f"{day.day} {day:%b %Y}" in html
    assert 'name="before_fixture_day"' not in html  # staff cannot override


def test_saving_before_the_fixtures_day_is_refused_with_the_reason_in_the_form(client):
    fixture = _at(make_fixture(), timezone.now() + datetime.timedelta(weeks=5))
    client.force_login(staff_of(fixture))

    response = client.post(entry_url(fixture), korova_post(FULL_GAME))

    assert response.status_code == 409
    errors = response.content.decode().split('id="sheet-errors"')[1].split("</div>")[0]
    assert "its result can be entered from that day on" in errors
    assert 'value="20"' in response.content.decode()  # the input is kept
    assert not ResultVersion.objects.exists()


def test_a_league_admin_ticks_the_override_and_the_result_is_saved(client):
    fixture = _at(make_fixture(), timezone.now() + datetime.timedelta(days=3))
    client.force_login(UserFactory(is_superuser=True))

    page = client.get(entry_url(fixture)).content.decode()
    response = client.post(entry_url(fixture), korova_post(FULL_GAME, before_fixture_day="on"))

    assert 'name="before_fixture_day"' in page
    assert response.status_code == 302
    assert ResultVersion.objects.get(fixture=fixture).number == 1


def test_saving_too_early_also_shows_the_sheets_errors_as_the_preview_does(client):
    fixture = _at(make_fixture(), timezone.now() + datetime.timedelta(weeks=5))
    client.force_login(staff_of(fixture))
    data = korova_post([[120, 0, 0, -3]])

    preview = client.post(entry_url(fixture), {**data, "action": "preview"}, HTTP_HX_REQUEST="true")
    saved = client.post(entry_url(fixture), data)

    assert saved.status_code == 409
    page = saved.content.decode()
    sheet_errors = messages(preview.content.decode())
    assert set(sheet_errors) == {"err-rounds-0-0", "err-rounds-0-3"}
    shown = messages(page)
    assert {slot: shown[slot] for slot in sheet_errors} == sheet_errors
    box = page.split('id="sheet-errors"')[1].split("</div>")[0]
    assert "its result can be entered from that day on" in box
    assert not ResultVersion.objects.exists()
