"""scoring.standings.records: a team's record per game, counted as the season tables count it."""

import pytest

from leagues.models import Fixture
from scoring.standings.records import record_by_game
from scoring.standings.selectors import season_standings
from tests.api.conftest import build_world

pytestmark = pytest.mark.django_db


def by_game(records) -> dict:
    return {record.kind.game: record for record in records}


def test_a_teams_record_is_its_rows_of_the_season_tables():
    world = build_world()
    team = world.teams[0]
    record = by_game(record_by_game(team_ids=[team.pk]))["korova"]
    (row,) = [row for row in season_standings(season=world.season) if row.team_id == team.pk]
    fields = ("played", "won", "drawn", "lost", "score_for", "score_against", "difference")
    assert [getattr(record.row, name) for name in fields] == [getattr(row, name) for name in fields]
    assert [column.key for column, _ in record.cells] == [
        column.key for column in record.kind.standings_columns
    ]


def test_a_void_fixture_does_not_count():
    world = build_world()
    team = world.teams[0]
    before = by_game(record_by_game(team_ids=[team.pk]))["korova"].row.played
    played = Fixture.objects.filter(
        season=world.season, home_team=team, status=Fixture.Status.PLAYED
    ).first()
    Fixture.objects.filter(pk=played.pk).update(status=Fixture.Status.VOID)
    assert by_game(record_by_game(team_ids=[team.pk]))["korova"].row.played == before - 1


def test_two_teams_count_as_one_side_and_games_without_results_are_left_out():
    world = build_world()
    first, second = world.teams[0], world.teams[1]
    alone = [by_game(record_by_game(team_ids=[pk]))["korova"].row for pk in (first.pk, second.pk)]
    together = by_game(record_by_game(team_ids=[first.pk, second.pk]))["korova"].row
    between = Fixture.objects.filter(
        season=world.season,
        home_team__in=[first, second],
        away_team__in=[first, second],
        result_versions__is_current=True,
    ).count()
    assert between == 1  # round 1: Crown Jewels v Crown Heads
    # A fixture between the two counts once, from the home team's side.
    assert together.played == alone[0].played + alone[1].played - between
    assert together.won + together.drawn + together.lost == together.played
    assert record_by_game(team_ids=[]) == []
