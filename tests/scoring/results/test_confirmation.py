"""Match night's services: a player's result awaits the other team, who confirm or dispute it;
staff decide; the window confirms what nobody answered. Every step is a new version."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from config.errors import Invalid, NotFound
from leagues.models import Fixture
from scoring.models import ResultVersion
from scoring.results import confirmation, services
from scoring.results.confirmation import NotCurrentVersion
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.services import ResultSettled
from tests.factories import UserFactory
from tests.scoring.results.match_night import MatchNight, match_night

pytestmark = pytest.mark.django_db

AWAY_WINS = [[20, 5, 10, 5]] * 4  # home 100 heads, away 60: the away team wins
HOME_WINS = [[5, 5, 20, 10]] * 4


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def night() -> MatchNight:
    return match_night(confirmation_hours=6)


def enter(night, by, rounds=None, based_on=0):
    return services.result_submit(
        fixture_id=night.fixture.pk,
        sheet=night.sheet(rounds),
        based_on_version=based_on,
        by=by,
    )


def versions(night) -> list[tuple[int, str, str, bool]]:
    return list(
        ResultVersion.objects.filter(fixture=night.fixture)
        .order_by("number")
        .values_list("number", "confirmation", "source", "is_current")
    )


def counted(night) -> bool:
    return ResultVersion.objects.counted().filter(fixture=night.fixture).exists()


# ---- entering ---------------------------------------------------------------------------------


def test_a_players_result_awaits_the_other_team_for_the_seasons_window(night):
    before = timezone.now()
    version = enter(night, night.home[0])
    assert version.confirmation == "awaiting" and version.source == "player"
    window = version.confirm_by - before
    assert datetime.timedelta(hours=6) <= window < datetime.timedelta(hours=6, seconds=30)
    assert not counted(night)
    night.fixture.refresh_from_db()
    assert night.fixture.status == Fixture.Status.PLAYED


@pytest.mark.parametrize("source", ["staff", "api"])
def test_staff_results_count_at_once(night, source):
    version = services.result_submit(
        fixture_id=night.fixture.pk,
        sheet=night.sheet(),
        based_on_version=0,
        by=night.staff,
        source=source,
    )
    assert version.confirmation == "confirmed" and version.confirm_by is None
    assert counted(night)


def test_a_live_tables_result_counts_at_once(night):
    version = services.result_submit(
        fixture_id=night.fixture.pk,
        sheet=night.sheet(),
        based_on_version=0,
        by=None,
        source=ResultVersion.Source.LIVE,
    )
    assert version.confirmation == "confirmed" and counted(night)


def test_a_player_of_neither_team_and_staff_of_another_venue_cannot_enter(night):
    for user in (night.stranger, night.other_staff, UserFactory(), AnonymousUser()):
        with pytest.raises(PermissionDenied):
            enter(night, user)
    assert versions(night) == []


def test_the_enterers_team_corrects_its_own_awaiting_result(night):
    enter(night, night.home[0])
    corrected = enter(night, night.home[1], rounds=HOME_WINS, based_on=1)
    assert corrected.confirmation == "awaiting" and corrected.winner == "home"
    assert versions(night) == [(1, "awaiting", "player", False), (2, "awaiting", "player", True)]


@pytest.mark.parametrize("state", ["awaiting from the other team", "confirmed", "disputed"])
def test_a_player_cannot_write_over_a_result_that_is_not_theirs_to_change(night, state):
    enter(night, night.home[0])
    if state == "confirmed":
        confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])
    elif state == "disputed":
        confirmation.result_dispute(
            fixture_id=night.fixture.pk, version=1, reason="Wrong", by=night.away[0]
        )
    number = ResultVersion.objects.filter(fixture=night.fixture).count()
    writer = night.away[0] if state == "awaiting from the other team" else night.home[0]
    with pytest.raises(ResultSettled):
        enter(night, writer, rounds=HOME_WINS, based_on=number)
    assert ResultVersion.objects.filter(fixture=night.fixture).count() == number


# ---- confirming -------------------------------------------------------------------------------


def test_a_player_of_the_other_team_confirms_and_it_counts(night):
    entered = enter(night, night.home[0])
    confirmed = confirmation.result_confirm(
        fixture_id=night.fixture.pk, version=1, by=night.away[1]
    )
    assert confirmed.number == 2 and confirmed.confirmation == "confirmed"
    assert confirmed.confirm_by is None and confirmed.created_by == night.away[1]
    assert confirmed.sheet == entered.sheet and confirmed.winner == entered.winner
    assert versions(night) == [(1, "awaiting", "player", False), (2, "confirmed", "player", True)]
    assert counted(night)


@pytest.mark.parametrize(
    "who", ["enterer", "partner", "stranger", "staff", "other_staff", "nobody", "anonymous"]
)
def test_only_a_player_of_the_team_that_did_not_enter_may_confirm_or_dispute(night, who):
    enter(night, night.home[0])
    user = {
        "enterer": night.home[0],
        "partner": night.home[1],
        "stranger": night.stranger,
        "staff": night.staff,
        "other_staff": night.other_staff,
        "nobody": UserFactory(),
        "anonymous": AnonymousUser(),
    }[who]
    with pytest.raises(PermissionDenied):
        confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=user)
    with pytest.raises(PermissionDenied):
        confirmation.result_dispute(fixture_id=night.fixture.pk, version=1, reason="No", by=user)
    assert versions(night) == [(1, "awaiting", "player", True)]


def test_confirming_a_version_that_is_not_the_current_one_is_a_conflict(night):
    enter(night, night.home[0])
    enter(night, night.home[0], rounds=HOME_WINS, based_on=1)
    with pytest.raises(NotCurrentVersion) as stale:
        confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])
    assert stale.value.status == 409 and stale.value.as_json()["version"] == 2
    assert versions(night)[-1] == (2, "awaiting", "player", True)


def test_confirming_a_confirmed_result_again_is_a_conflict(night):
    enter(night, night.home[0])
    confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])
    with pytest.raises(NotCurrentVersion) as again:
        confirmation.result_confirm(fixture_id=night.fixture.pk, version=2, by=night.away[1])
    assert again.value.as_json()["version"] == 2
    assert len(versions(night)) == 2


def test_a_staff_result_is_not_for_players_to_confirm(night):
    enter(night, night.staff)
    with pytest.raises(NotCurrentVersion):
        confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])


def test_nothing_to_confirm_before_a_result(night):
    with pytest.raises(NotFound):
        confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])


# ---- disputing --------------------------------------------------------------------------------


def test_a_dispute_needs_a_reason(night):
    enter(night, night.home[0])
    for reason in ("", "   ", "x" * 251):
        with pytest.raises(Invalid) as refused:
            confirmation.result_dispute(
                fixture_id=night.fixture.pk, version=1, reason=reason, by=night.away[0]
            )
        assert "reason" in refused.value.errors
    assert len(versions(night)) == 1


def test_a_dispute_with_only_a_reason_keeps_the_sheet_and_stops_it_counting(night):
    entered = enter(night, night.home[0])
    disputed = confirmation.result_dispute(
        fixture_id=night.fixture.pk, version=1, reason="Round 3 was 20, not 10", by=night.away[0]
    )
    assert disputed.confirmation == "disputed" and disputed.note == "Round 3 was 20, not 10"
    assert disputed.sheet == entered.sheet and disputed.confirm_by is None
    assert not counted(night)
    # Nobody answers a dispute but staff: the window never confirms it either.
    assert (
        confirmation.results_confirm_overdue(now=timezone.now() + datetime.timedelta(days=9)) == []
    )


def test_a_dispute_may_carry_the_disputing_teams_own_sheet(night):
    enter(night, night.home[0], rounds=AWAY_WINS)
    disputed = confirmation.result_dispute(
        fixture_id=night.fixture.pk,
        version=1,
        reason="We won",
        sheet=night.sheet(HOME_WINS),
        by=night.away[0],
    )
    assert disputed.winner == "home" and disputed.sheet["rounds"] == HOME_WINS


# ---- staff decide -----------------------------------------------------------------------------


@pytest.fixture
def disputed(night):
    enter(night, night.home[0], rounds=AWAY_WINS)
    confirmation.result_dispute(
        fixture_id=night.fixture.pk,
        version=1,
        reason="We won",
        sheet=night.sheet(HOME_WINS),
        by=night.away[0],
    )
    return night


@pytest.mark.parametrize("choose, winner", [(1, "away"), (2, "home")])
def test_staff_of_the_venue_decide_a_dispute_by_choosing_a_version(disputed, choose, winner):
    decided = confirmation.result_decide(
        fixture_id=disputed.fixture.pk, version=2, choose=choose, by=disputed.staff
    )
    assert decided.number == 3 and decided.confirmation == "confirmed"
    assert decided.source == "staff" and decided.winner == winner
    assert f"version {choose} stands" in decided.note
    assert counted(disputed)


def test_a_league_admin_decides_too(disputed):
    admin = UserFactory(is_superuser=True)
    decided = confirmation.result_decide(
        fixture_id=disputed.fixture.pk, version=2, choose=1, by=admin
    )
    assert decided.confirmation == "confirmed"


def test_staff_entering_a_new_sheet_over_a_dispute_settle_it(disputed):
    settled = enter(disputed, disputed.staff, rounds=HOME_WINS, based_on=2)
    assert settled.confirmation == "confirmed" and counted(disputed)


@pytest.mark.parametrize("who", ["other_staff", "enterer", "disputer", "stranger"])
def test_only_staff_of_the_venue_and_admins_decide(disputed, who):
    user = {
        "other_staff": disputed.other_staff,
        "enterer": disputed.home[0],
        "disputer": disputed.away[0],
        "stranger": disputed.stranger,
    }[who]
    with pytest.raises(PermissionDenied):
        confirmation.result_decide(fixture_id=disputed.fixture.pk, version=2, choose=1, by=user)
    assert len(versions(disputed)) == 2


def test_a_decision_names_a_version_that_exists_and_the_current_one(disputed):
    with pytest.raises(Invalid) as unknown:
        confirmation.result_decide(
            fixture_id=disputed.fixture.pk, version=2, choose=7, by=disputed.staff
        )
    assert "choose" in unknown.value.errors
    with pytest.raises(NotCurrentVersion):
        confirmation.result_decide(
            fixture_id=disputed.fixture.pk, version=1, choose=1, by=disputed.staff
        )
    confirmation.result_decide(
        fixture_id=disputed.fixture.pk, version=2, choose=1, by=disputed.staff
    )
    with pytest.raises(NotCurrentVersion):  # decided already
        confirmation.result_decide(
            fixture_id=disputed.fixture.pk, version=3, choose=2, by=disputed.staff
        )


# ---- the window -------------------------------------------------------------------------------


def test_an_unanswered_result_is_confirmed_when_its_window_passes(night):
    entered = enter(night, night.home[0])
    assert (
        confirmation.results_confirm_overdue(now=entered.confirm_by - datetime.timedelta(1)) == []
    )
    assert confirmation.results_confirm_overdue(now=entered.confirm_by) == [night.fixture.pk]
    auto = ResultVersion.objects.get(fixture=night.fixture, is_current=True)
    assert auto.number == 2 and auto.confirmation == "confirmed" and auto.source == "auto"
    assert auto.created_by is None and "window passed" in auto.note
    assert auto.sheet == entered.sheet and counted(night)
    assert confirmation.results_confirm_overdue(now=entered.confirm_by) == []  # once


def test_a_void_fixtures_result_is_not_confirmed(night):
    entered = enter(night, night.home[0])
    Fixture.objects.filter(pk=night.fixture.pk).update(status=Fixture.Status.VOID)
    assert confirmation.results_confirm_overdue(now=entered.confirm_by) == []
    with pytest.raises(FixtureNotOpen):
        confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])
