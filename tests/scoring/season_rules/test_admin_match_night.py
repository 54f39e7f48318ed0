"""Match night's two clocks on the season's admin page: the hours a player's result waits for
the other team, and the days a postponed fixture has to be played in (docs/match-night.md)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Season
from leagues.services import fixture_status_change
from scoring.results import services
from tests.admin_pages import change_url
from tests.factories import LeagueFactory, SeasonFactory, UserFactory
from tests.scoring.results.match_night import match_night
from tests.scoring.season_rules.test_admin import season_change_form, season_form

pytestmark = pytest.mark.django_db


def test_the_season_page_shows_both_with_their_values(client, superuser):
    season = SeasonFactory(confirmation_hours=12, postponed_within_days=14)
    client.force_login(superuser)
    page = client.get(change_url(season))
    form = page.context["adminform"].form
    assert form["confirmation_hours"].value() == 12
    assert form["postponed_within_days"].value() == 14
    html = page.content.decode()
    assert 'name="confirmation_hours"' in html and 'name="postponed_within_days"' in html


def test_an_admin_changes_both_and_the_match_night_follows(client, superuser):
    night = match_night()
    season = night.fixture.season
    client.force_login(superuser)
    response = client.post(
        change_url(season),
        season_change_form(season, confirmation_hours=6, postponed_within_days=10),
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    season.refresh_from_db()
    assert (season.confirmation_hours, season.postponed_within_days) == (6, 10)

    # A player's result now waits 6 hours; a postponed fixture is to be played within 10 days.
    version = services.result_submit(
        fixture_id=night.fixture.pk, sheet=night.sheet(), based_on_version=0, by=night.home[0]
    )
    waits = version.confirm_by - timezone.now()
    assert datetime.timedelta(hours=5, minutes=59) < waits <= datetime.timedelta(hours=6)
    other = match_night()
    Season.objects.filter(pk=other.fixture.season_id).update(postponed_within_days=10)
    postponed = fixture_status_change(
        fixture_id=other.fixture.pk, status="postponed", reason="Flooded", by=superuser
    )
    assert postponed.play_by == timezone.localdate(postponed.starts_at) + datetime.timedelta(
        days=10
    )


@pytest.mark.parametrize(
    "field, value",
    [
        ("confirmation_hours", "0"),
        ("confirmation_hours", "-3"),
        ("confirmation_hours", "1.5"),
        ("confirmation_hours", "169"),
        ("confirmation_hours", "a day"),
        ("postponed_within_days", "0"),
        ("postponed_within_days", "181"),
        ("postponed_within_days", "2.5"),
        ("postponed_within_days", "99999999999999999999"),
    ],
)
def test_anything_but_a_whole_number_in_range_is_refused_beside_the_field(
    client, superuser, field, value
):
    season = SeasonFactory()
    client.force_login(superuser)
    response = client.post(change_url(season), season_change_form(season, **{field: value}))
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert list(form.errors) == [field], form.errors
    season.refresh_from_db()
    assert (season.confirmation_hours, season.postponed_within_days) == (24, 28)


def test_left_out_of_a_post_both_stay_as_they_are(client, superuser):
    season = SeasonFactory(confirmation_hours=48, postponed_within_days=21)
    client.force_login(superuser)
    response = client.post(change_url(season), season_change_form(season, name="Renamed"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    season.refresh_from_db()
    assert (season.name, season.confirmation_hours, season.postponed_within_days) == (
        "Renamed",
        48,
        21,
    )
    client.post(reverse("admin:leagues_season_add"), season_form(LeagueFactory(), slug="new"))
    new = Season.objects.get(slug="new")
    assert (new.confirmation_hours, new.postponed_within_days) == (24, 28)


def test_staff_without_the_admins_rights_cannot_change_them(client):
    season = SeasonFactory()
    client.force_login(UserFactory(is_staff=True))
    response = client.post(change_url(season), season_change_form(season, confirmation_hours=1))
    assert response.status_code == 403
    season.refresh_from_db()
    assert season.confirmation_hours == 24
