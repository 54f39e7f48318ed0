"""Data migrations of scoring, run forwards on rows written before them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import FixtureFactory

BEFORE_LINEUP = [("scoring", "0002_ratings_and_screens")]
LINEUP = [("scoring", "0003_result_lineup")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_results_saved_before_lineups_get_the_teams_players_as_they_are_now():
    fixture = FixtureFactory()
    home = list(fixture.home_team.members.order_by("position").values_list("player_id", flat=True))
    away = list(fixture.away_team.members.order_by("position").values_list("player_id", flat=True))
    try:
        old = _migrate(BEFORE_LINEUP)
        old.get_model("scoring", "ResultVersion").objects.create(
            fixture_id=fixture.pk, number=1, sheet={}, home_score=1, away_score=0, winner="home"
        )
    finally:
        new = _migrate(LINEUP)
    version = new.get_model("scoring", "ResultVersion").objects.get(fixture_id=fixture.pk)
    assert version.lineup == {"home": home, "away": away}
