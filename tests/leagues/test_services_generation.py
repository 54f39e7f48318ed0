"""leagues.services on PostgreSQL: generating a season's fixtures (dates, local times, history,
refusals)."""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from config.errors import Conflict, Forbidden, Invalid
from leagues.models import Fixture
from leagues.services import fixtures_generate
from scoring.models import ResultVersion
from tests.factories import EntryFactory, StaffMembershipFactory, UserFactory
from tests.leagues.builders import LONDON, admin_user, season_with_teams

pytestmark = pytest.mark.django_db


# Generation


def test_generation_creates_the_double_round_robin_with_the_home_teams_venue():
    season = season_with_teams(6)
    fixtures = fixtures_generate(season=season, by=admin_user())
    stored = list(season.fixtures.select_related("home_team", "venue"))
    assert len(fixtures) == len(stored) == 30
    assert {fixture.round for fixture in stored} == set(range(1, 11))
    assert all(fixture.venue_id == fixture.home_team.home_venue_id for fixture in stored)
    assert all(fixture.status == Fixture.Status.SCHEDULED for fixture in stored)
    pairs = {(fixture.home_team_id, fixture.away_team_id) for fixture in stored}
    teams = list(season.teams.values_list("pk", flat=True))
    assert pairs == {(home, away) for home in teams for away in teams if home != away}


def test_generation_gives_each_round_its_date_from_the_first_kickoff_and_interval():
    season = season_with_teams(5)
    first = datetime.datetime(2026, 9, 3, 20, 0, tzinfo=LONDON)
    fixtures_generate(season=season, first_kickoff=first, days_between_rounds=14)
    for fixture in season.fixtures.all():
        assert fixture.starts_at == first + datetime.timedelta(days=14 * (fixture.round - 1))
    assert season.fixtures.values("round").distinct().count() == 10  # 2n rounds for n = 5


def test_generation_defaults_to_the_seasons_first_day_at_half_past_seven_local_time():
    season = season_with_teams(4, starts_on=datetime.date(2026, 10, 20))
    fixtures_generate(season=season)
    local = {
        fixture.round: timezone.localtime(fixture.starts_at).replace(tzinfo=None)
        for fixture in season.fixtures.all()
    }
    assert local[1] == datetime.datetime(2026, 10, 20, 19, 30)
    # The clocks go back on 25 October: round 2 still kicks off at 19:30 local time.
    assert local[2] == datetime.datetime(2026, 10, 27, 19, 30)
    assert local[6] == datetime.datetime(2026, 11, 24, 19, 30)


def test_a_kickoff_given_in_utc_keeps_its_local_time_across_the_clock_change():
    season = season_with_teams(2)
    first = datetime.datetime(2026, 10, 20, 18, 30, tzinfo=datetime.UTC)  # 19:30 BST
    fixtures_generate(season=season, first_kickoff=first)
    second = season.fixtures.get(round=2).starts_at
    assert second == datetime.datetime(2026, 10, 27, 19, 30, tzinfo=LONDON)


def test_generation_makes_a_naive_kickoff_local():
    season = season_with_teams(2)
    fixtures_generate(season=season, first_kickoff=datetime.datetime(2026, 9, 3, 19, 0))
    assert season.fixtures.get(round=1).starts_at == datetime.datetime(
        2026, 9, 3, 19, 0, tzinfo=LONDON
    )


def test_generation_records_who_generated_in_the_history():
    season = season_with_teams(3)
    admin = admin_user()
    fixtures_generate(season=season, by=admin)
    history = Fixture.history.filter(season_id=season.pk)
    assert history.count() == 6
    assert set(history.values_list("history_type", "history_user", "history_change_reason")) == {
        ("+", admin.pk, "Generated")
    }


def test_generating_again_replaces_fixtures_that_have_no_result():
    season = season_with_teams(4)
    old = {fixture.pk for fixture in fixtures_generate(season=season)}
    EntryFactory(season=season)
    new = fixtures_generate(season=season, by=admin_user())
    assert len(new) == 20
    assert set(season.fixtures.values_list("pk", flat=True)) == {fixture.pk for fixture in new}
    assert not old & {fixture.pk for fixture in new}
    assert Fixture.history.filter(id__in=old, history_type="-").count() == len(old)


def test_generation_is_refused_once_a_fixture_has_a_result():
    season = season_with_teams(4)
    fixture = fixtures_generate(season=season)[0]
    ResultVersion.objects.create(
        fixture=fixture, number=1, sheet={}, home_score=60, away_score=70, winner="home"
    )
    with pytest.raises(Conflict) as refused:
        fixtures_generate(season=season)
    assert "already has results" in refused.value.errors["season"][0]
    assert season.fixtures.count() == 12


def test_generation_is_refused_when_a_fixture_is_marked_played():
    season = season_with_teams(3)
    fixture = fixtures_generate(season=season)[0]
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.PLAYED)
    with pytest.raises(Conflict):
        fixtures_generate(season=season)
    assert Fixture.objects.filter(pk=fixture.pk).exists()


@pytest.mark.parametrize("count", [0, 1])
def test_generation_is_refused_with_fewer_than_two_teams(count):
    season = season_with_teams(count)
    with pytest.raises(Conflict) as refused:
        fixtures_generate(season=season)
    assert "at least two teams" in refused.value.errors["season"][0]
    assert not season.fixtures.exists()


@pytest.mark.parametrize("days", [0, -7, 366, True, "7"])
def test_generation_is_refused_for_a_bad_interval(days):
    season = season_with_teams(2)
    with pytest.raises(Invalid) as refused:
        fixtures_generate(season=season, days_between_rounds=days)
    assert "days_between_rounds" in refused.value.errors
    assert not season.fixtures.exists()


def test_generation_is_refused_to_pub_staff_and_players():
    season = season_with_teams(2)
    staff = StaffMembershipFactory(user__is_staff=True).user
    for user in (staff, UserFactory()):
        with pytest.raises(Forbidden):
            fixtures_generate(season=season, by=user)
    assert not season.fixtures.exists()


def test_generation_is_allowed_to_a_non_superuser_holding_the_fixture_permissions():
    season = season_with_teams(2)
    manager = UserFactory(is_staff=True)
    manager.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_fixture", "delete_fixture"])
    )
    assert len(fixtures_generate(season=season, by=manager)) == 2


# One fixture
