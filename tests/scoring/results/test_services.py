"""scoring.results.services.result_submit: versions, conflicts, refusals, on PostgreSQL."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from config.errors import Invalid
from leagues.models import Fixture, Game
from scoring.models import ResultVersion
from scoring.results import services
from scoring.results.fixture_day import BeforeFixtureDay
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.services import ResultConflict, result_submit
from scoring.results.sheets import SheetInvalid
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db


def _fixture(game=Game.KOROVA, **season):
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game=game), **season)
    return FixtureFactory(
        season=season,
        home_team=TeamFactory(home_venue=venue),
        away_team=TeamFactory(),
        venue=venue,
    )


def _players(fixture):
    home = [m.player_id for m in fixture.home_team.members.order_by("position")]
    away = [m.player_id for m in fixture.away_team.members.order_by("position")]
    return home, away


def korova_sheet(fixture, rounds=None):
    """Home player 1 reaches 80 in round 4: the away team wins on 60 heads against 100."""
    home, away = _players(fixture)
    return {
        "players": [*home, *away],
        "rounds": rounds or [[20, 5, 10, 5]] * 4,
    }


def conquian_sheet(fixture):
    home, away = _players(fixture)
    return {
        "singles": [
            {"home_player": home[0], "away_player": away[0], "deals": ["home"] * 5},
            {
                "home_player": home[1],
                "away_player": away[1],
                "deals": ["away", "away", "away", "away", "draw", "away"],
            },
        ]
    }


CONVOY_SHEET = {
    "games": [
        {"winner": "home", "convoys": {"home": 3, "away": 1}},
        {"winner": "home", "convoys": {"home": 3, "away": 2}},
    ]
}


@pytest.fixture
def fixture():
    return _fixture()


@pytest.fixture
def staff(fixture):
    return StaffMembershipFactory(venue=fixture.venue).user


def test_first_result_is_version_one_and_the_fixture_becomes_played(fixture, staff):
    version = result_submit(
        fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff
    )

    assert version.number == 1
    assert version.is_current
    assert version.created_by == staff
    assert version.source == "staff"
    assert (version.home_score, version.away_score, version.winner) == (100, 60, "away")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED


def test_a_correction_appends_version_two_and_only_the_latest_is_current(fixture, staff):
    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)
    corrected = korova_sheet(fixture, rounds=[[5, 5, 20, 10]] * 4)

    version = result_submit(
        fixture_id=fixture.pk, sheet=corrected, based_on_version=1, by=staff, note="Swapped"
    )

    versions = list(fixture.result_versions.order_by("number"))
    assert [v.number for v in versions] == [1, 2]
    assert [v.is_current for v in versions] == [False, True]
    assert versions[0].sheet == korova_sheet(fixture)  # never overwritten
    assert version.winner == "home" and version.note == "Swapped"


def test_a_stale_based_on_version_raises_conflict_with_the_current_version(fixture, staff):
    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)

    with pytest.raises(ResultConflict) as raised:
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff
        )

    assert raised.value.current.number == 1
    assert raised.value.based_on_version == 0
    assert fixture.result_versions.count() == 1


def test_a_based_on_version_ahead_of_the_saved_one_is_a_conflict(fixture, staff):
    with pytest.raises(ResultConflict) as raised:
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=3, by=staff
        )

    assert raised.value.current is None
    assert not ResultVersion.objects.exists()


@pytest.mark.parametrize("based_on", ["1", None, True, 1.0])
def test_a_based_on_version_that_is_not_a_whole_number_is_a_conflict(fixture, staff, based_on):
    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)

    with pytest.raises(ResultConflict):
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=based_on, by=staff
        )
    assert fixture.result_versions.count() == 1


def test_an_invalid_sheet_changes_nothing(fixture, staff):
    after_the_end = korova_sheet(fixture, rounds=[[20, 5, 10, 5]] * 5)

    with pytest.raises(SheetInvalid) as raised:
        result_submit(fixture_id=fixture.pk, sheet=after_the_end, based_on_version=0, by=staff)

    assert "rounds.4" in raised.value.errors
    assert not ResultVersion.objects.exists()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED


def test_an_invalid_correction_keeps_the_current_version(fixture, staff):
    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)

    with pytest.raises(SheetInvalid):
        result_submit(
            fixture_id=fixture.pk,
            sheet=korova_sheet(fixture, rounds=[[20, -1, 10, 5]]),
            based_on_version=1,
            by=staff,
        )

    assert list(fixture.result_versions.values_list("number", "is_current")) == [(1, True)]


def test_players_who_are_not_in_the_fixture_are_refused(fixture, staff):
    sheet = korova_sheet(fixture)
    sheet["players"][3] = PlayerFactory().pk

    with pytest.raises(SheetInvalid) as raised:
        result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=staff)

    assert "players.3" in raised.value.errors
    assert not ResultVersion.objects.exists()


def test_home_and_away_players_swapped_are_refused(fixture, staff):
    sheet = korova_sheet(fixture)
    sheet["players"] = sheet["players"][2:] + sheet["players"][:2]

    with pytest.raises(SheetInvalid):
        result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=staff)
    assert not ResultVersion.objects.exists()


def test_a_note_longer_than_the_field_is_refused(fixture, staff):
    with pytest.raises(Invalid) as raised:
        result_submit(
            fixture_id=fixture.pk,
            sheet=korova_sheet(fixture),
            based_on_version=0,
            by=staff,
            note="x" * 251,
        )
    assert "note" in raised.value.errors
    assert not ResultVersion.objects.exists()


def test_staff_of_another_venue_cannot_submit(fixture):
    other = StaffMembershipFactory().user

    with pytest.raises(PermissionDenied):
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=other
        )
    assert not ResultVersion.objects.exists()


def test_a_player_cannot_submit(fixture):
    player_user = UserFactory()
    PlayerFactory(user=player_user)

    with pytest.raises(PermissionDenied):
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=player_user
        )
    assert not ResultVersion.objects.exists()


def test_an_anonymous_visitor_cannot_submit(fixture):
    with pytest.raises(PermissionDenied):
        result_submit(
            fixture_id=fixture.pk,
            sheet=korova_sheet(fixture),
            based_on_version=0,
            by=AnonymousUser(),
        )
    assert not ResultVersion.objects.exists()


def test_a_refusal_comes_before_the_version_check(fixture, staff):
    """A stranger learns nothing about the versions: permission first, then the conflict."""
    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)

    with pytest.raises(PermissionDenied):
        result_submit(
            fixture_id=fixture.pk,
            sheet=korova_sheet(fixture),
            based_on_version=0,
            by=StaffMembershipFactory().user,
        )


def test_a_superuser_may_submit_anywhere(fixture):
    admin = UserFactory(is_superuser=True, is_staff=True)

    version = result_submit(
        fixture_id=fixture.pk,
        sheet=korova_sheet(fixture),
        based_on_version=0,
        by=admin,
        source="admin",
    )
    assert version.source == "admin"


def test_a_void_fixture_is_refused(fixture, staff):
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.VOID)

    with pytest.raises(FixtureNotOpen):
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff
        )

    assert not ResultVersion.objects.exists()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.VOID


def test_a_postponed_fixture_that_was_played_after_all_takes_its_result(fixture, staff):
    Fixture.objects.filter(pk=fixture.pk).update(
        status=Fixture.Status.POSTPONED, postponed_reason="Flooded cellar"
    )

    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)

    fixture.refresh_from_db()
    assert (fixture.status, fixture.postponed_reason) == (Fixture.Status.PLAYED, "")


def test_the_fixture_history_records_who_marked_it_played(fixture, staff):
    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)

    latest = fixture.history.order_by("-history_id").first()
    assert latest.status == Fixture.Status.PLAYED
    assert latest.history_user == staff


def test_an_unknown_source_is_a_programming_error(fixture, staff):
    with pytest.raises(ValueError):
        result_submit(
            fixture_id=fixture.pk,
            sheet=korova_sheet(fixture),
            based_on_version=0,
            by=staff,
            source="carrier-pigeon",
        )


def test_the_normalised_sheet_is_stored():
    fixture = _fixture()
    staff = StaffMembershipFactory(venue=fixture.venue).user
    sheet = korova_sheet(fixture, rounds=[["20", "5", "10", "5"]] * 4 + [[None] * 4])

    version = result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=staff)

    assert version.sheet["rounds"] == [[20, 5, 10, 5]] * 4


def test_a_conquian_result_scores_deal_points():
    fixture = _fixture(Game.CONQUIAN)
    staff = StaffMembershipFactory(venue=fixture.venue).user

    version = result_submit(
        fixture_id=fixture.pk, sheet=conquian_sheet(fixture), based_on_version=0, by=staff
    )

    # One single each; deal points 5 + 0 against 0 + 6 (four deals, a draw, then a deal worth 2).
    assert (version.home_score, version.away_score, version.winner) == (5, 6, "away")


def test_a_convoy_best_of_three_scores_convoys():
    fixture = _fixture(Game.CONVOY, fixture_format={"games": 3})
    staff = StaffMembershipFactory(venue=fixture.venue).user

    version = result_submit(fixture_id=fixture.pk, sheet=CONVOY_SHEET, based_on_version=0, by=staff)

    assert (version.home_score, version.away_score, version.winner) == (6, 3, "home")


def test_a_write_that_slipped_past_the_lock_is_turned_into_a_conflict(fixture, staff, monkeypatch):
    """If a second writer ever read a stale version, the unique constraints stop it."""
    result_submit(fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff)
    real = services.fixture_current_result
    calls = []

    def stale_first_read(*, fixture):
        calls.append(fixture)
        return None if len(calls) == 1 else real(fixture=fixture)

    monkeypatch.setattr(services, "fixture_current_result", stale_first_read)

    with pytest.raises(ResultConflict) as raised:
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff
        )

    assert raised.value.current.number == 1
    assert list(fixture.result_versions.values_list("number", "is_current")) == [(1, True)]


def test_a_missing_fixture_raises_does_not_exist(staff):
    with pytest.raises(Fixture.DoesNotExist):
        result_submit(fixture_id=987654, sheet={}, based_on_version=0, by=staff)


# --- the fixture's day ---------------------------------------------------------------------


def _move(fixture, **delta):
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=timezone.now() + timedelta(**delta))
    fixture.refresh_from_db()


def test_a_result_weeks_before_the_fixture_is_refused_and_nothing_changes(fixture, staff):
    _move(fixture, weeks=5)

    with pytest.raises(BeforeFixtureDay) as refused:
        result_submit(
            fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff
        )

    assert refused.value.fixture_day == timezone.localdate(fixture.starts_at)
    assert "its result can be entered from that day on" in str(refused.value)
    assert not ResultVersion.objects.exists()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED


def test_a_result_later_on_the_fixtures_own_day_is_taken(fixture, staff):
    tonight = timezone.localtime().replace(hour=23, minute=59, second=0)
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=tonight)

    version = result_submit(
        fixture_id=fixture.pk, sheet=korova_sheet(fixture), based_on_version=0, by=staff
    )

    assert version.number == 1


def test_a_league_admin_may_override_the_fixture_day(fixture):
    _move(fixture, days=3)
    admin = UserFactory(is_superuser=True)

    version = result_submit(
        fixture_id=fixture.pk,
        sheet=korova_sheet(fixture),
        based_on_version=0,
        by=admin,
        before_fixture_day=True,
    )

    assert version.number == 1


def test_staff_cannot_override_the_fixture_day(fixture, staff):
    _move(fixture, days=3)

    with pytest.raises(PermissionDenied):
        result_submit(
            fixture_id=fixture.pk,
            sheet=korova_sheet(fixture),
            based_on_version=0,
            by=staff,
            before_fixture_day=True,
        )
    assert not ResultVersion.objects.exists()


def test_the_override_does_nothing_once_the_day_has_come(fixture, staff):
    version = result_submit(
        fixture_id=fixture.pk,
        sheet=korova_sheet(fixture),
        based_on_version=0,
        by=staff,
        before_fixture_day=True,
    )

    assert version.number == 1
