"""leagues.services on PostgreSQL: one fixture's reschedule, postponement, void and venue; a team's
players. Generating fixtures and the fixture's life (every status change) have their own
test_services_*.py."""

import datetime

import pytest
from django.utils import timezone

from config.errors import Conflict, Forbidden, Invalid, NotFound
from leagues.models import Fixture, TeamMember
from leagues.services import fixture_relocate, fixture_status_change
from leagues.squad_services import team_players_set
from tests.factories import (
    PlayerFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)
from tests.leagues.builders import LONDON, admin_user

pytestmark = pytest.mark.django_db


# One fixture


def test_staff_reschedule_a_fixture_at_their_venue_with_history(venue_staff, fixture_at_venue):
    new_time = datetime.datetime(2026, 11, 5, 20, 0, tzinfo=LONDON)
    fixture = fixture_status_change(
        status="scheduled", fixture_id=fixture_at_venue.pk, starts_at=new_time, by=venue_staff.user
    )
    fixture.refresh_from_db()
    assert fixture.starts_at == new_time
    latest = fixture.history.first()
    assert latest.history_user == venue_staff.user
    assert latest.history_change_reason.startswith("Rescheduled from ")
    assert latest.history_change_reason.endswith("to 05 Nov 2026 20:00")
    assert latest.prev_record.starts_at == fixture_at_venue.starts_at


def test_rescheduling_a_postponed_fixture_puts_it_back_on(venue_staff, fixture_at_venue):
    fixture_status_change(
        status="postponed", fixture_id=fixture_at_venue.pk, reason="Burst pipe", by=venue_staff.user
    )
    new_time = timezone.now() + datetime.timedelta(days=30)
    fixture = fixture_status_change(
        status="scheduled", fixture_id=fixture_at_venue.pk, starts_at=new_time, by=venue_staff.user
    )
    fixture.refresh_from_db()
    assert (fixture.status, fixture.postponed_reason) == (Fixture.Status.SCHEDULED, "")
    assert fixture.history.first().history_change_reason.startswith("Rearranged from ")


def test_rescheduling_to_the_same_time_writes_nothing(venue_staff, fixture_at_venue):
    before = fixture_at_venue.history.count()
    fixture_status_change(
        status="scheduled",
        fixture_id=fixture_at_venue.pk,
        starts_at=fixture_at_venue.starts_at,
        by=venue_staff.user,
    )
    assert fixture_at_venue.history.count() == before


def test_staff_of_another_venue_cannot_reschedule_or_postpone(fixture_at_venue):
    other = StaffMembershipFactory().user
    original = fixture_at_venue.starts_at
    with pytest.raises(Forbidden):
        fixture_status_change(
            status="scheduled", fixture_id=fixture_at_venue.pk, starts_at=timezone.now(), by=other
        )
    with pytest.raises(Forbidden):
        fixture_status_change(
            status="postponed", fixture_id=fixture_at_venue.pk, reason="No", by=other
        )
    fixture_at_venue.refresh_from_db()
    assert (fixture_at_venue.starts_at, fixture_at_venue.status) == (original, "scheduled")


def test_a_player_cannot_reschedule(fixture_at_venue):
    with pytest.raises(Forbidden):
        fixture_status_change(
            status="scheduled",
            fixture_id=fixture_at_venue.pk,
            starts_at=timezone.now(),
            by=UserFactory(),
        )


def test_postponing_needs_a_reason_and_keeps_the_date(venue_staff, fixture_at_venue):
    for reason in ("", "   ", None, "x" * 251):
        with pytest.raises(Invalid) as refused:
            fixture_status_change(
                status="postponed",
                fixture_id=fixture_at_venue.pk,
                reason=reason,
                by=venue_staff.user,
            )
        assert "reason" in refused.value.errors
    fixture = fixture_status_change(
        status="postponed",
        fixture_id=fixture_at_venue.pk,
        reason="  Pub flooded  ",
        by=venue_staff.user,
    )
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.POSTPONED
    assert fixture.postponed_reason == "Pub flooded"
    assert fixture.starts_at == fixture_at_venue.starts_at
    latest = fixture.history.first()
    assert (latest.history_user, latest.history_change_reason) == (
        venue_staff.user,
        "Postponed: Pub flooded",
    )
    assert fixture.history.count() == 2  # created, postponed: refusals wrote nothing


def test_a_played_fixture_cannot_be_postponed_or_moved(venue_staff, fixture_at_venue):
    Fixture.objects.filter(pk=fixture_at_venue.pk).update(status=Fixture.Status.PLAYED)
    with pytest.raises(Conflict) as refused:
        fixture_status_change(
            status="postponed", fixture_id=fixture_at_venue.pk, reason="Late", by=venue_staff.user
        )
    assert "played" in refused.value.errors["status"][0]
    with pytest.raises(Conflict):
        fixture_status_change(
            status="scheduled",
            fixture_id=fixture_at_venue.pk,
            starts_at=timezone.now(),
            by=venue_staff.user,
        )


def test_a_league_admin_voids_a_fixture_with_the_reason_in_its_history(fixture_at_venue):
    admin = admin_user()
    fixture = fixture_status_change(
        status="void", fixture_id=fixture_at_venue.pk, reason="Team withdrew", by=admin
    )
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.VOID
    latest = fixture.history.first()
    assert (latest.history_user, latest.history_change_reason, latest.status) == (
        admin,
        "Team withdrew",
        "void",
    )


def test_a_void_fixture_stays_void(venue_staff, fixture_at_venue):
    fixture_status_change(
        status="void", fixture_id=fixture_at_venue.pk, reason="Team withdrew", by=admin_user()
    )
    with pytest.raises(Conflict):
        fixture_status_change(
            status="void", fixture_id=fixture_at_venue.pk, reason="Again", by=admin_user()
        )
    with pytest.raises(Conflict) as refused:
        fixture_status_change(
            status="scheduled",
            fixture_id=fixture_at_venue.pk,
            starts_at=timezone.now(),
            by=venue_staff.user,
        )
    assert "void" in refused.value.errors["status"][0]
    with pytest.raises(Conflict):
        fixture_status_change(
            status="postponed", fixture_id=fixture_at_venue.pk, reason="Rain", by=venue_staff.user
        )


def test_a_played_fixture_can_be_voided(fixture_at_venue):
    Fixture.objects.filter(pk=fixture_at_venue.pk).update(status=Fixture.Status.PLAYED)
    assert fixture_status_change(
        status="void", fixture_id=fixture_at_venue.pk, reason="Ineligible player", by=None
    )


def test_venue_staff_cannot_void_and_a_void_needs_a_short_reason(venue_staff, fixture_at_venue):
    with pytest.raises(Forbidden):
        fixture_status_change(
            status="void", fixture_id=fixture_at_venue.pk, reason="No show", by=venue_staff.user
        )
    with pytest.raises(Invalid) as refused:
        fixture_status_change(
            status="void", fixture_id=fixture_at_venue.pk, reason="x" * 101, by=admin_user()
        )
    assert "100 characters" in refused.value.errors["reason"][0]
    fixture_at_venue.refresh_from_db()
    assert fixture_at_venue.status == Fixture.Status.SCHEDULED


def test_an_unknown_fixture_is_not_found(venue_staff):
    with pytest.raises(NotFound) as refused:
        fixture_status_change(
            status="postponed", fixture_id=987654, reason="Rain", by=venue_staff.user
        )
    assert refused.value.detail == "There is no such fixture."


def test_a_league_admin_moves_a_fixture_to_another_venue(fixture_at_venue, venue_staff):
    neutral = VenueFactory(name="The Plough")
    with pytest.raises(Forbidden):
        fixture_relocate(fixture_id=fixture_at_venue.pk, venue_id=neutral.pk, by=venue_staff.user)
    fixture = fixture_relocate(fixture_id=fixture_at_venue.pk, venue_id=neutral.pk, by=admin_user())
    fixture.refresh_from_db()
    assert fixture.venue == neutral
    assert fixture.history.first().history_change_reason.endswith("to The Plough")


# Teams


def test_team_players_can_swap_positions():
    first, second = PlayerFactory(), PlayerFactory()
    team = TeamFactory(members=[first, second])
    team_players_set(team=team, players=[second, first])
    assert list(team.members.order_by("position").values_list("player", flat=True)) == [
        second.pk,
        first.pk,
    ]


@pytest.mark.parametrize("size", [1, 3])
def test_team_players_must_be_exactly_two(size):
    team = TeamFactory()
    before = list(TeamMember.objects.filter(team=team).values_list("player", flat=True))
    with pytest.raises(Invalid):
        team_players_set(team=team, players=[PlayerFactory() for _ in range(size)])
    player = PlayerFactory()
    with pytest.raises(Invalid):
        team_players_set(team=team, players=[player, player])
    assert list(TeamMember.objects.filter(team=team).values_list("player", flat=True)) == before
