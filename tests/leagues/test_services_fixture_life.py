"""leagues.services on PostgreSQL: the fixture's life, every status change allowed or refused, and
the statuses offered to a user."""

import datetime

import pytest
from django.contrib.auth.models import Permission

from config.errors import Conflict, Forbidden, Invalid
from leagues.models import Fixture
from leagues.services import (
    fixture_relocate,
    fixture_status_change,
    fixture_statuses_open,
    fixtures_generate,
)
from tests.factories import StaffMembershipFactory, UserFactory
from tests.leagues.builders import admin_user, season_with_teams

pytestmark = pytest.mark.django_db


# The fixture's life: every status change, allowed or refused

S = Fixture.Status
ALLOWED = {
    (S.SCHEDULED, S.SCHEDULED),
    (S.SCHEDULED, S.POSTPONED),
    (S.SCHEDULED, S.VOID),
    (S.POSTPONED, S.SCHEDULED),
    (S.POSTPONED, S.POSTPONED),
    (S.POSTPONED, S.VOID),
    (S.PLAYED, S.PLAYED),
    (S.PLAYED, S.VOID),
}


@pytest.mark.parametrize("before", S.values)
@pytest.mark.parametrize("after", S.values)
def test_every_status_change_is_allowed_or_refused_by_the_fixture_life(
    fixture_at_venue, before, after
):
    Fixture.objects.filter(pk=fixture_at_venue.pk).update(
        status=before, postponed_reason="Rain" if before == S.POSTPONED else ""
    )
    history = fixture_at_venue.history.count()
    change = {
        "fixture_id": fixture_at_venue.pk,
        "status": after,
        "reason": "Flood",
        "by": admin_user(),
    }
    if after == S.SCHEDULED:
        change["starts_at"] = fixture_at_venue.starts_at + datetime.timedelta(days=7)
    if (before, after) in ALLOWED:
        fixture_status_change(**change)
        fixture_at_venue.refresh_from_db()
        assert fixture_at_venue.status == after
    else:
        with pytest.raises(Invalid if after == S.PLAYED else Conflict) as refused:
            fixture_status_change(**change)
        assert "status" in refused.value.errors
        fixture_at_venue.refresh_from_db()
        assert fixture_at_venue.status == before
        assert fixture_at_venue.history.count() == history


def test_marking_a_fixture_played_by_hand_is_refused_in_words(fixture_at_venue):
    with pytest.raises(Invalid) as refused:
        fixture_status_change(fixture_id=fixture_at_venue.pk, status="played", by=admin_user())
    assert refused.value.errors["status"] == [
        "A fixture becomes played when its result is entered."
    ]


@pytest.mark.parametrize("status", ["finished", "", None, 3, ["void"]])
def test_an_unknown_status_is_refused(fixture_at_venue, status):
    with pytest.raises(Invalid) as refused:
        fixture_status_change(fixture_id=fixture_at_venue.pk, status=status, by=admin_user())
    assert "status" in refused.value.errors


@pytest.mark.parametrize("status", [S.POSTPONED, S.VOID])
def test_postponing_or_voiding_keeps_the_date(fixture_at_venue, status):
    with pytest.raises(Invalid) as refused:
        fixture_status_change(
            fixture_id=fixture_at_venue.pk,
            status=status,
            reason="Flood",
            starts_at=fixture_at_venue.starts_at + datetime.timedelta(days=1),
            by=admin_user(),
        )
    assert "starts_at" in refused.value.errors
    fixture_at_venue.refresh_from_db()
    assert fixture_at_venue.status == S.SCHEDULED


def test_a_postponed_fixture_gets_a_new_reason_in_its_history(venue_staff, fixture_at_venue):
    by = venue_staff.user
    fixture_status_change(fixture_id=fixture_at_venue.pk, status="postponed", reason="Rain", by=by)
    fixture_status_change(fixture_id=fixture_at_venue.pk, status="postponed", reason="", by=by)
    fixture_at_venue.refresh_from_db()
    assert fixture_at_venue.postponed_reason == "Rain"  # a blank reason keeps the one given
    fixture_status_change(fixture_id=fixture_at_venue.pk, status="postponed", reason="Flood", by=by)
    fixture_at_venue.refresh_from_db()
    assert fixture_at_venue.postponed_reason == "Flood"
    reasons = list(fixture_at_venue.history.values_list("history_change_reason", flat=True))
    assert reasons[:2] == ["Postponed: Flood", "Postponed: Rain"]


def test_the_statuses_offered_depend_on_the_fixture_and_the_user(venue_staff, fixture_at_venue):
    staff, admin = venue_staff.user, admin_user()
    assert fixture_statuses_open(fixture=fixture_at_venue, user=staff) == ["scheduled", "postponed"]
    assert fixture_statuses_open(fixture=fixture_at_venue, user=admin) == [
        "scheduled",
        "postponed",
        "void",
    ]
    fixture_at_venue.status = S.PLAYED
    assert fixture_statuses_open(fixture=fixture_at_venue, user=staff) == ["played"]
    assert fixture_statuses_open(fixture=fixture_at_venue, user=admin) == ["played", "void"]
    fixture_at_venue.status = S.VOID
    assert fixture_statuses_open(fixture=fixture_at_venue, user=admin) == ["void"]


@pytest.mark.parametrize("codename", ["add_fixture", "delete_fixture"])
def test_one_of_the_two_league_admin_permissions_is_not_enough(codename, fixture_at_venue):
    season = season_with_teams(2)
    holder = UserFactory(is_staff=True)
    holder.user_permissions.add(Permission.objects.get(codename=codename))
    with pytest.raises(Forbidden):
        fixtures_generate(season=season, by=holder)
    other_venue = StaffMembershipFactory().venue
    with pytest.raises(Forbidden):
        fixture_relocate(fixture_id=fixture_at_venue.pk, venue_id=other_venue.pk, by=holder)
    assert not season.fixtures.exists()
    fixture_at_venue.refresh_from_db()
    assert fixture_at_venue.venue_id != other_venue.pk
