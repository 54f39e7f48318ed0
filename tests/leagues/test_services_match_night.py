"""Match night's schedule services: a new date agreed between the teams, a postponed
fixture's deadline, availability and notice settings (leagues.services)."""

import datetime

import pytest
from django.utils import timezone

from config.errors import Conflict, Forbidden, Invalid, NotFound
from leagues.models import Availability, Entry, Fixture, Profile, RescheduleProposal, Reserve
from leagues.profile_services import profile_email_notices_set
from leagues.schedule_services import (
    availability_set,
    reschedule_accept,
    reschedule_decline,
    reschedule_propose,
    reschedule_withdraw,
)
from leagues.selectors import fixture_availability, fixtures_overdue
from leagues.services import fixture_status_change
from tests.factories import (
    FixtureFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
    team_player_user,
)

pytestmark = pytest.mark.django_db

NEXT_WEEK = timezone.now().replace(microsecond=0) + datetime.timedelta(days=7)


@pytest.fixture
def fixture():
    return FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=2))


@pytest.fixture
def home(fixture):
    return team_player_user(fixture.home_team, 1)


@pytest.fixture
def away(fixture):
    return team_player_user(fixture.away_team, 2)


def test_the_other_team_accepting_moves_the_fixture_with_who_and_when_in_its_history(
    fixture, home, away
):
    proposal = reschedule_propose(
        fixture_id=fixture.pk, starts_at=NEXT_WEEK, message="  Our pub   is shut ", by=home
    )
    assert (proposal.team_id, proposal.status, proposal.message) == (
        fixture.home_team_id,
        "proposed",
        "Our pub is shut",
    )

    accepted = reschedule_accept(proposal_id=proposal.pk, by=away)

    fixture.refresh_from_db()
    assert fixture.starts_at == NEXT_WEEK
    assert (accepted.status, accepted.decided_by) == ("accepted", away)
    latest = fixture.history.first()
    assert latest.history_user == away
    assert latest.history_change_reason.startswith("Rescheduled from")


def test_declining_keeps_the_date_and_lets_a_new_proposal_come(fixture, home, away):
    before = fixture.starts_at
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=away)
    reschedule_decline(proposal_id=proposal.pk, by=home)
    fixture.refresh_from_db()
    assert fixture.starts_at == before
    again = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    assert again.status == "proposed"


def test_accepting_a_postponed_fixtures_new_date_puts_it_back_on(fixture, home, away):
    staff = UserFactory(is_superuser=True)
    fixture_status_change(fixture_id=fixture.pk, status="postponed", reason="Flood", by=staff)
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    reschedule_accept(proposal_id=proposal.pk, by=away)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.starts_at) == ("scheduled", NEXT_WEEK)


@pytest.mark.parametrize("who", ["stranger", "proposer", "partner"])
def test_only_the_other_team_answers(fixture, home, who):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    user = {
        "stranger": UserFactory(),
        "proposer": home,
        "partner": team_player_user(fixture.home_team, 2),
    }[who]
    for answer in (reschedule_accept, reschedule_decline):
        with pytest.raises(Forbidden):
            answer(proposal_id=proposal.pk, by=user)
    assert RescheduleProposal.objects.get().status == "proposed"


def test_a_decided_proposal_cannot_be_answered_again(fixture, home, away):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    reschedule_decline(proposal_id=proposal.pk, by=away)
    with pytest.raises(Conflict, match="already been declined"):
        reschedule_accept(proposal_id=proposal.pk, by=away)
    fixture.refresh_from_db()
    assert fixture.starts_at != NEXT_WEEK


def test_a_proposal_is_refused_for_a_past_date_a_second_proposal_and_strangers(fixture, home, away):
    with pytest.raises(Invalid) as refusal:
        reschedule_propose(
            fixture_id=fixture.pk, starts_at=timezone.now() - datetime.timedelta(hours=1), by=home
        )
    assert "starts_at" in refusal.value.errors
    with pytest.raises(Invalid) as refusal:
        reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, message="x" * 501, by=home)
    assert "message" in refusal.value.errors
    with pytest.raises(Forbidden):
        reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=UserFactory())
    reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    with pytest.raises(Conflict):
        reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=away)
    with pytest.raises(NotFound):
        reschedule_accept(proposal_id=0, by=away)
    assert RescheduleProposal.objects.count() == 1


@pytest.mark.parametrize("status", ["played", "void"])
def test_a_played_or_void_fixture_takes_no_proposal_and_no_acceptance(fixture, home, away, status):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    Fixture.objects.filter(pk=fixture.pk).update(status=status)
    with pytest.raises(Conflict):
        reschedule_accept(proposal_id=proposal.pk, by=away)
    reschedule_withdraw(proposal_id=proposal.pk, by=home)
    with pytest.raises(Conflict):
        reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)


def test_only_the_proposing_team_withdraws(fixture, home, away):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    with pytest.raises(Forbidden):
        reschedule_withdraw(proposal_id=proposal.pk, by=away)
    assert reschedule_withdraw(proposal_id=proposal.pk, by=home).status == "withdrawn"


def test_postponing_sets_the_day_it_must_be_played_by_and_an_admin_sees_it_overdue():
    season = SeasonFactory(postponed_within_days=21)
    fixture = FixtureFactory(season=season, starts_at=timezone.now() - datetime.timedelta(days=30))
    admin = UserFactory(is_superuser=True)
    fixture_status_change(fixture_id=fixture.pk, status="postponed", reason="Snow", by=admin)
    fixture.refresh_from_db()
    assert fixture.play_by == timezone.localdate(fixture.starts_at) + datetime.timedelta(days=21)
    # Postponed again: the deadline stays.
    fixture_status_change(fixture_id=fixture.pk, status="postponed", reason="More snow", by=admin)
    fixture.refresh_from_db()
    assert fixture.play_by == timezone.localdate(fixture.starts_at) + datetime.timedelta(days=21)
    assert list(fixtures_overdue()) == [fixture]
    assert list(fixtures_overdue(today=fixture.play_by)) == []


def test_players_and_reserves_mark_availability_and_the_reserve_could_stand_in(fixture, home):
    reserve = PlayerFactory(user=UserFactory())
    entry = Entry.objects.create(season=fixture.season, team=fixture.home_team)
    Reserve.objects.create(entry=entry, player=reserve)

    availability_set(fixture_id=fixture.pk, available=True, by=home)
    availability_set(fixture_id=fixture.pk, available=False, by=home)  # changed their mind
    availability_set(fixture_id=fixture.pk, available=True, by=reserve.user)

    assert Availability.objects.filter(fixture=fixture).count() == 2
    home_side, away_side = fixture_availability(fixture=fixture)
    assert [mark.available for mark in home_side.players] == [False, None]
    assert home_side.short and [mark.player for mark in home_side.stand_ins] == [reserve]
    assert not away_side.short and away_side.stand_ins == []


def test_availability_is_refused_to_others_and_for_played_fixtures(fixture, home):
    other_reserve = PlayerFactory(user=UserFactory())
    Reserve.objects.create(
        entry=Entry.objects.create(season=SeasonFactory(), team=fixture.home_team),
        player=other_reserve,
    )  # a reserve in another season
    for user in (UserFactory(), other_reserve.user):
        with pytest.raises(Forbidden):
            availability_set(fixture_id=fixture.pk, available=True, by=user)
    Fixture.objects.filter(pk=fixture.pk).update(status="played")
    with pytest.raises(Conflict):
        availability_set(fixture_id=fixture.pk, available=True, by=home)
    assert not Availability.objects.exists()


def test_a_user_turns_their_notices_off_and_on():
    user = UserFactory()
    assert profile_email_notices_set(user=user, email_notices=False).email_notices is False
    assert Profile.objects.get(user=user).email_notices is False
    assert profile_email_notices_set(user=user, email_notices=True).email_notices is True


@pytest.mark.parametrize(
    "change",
    [
        {"status": "scheduled", "starts_at": NEXT_WEEK + datetime.timedelta(days=3)},
        {"status": "postponed", "reason": "The pub is flooded"},
        {"status": "void", "reason": "Both teams folded"},
    ],
)
def test_staffs_own_move_closes_the_open_proposal_so_accepting_it_cannot_undo_it(
    fixture, home, away, change
):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    admin = UserFactory(is_superuser=True)
    fixture_status_change(fixture_id=fixture.pk, by=admin, **change)
    proposal.refresh_from_db()
    assert (proposal.status, proposal.decided_by) == ("withdrawn", admin)
    moved = Fixture.objects.get(pk=fixture.pk)
    with pytest.raises(Conflict, match="closed when staff or a league admin moved"):
        reschedule_accept(proposal_id=proposal.pk, by=away)
    with pytest.raises(Conflict):
        reschedule_decline(proposal_id=proposal.pk, by=away)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.starts_at) == (moved.status, moved.starts_at)
    assert fixture.starts_at != NEXT_WEEK


def test_after_staff_moved_it_the_teams_may_propose_again(fixture, home, away):
    reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    staff = UserFactory(is_superuser=True)
    fixture_status_change(fixture_id=fixture.pk, status="postponed", reason="Flood", by=staff)
    again = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=away)
    reschedule_accept(proposal_id=again.pk, by=home)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.starts_at) == ("scheduled", NEXT_WEEK)


def test_saving_the_fixture_unchanged_leaves_the_proposal_open(fixture, home):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=NEXT_WEEK, by=home)
    staff = UserFactory(is_superuser=True)
    fixture_status_change(fixture_id=fixture.pk, status="scheduled", by=staff)
    proposal.refresh_from_db()
    assert proposal.status == "proposed"
