"""Walkovers: scoring.results.walkovers.result_walkover_award, on PostgreSQL."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from config.errors import Invalid
from leagues.models import Fixture, Game
from scoring.models import ResultVersion
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.services import result_submit
from scoring.results.walkovers import PlayedResultStands, result_walkover_award
from tests.factories import StaffMembershipFactory, UserFactory
from tests.scoring.squads import korova_sheet, make_squads

pytestmark = pytest.mark.django_db


def test_a_walkover_is_a_new_version_with_an_empty_sheet_and_the_games_own_score():
    squads = make_squads(Game.KOROVA)

    version = result_walkover_award(
        fixture_id=squads.fixture.pk, team="away", by=squads.staff, note="No show"
    )

    assert (version.number, version.walkover, version.winner) == (1, "away", "away")
    assert version.sheet == {}
    # Корова: no heads for the team that turned up, the end score (66) for the other.
    assert (version.home_score, version.away_score) == (66, 0)
    assert version.source == ResultVersion.Source.STAFF
    assert version.created_by == squads.staff
    assert version.lineup == {"home": [], "away": [], "substitutes": []}
    squads.fixture.refresh_from_db()
    assert squads.fixture.status == Fixture.Status.PLAYED


@pytest.mark.parametrize(
    ("game", "season", "scores"),
    [
        (Game.CONVOY, {}, (3, 0)),
        (Game.CONVOY, {"fixture_format": {"games": 3}}, (6, 0)),
        (Game.CONQUIAN, {"rule_options": {"target": 7}}, (14, 0)),
        (Game.KOROVA, {"walkover_score_winner": 5, "walkover_score_loser": 50}, (5, 50)),
    ],
)
def test_the_score_is_the_seasons_or_else_the_games_own(game, season, scores):
    squads = make_squads(game, **season)

    version = result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)

    assert (version.home_score, version.away_score) == scores


def test_a_league_admin_awards_one_as_admin():
    squads = make_squads()
    admin = UserFactory(is_superuser=True, is_staff=True)

    version = result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=admin)

    assert version.source == ResultVersion.Source.ADMIN


def test_a_walkover_for_a_played_fixture_is_refused_and_changes_nothing():
    squads = make_squads()
    result_submit(
        fixture_id=squads.fixture.pk,
        sheet=korova_sheet(squads.players(0), squads.players(1)),
        based_on_version=0,
        by=squads.staff,
    )

    with pytest.raises(PlayedResultStands, match="played result"):
        result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)

    assert squads.fixture.result_versions.count() == 1
    assert PlayedResultStands.status == 409


def test_a_walkover_may_replace_a_walkover_given_the_wrong_way():
    squads = make_squads()
    result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)

    version = result_walkover_award(fixture_id=squads.fixture.pk, team="away", by=squads.staff)

    assert (version.number, version.walkover) == (2, "away")
    assert squads.fixture.result_versions.filter(is_current=True).get() == version


def test_staff_of_another_venue_cannot_award_one():
    squads = make_squads()
    elsewhere = StaffMembershipFactory().user

    with pytest.raises(PermissionDenied):
        result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=elsewhere)

    assert not squads.fixture.result_versions.exists()


@pytest.mark.parametrize("who", ["player", "anonymous"])
def test_players_and_visitors_cannot_award_one(who):
    squads = make_squads()
    user = AnonymousUser() if who == "anonymous" else UserFactory()
    if who == "player":
        player = squads.teams[0].members.first().player
        player.user = user
        player.save()

    with pytest.raises(PermissionDenied):
        result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=user)


@pytest.mark.parametrize("team", ["", "Home", "draw", None, 1])
def test_a_bad_team_is_refused_naming_the_field(team):
    squads = make_squads()

    with pytest.raises(Invalid) as refused:
        result_walkover_award(fixture_id=squads.fixture.pk, team=team, by=squads.staff)

    assert list(refused.value.errors) == ["team"]
    assert not squads.fixture.result_versions.exists()


def test_a_void_fixture_takes_no_walkover():
    squads = make_squads()
    Fixture.objects.filter(pk=squads.fixture.pk).update(status=Fixture.Status.VOID)

    with pytest.raises(FixtureNotOpen):
        result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)
