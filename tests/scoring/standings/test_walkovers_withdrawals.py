"""The table with walkovers and withdrawn teams; walkovers out of players' figures and records."""

import datetime

import pytest

from config.errors import Conflict, Forbidden
from leagues.models import Fixture, Game, WithdrawalRule
from scoring.models import ResultVersion
from scoring.results.services import result_submit
from scoring.results.walkovers import entry_withdraw, result_walkover_award
from scoring.standings.figures import player_figures_by_game
from scoring.standings.records import record_by_game
from scoring.standings.selectors import season_standings, season_withdrawals
from tests.factories import StaffMembershipFactory, UserFactory
from tests.scoring.squads import korova_sheet, make_squads

pytestmark = pytest.mark.django_db
ON = datetime.date(2026, 10, 1)


def _by_team(rows):
    return {row.team_id: row for row in rows}


def test_a_walkover_counts_with_the_seasons_walkover_points_not_the_win_points():
    squads = make_squads(points_win=3, walkover_points_winner=2, walkover_points_loser=1)
    result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)

    rows = _by_team(season_standings(season=squads.season, use_cache=False))

    home, away = rows[squads.teams[0].pk], rows[squads.teams[1].pk]
    assert (home.played, home.won, home.points) == (1, 1, 2)
    assert (away.played, away.lost, away.points) == (1, 1, 1)


def test_the_cached_table_follows_a_walkover():
    squads = make_squads()
    season_standings(season=squads.season)
    result_walkover_award(fixture_id=squads.fixture.pk, team="away", by=squads.staff)

    rows = _by_team(season_standings(season=squads.season))

    assert rows[squads.teams[1].pk].points == 3


def test_a_walkover_is_kept_out_of_players_figures_and_records():
    squads = make_squads(Game.KOROVA)
    result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)
    player = squads.players(0)[0]

    assert player_figures_by_game(player=player) == []
    assert record_by_game(team_ids=[squads.teams[0].pk]) == []


def test_a_substitute_gets_the_figures_of_the_fixture_they_played_and_the_absent_player_not():
    squads = make_squads(Game.KOROVA)
    reserve = squads.reserve(0)
    home, away = squads.players(0), squads.players(1)
    result_submit(
        fixture_id=squads.fixture.pk,
        sheet=korova_sheet([reserve.pk, home[1]], away),
        based_on_version=0,
        by=squads.staff,
    )

    assert player_figures_by_game(player=reserve.pk) != []
    assert player_figures_by_game(player=home[0]) == []
    assert player_figures_by_game(player=home[1]) != []


def _withdrawal_season(rule):
    """Four teams; team 1 beat team 0 (played); team 0 still has to meet teams 2 and 3."""
    squads = make_squads(Game.KOROVA, teams=4, withdrawal_rule=rule)
    result_submit(
        fixture_id=squads.fixture.pk,
        sheet=korova_sheet(squads.players(0), squads.players(1)),  # team 1, away, wins
        based_on_version=0,
        by=squads.staff,
    )
    remaining = [squads.fixture_between(2, 0, round=2), squads.fixture_between(0, 3, round=3)]
    return squads, remaining


def test_expunged_a_withdrawn_teams_results_leave_the_table_and_its_fixtures_are_void():
    squads, remaining = _withdrawal_season(WithdrawalRule.EXPUNGE)
    admin = UserFactory(is_superuser=True)

    entry_withdraw(entry_id=squads.entries[1].pk, on=ON, by=admin)

    rows = season_standings(season=squads.season, use_cache=False)
    assert squads.teams[1].pk not in {row.team_id for row in rows}
    # Team 0 lost to team 1: with team 1 expunged, that result is gone for team 0 too.
    assert _by_team(rows)[squads.teams[0].pk].played == 0
    (withdrawal,) = season_withdrawals(season=squads.season)
    assert withdrawal.expunged and "expunged" in withdrawal.sentence


def test_expunged_the_remaining_fixtures_become_void():
    squads, remaining = _withdrawal_season(WithdrawalRule.EXPUNGE)

    entry_withdraw(entry_id=squads.entries[0].pk, on=ON, by=None)

    statuses = set(
        Fixture.objects.filter(pk__in=[f.pk for f in remaining]).values_list("status", flat=True)
    )
    assert statuses == {Fixture.Status.VOID}
    squads.fixture.refresh_from_db()
    assert squads.fixture.status == Fixture.Status.PLAYED


def test_kept_played_results_stand_and_the_rest_are_walkovers_to_the_opponents():
    squads, remaining = _withdrawal_season(WithdrawalRule.KEEP)
    admin = UserFactory(is_superuser=True)

    entry_withdraw(entry_id=squads.entries[0].pk, on=ON, by=admin)

    walkovers = ResultVersion.objects.filter(fixture__in=remaining, is_current=True)
    assert {(v.fixture_id, v.walkover) for v in walkovers} == {
        (remaining[0].pk, "home"),
        (remaining[1].pk, "away"),
    }
    assert {v.source for v in walkovers} == {ResultVersion.Source.ADMIN}
    rows = _by_team(season_standings(season=squads.season, use_cache=False))
    withdrawn = rows[squads.teams[0].pk]
    assert withdrawn.withdrawn
    assert (withdrawn.played, withdrawn.lost, withdrawn.points) == (3, 3, 0)
    assert rows[squads.teams[2].pk].points == squads.season.walkover_points_winner
    (withdrawal,) = season_withdrawals(season=squads.season)
    assert not withdrawal.expunged and "walkovers" in withdrawal.sentence


def test_only_a_league_admin_withdraws_a_team_and_only_once():
    squads, _ = _withdrawal_season(WithdrawalRule.KEEP)
    staff = StaffMembershipFactory(venue=squads.venue).user

    with pytest.raises(Forbidden):
        entry_withdraw(entry_id=squads.entries[0].pk, on=ON, by=staff)
    squads.entries[0].refresh_from_db()
    assert squads.entries[0].withdrawn_on is None

    entry_withdraw(entry_id=squads.entries[0].pk, on=ON, by=None)
    with pytest.raises(Conflict, match="already"):
        entry_withdraw(entry_id=squads.entries[0].pk, on=ON, by=None)
