"""leagues.services on PostgreSQL: generating fixtures; a fixture's status changes (reschedule,
postpone, void) and venue; a team's players."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from config.errors import Conflict, Forbidden, Invalid, NotFound
from leagues.models import Fixture, TeamMember
from leagues.services import (
    fixture_relocate,
    fixture_status_change,
    fixture_statuses_open,
    fixtures_generate,
    team_players_set,
)
from scoring.models import ResultVersion
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db
LONDON = ZoneInfo("Europe/London")


def season_with_teams(count, **season_fields):
    season = SeasonFactory(**season_fields)
    for _ in range(count):
        EntryFactory(season=season)
    return season


def admin_user():
    return UserFactory(is_superuser=True, is_staff=True)


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


@pytest.fixture
def venue_staff():
    return StaffMembershipFactory()


@pytest.fixture
def fixture_at_venue(venue_staff):
    home = TeamFactory(home_venue=venue_staff.venue)
    return FixtureFactory(home_team=home)


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
