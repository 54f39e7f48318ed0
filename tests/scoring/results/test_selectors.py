"""scoring.results.selectors on PostgreSQL: a fixture's current result and its history."""

import pytest

from scoring.models import ResultVersion
from scoring.results.selectors import fixture_current_result, fixture_result_history
from tests.factories import UserFactory
from tests.scoring.standings.test_selectors import fixture, season_of, version

pytestmark = pytest.mark.django_db


def test_fixture_current_result_is_the_current_version_or_none():
    season, (a, b) = season_of(2)
    played = fixture(season, a, b)
    assert fixture_current_result(fixture=played) is None
    version(played, "home", 3, 0, number=1, is_current=False)
    current = version(played, "away", 0, 3, number=2)
    assert fixture_current_result(fixture=played) == current
    assert fixture_current_result(fixture=played.pk) == current


def test_fixture_result_history_lists_versions_newest_first_with_what_changed(
    django_assert_num_queries,
):
    season, (a, b) = season_of(2, game="korova")
    played = fixture(season, a, b)
    user = UserFactory()
    rounds = [[11, 7, 6, 6]] * 6
    ResultVersion.objects.create(
        fixture=played,
        number=1,
        sheet={"players": [1, 2, 3, 4], "rounds": rounds},
        home_score=108,
        away_score=72,
        winner="away",
        is_current=False,
        created_by=user,
    )
    corrected = [[11, 7, 6, 6]] * 5 + [[11, 7, 9, 3]]
    ResultVersion.objects.create(
        fixture=played,
        number=2,
        sheet={"players": [1, 2, 3, 4], "rounds": corrected},
        home_score=108,
        away_score=72,
        winner="away",
        created_by=user,
    )
    with django_assert_num_queries(1):
        history = fixture_result_history(fixture=played)
        assert [v.created_by.username for v in history] == [user.username] * 2
    assert [v.number for v in history] == [2, 1]
    assert history[0].changes == [("rounds.5.2", 6, 9), ("rounds.5.3", 6, 3)]
    assert history[1].changes == []
