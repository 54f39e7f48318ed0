"""What needs you (scoring.match_night.selectors.needs_you): each person sees what waits for
them, and nobody else's."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import Availability
from leagues.schedule_services import reschedule_propose
from scoring.match_night.selectors import needs_you
from tests.factories import FixtureFactory, StaffMembershipFactory, UserFactory, team_player_user
from tests.scoring.match_night.conftest import version

pytestmark = pytest.mark.django_db


def test_a_result_awaits_the_other_teams_players_not_its_enterers(fixture, home, away):
    entered = version(fixture, by=home)
    partner = team_player_user(fixture.home_team, 2)
    away_partner = team_player_user(fixture.away_team, 2)
    assert needs_you(user=away).results_to_confirm == [entered]
    assert needs_you(user=away_partner).results_to_confirm == [entered]
    assert needs_you(user=home).results_to_confirm == []
    assert needs_you(user=partner).results_to_confirm == []
    assert needs_you(user=UserFactory()).results_to_confirm == []


def test_a_confirmed_or_staff_entered_result_awaits_nobody(fixture, home, away):
    version(fixture, by=home, confirmation="confirmed")
    assert needs_you(user=away).results_to_confirm == []
    staff = StaffMembershipFactory(venue=fixture.venue).user
    version(fixture, by=staff, number=2)  # awaiting, but not entered by a player of a team
    assert needs_you(user=away).results_to_confirm == []


def test_a_dispute_waits_for_the_venues_staff_and_the_admins_only(fixture, home):
    disputed = version(fixture, by=home, confirmation="disputed")
    staff = StaffMembershipFactory(venue=fixture.venue).user
    other_staff = StaffMembershipFactory().user
    admin = UserFactory(is_superuser=True)
    assert needs_you(user=staff).disputes_to_decide == [disputed]
    assert needs_you(user=admin).disputes_to_decide == [disputed]
    assert needs_you(user=other_staff).disputes_to_decide == []
    assert needs_you(user=home).disputes_to_decide == []


def test_a_proposed_date_waits_for_the_other_team(home, away):
    upcoming = FixtureFactory(
        home_team=home.player.teams.get(),
        away_team=away.player.teams.get(),
        round=2,
        stage="cup",
        starts_at=timezone.now() + datetime.timedelta(days=3),
    )
    proposal = reschedule_propose(
        fixture_id=upcoming.pk, starts_at=timezone.now() + datetime.timedelta(days=9), by=home
    )
    assert needs_you(user=away).dates_to_answer == [proposal]
    assert needs_you(user=home).dates_to_answer == []


def test_tonight_and_fixtures_to_mark(fixture, home):
    team = home.player.teams.get()
    now = timezone.localtime().replace(hour=12, minute=0)
    fixture.starts_at = now - datetime.timedelta(days=2)  # the team's last fixture: played
    fixture.status = "played"
    fixture.save()
    tonight = FixtureFactory(home_team=team, starts_at=now.replace(hour=19, minute=30))
    next_week = FixtureFactory(home_team=team, starts_at=now + datetime.timedelta(days=7))
    FixtureFactory(home_team=team, starts_at=now + datetime.timedelta(days=40))  # too far ahead
    needs = needs_you(user=home, now=now)
    assert needs.tonight == [tonight]
    assert needs.to_mark == [tonight, next_week]
    Availability.objects.create(fixture=next_week, player=home.player, available=True)
    assert needs_you(user=home, now=now).to_mark == [tonight]
