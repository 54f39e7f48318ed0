"""scoring.standings.selectors on PostgreSQL: the table from result versions, its query count and cache."""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues.models import Entry, Fixture
from scoring.models import ResultVersion
from scoring.results.services import result_submit
from scoring.standings.selectors import season_standings
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 9, 1, 19, 30, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def season_of(team_count: int, game: str = "convoy"):
    season = SeasonFactory.create(league__game=game)
    venue = VenueFactory()
    teams = [TeamFactory.create(home_venue=venue) for _ in range(team_count)]
    Entry.objects.bulk_create([Entry(season=season, team=team) for team in teams])
    return season, teams


def fixture(season, home, away, day=1, **kwargs):
    return FixtureFactory(
        season=season,
        home_team=home,
        away_team=away,
        starts_at=START + datetime.timedelta(days=day),
        **kwargs,
    )


def version(fixture, winner, home_score, away_score, number=1, is_current=True):
    return ResultVersion.objects.create(
        fixture=fixture,
        number=number,
        sheet={"games": []},
        home_score=home_score,
        away_score=away_score,
        winner=winner,
        is_current=is_current,
    )


def play_every_pairing(season, teams):
    """A double round robin, all played: the home side wins every fixture 3-1."""
    fixtures = Fixture.objects.bulk_create(
        [
            Fixture(
                season=season,
                round=1,
                home_team=home,
                away_team=away,
                venue=home.home_venue,
                starts_at=START,
                status=Fixture.Status.PLAYED,
            )
            for home in teams
            for away in teams
            if home != away
        ]
    )
    ResultVersion.objects.bulk_create(
        [
            ResultVersion(fixture=f, number=1, sheet={}, home_score=3, away_score=1, winner="home")
            for f in fixtures
        ]
    )


def points(rows) -> dict:
    return {row.team.name: row.points for row in rows}


def test_the_table_comes_from_the_current_results_of_the_season():
    season, (a, b, c) = season_of(3)
    version(fixture(season, a, b, day=1), "home", 3, 1)
    version(fixture(season, c, a, day=2), "draw", 2, 2)
    other_season = SeasonFactory()
    EntryFactory(season=other_season, team=a)
    version(fixture(other_season, b, a), "home", 3, 0)  # another season: does not count

    rows = season_standings(season=season)

    assert [(row.position, row.team, row.points) for row in rows] == [
        (1, a, 4),
        (2, c, 1),
        (3, b, 0),
    ]
    top = rows[0]
    assert (top.played, top.won, top.drawn, top.lost) == (2, 1, 1, 0)
    assert (top.score_for, top.score_against, top.difference, top.form) == (5, 3, 2, ["W", "D"])


def test_only_the_current_version_of_a_result_counts():
    season, (a, b) = season_of(2)
    played = fixture(season, a, b)
    version(played, "home", 3, 0, number=1, is_current=False)
    version(played, "away", 1, 3, number=2)
    assert points(season_standings(season=season)) == {a.name: 0, b.name: 3}


def test_void_fixtures_do_not_count():
    season, (a, b) = season_of(2)
    version(fixture(season, a, b, status=Fixture.Status.VOID), "home", 3, 0)
    version(fixture(season, b, a, day=2), "draw", 1, 1)
    rows = season_standings(season=season)
    assert points(rows) == {a.name: 1, b.name: 1}
    assert [row.played for row in rows] == [1, 1]


def test_korova_difference_in_the_table_is_heads_against_minus_heads_for():
    season, (a, b) = season_of(2, game="korova")
    version(fixture(season, a, b), "home", 80, 100)
    rows = season_standings(season=season)
    assert [(row.team, row.score_for, row.score_against, row.difference) for row in rows] == [
        (a, 80, 100, 20),
        (b, 100, 80, -20),
    ]


def test_the_season_tie_breakers_order_the_table():
    season, (a, b, c) = season_of(3)
    season.tie_breakers = ["wins"]
    season.save()
    version(fixture(season, a, b), "home", 3, 0)
    version(fixture(season, c, b, day=2), "home", 3, 2)
    assert [row.position for row in season_standings(season=season)] == [1, 1, 3]


def queries_for_standings(team_count: int) -> tuple[int, int]:
    """(queries with an empty cache, queries with a warm cache) for a full season."""
    season, teams = season_of(team_count)
    play_every_pairing(season, teams)
    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        rows = season_standings(season=season)
    with CaptureQueriesContext(connection) as warm:
        again = season_standings(season=season)
    assert len(rows) == team_count
    assert rows[0].played == 2 * (team_count - 1)
    assert [(r.team, r.points, r.position) for r in again] == [
        (r.team, r.points, r.position) for r in rows
    ]
    return len(cold), len(warm)


def test_the_number_of_queries_is_the_same_for_8_and_20_teams():
    assert queries_for_standings(8) == queries_for_standings(20) == (5, 4)


def test_season_standings_runs_five_queries_without_the_cache(django_assert_num_queries):
    season, teams = season_of(8)
    play_every_pairing(season, teams)
    for _ in range(2):
        with django_assert_num_queries(5):
            season_standings(season=season, use_cache=False)


def test_a_new_version_shows_in_the_cached_table_at_once():
    season, (a, b) = season_of(2)
    played = fixture(season, a, b)
    first = version(played, "home", 3, 0)
    assert points(season_standings(season=season)) == {a.name: 3, b.name: 0}
    ResultVersion.objects.filter(pk=first.pk).update(is_current=False)
    version(played, "away", 0, 3, number=2)
    assert points(season_standings(season=season)) == {a.name: 0, b.name: 3}


def test_a_result_saved_through_result_submit_shows_at_once():
    season, (a, b) = season_of(2)
    played = fixture(season, a, b)
    admin = UserFactory(is_superuser=True, is_staff=True)
    assert points(season_standings(season=season)) == {a.name: 0, b.name: 0}
    sheet = {"games": [{"winner": "away", "convoys": {"home": 1, "away": 3}}]}
    result_submit(fixture_id=played.pk, sheet=sheet, based_on_version=0, by=admin)
    assert points(season_standings(season=season)) == {a.name: 0, b.name: 3}


def test_voiding_a_played_fixture_shows_in_the_cached_table_at_once():
    season, (a, b) = season_of(2)
    played = fixture(season, a, b)
    version(played, "home", 3, 0)
    assert points(season_standings(season=season)) == {a.name: 3, b.name: 0}
    played.status = Fixture.Status.VOID
    played.save()
    assert points(season_standings(season=season)) == {a.name: 0, b.name: 0}


def test_changing_the_season_points_shows_in_the_cached_table_at_once():
    season, (a, b) = season_of(2)
    version(fixture(season, a, b), "home", 3, 0)
    assert points(season_standings(season=season)) == {a.name: 3, b.name: 0}
    season.points_win = 2
    season.save()
    assert points(season_standings(season=season)) == {a.name: 2, b.name: 0}


def test_a_team_entered_later_appears_in_the_cached_table_at_once():
    season, (a, b) = season_of(2)
    assert len(season_standings(season=season)) == 2
    late = TeamFactory()
    EntryFactory(season=season, team=late)
    assert late in [row.team for row in season_standings(season=season)]


def test_a_renamed_team_shows_its_new_name_from_the_cache():
    season, (a, b) = season_of(2)
    season_standings(season=season)
    a.name = "The Renamed Arms"
    a.save()
    assert "The Renamed Arms" in [row.team.name for row in season_standings(season=season)]
