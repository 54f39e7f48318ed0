"""`manage.py generate_fixtures SEASON`."""

import datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core.management import CommandError, call_command

from leagues.models import Fixture
from scoring.models import ResultVersion
from tests.factories import EntryFactory, LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def season_with_teams(count, **fields):
    season = SeasonFactory(**fields)
    for _ in range(count):
        EntryFactory(season=season)
    return season


def generate(*args):
    out = StringIO()
    call_command("generate_fixtures", *args, stdout=out)
    return out.getvalue()


def test_generates_by_season_id_and_prints_fixtures_and_rounds():
    season = season_with_teams(8)
    output = generate(str(season.pk))
    assert season.fixtures.count() == 56
    assert "generated 56 fixtures in 14 rounds" in output
    assert "Replaced" not in output


def test_generates_by_league_and_season_slugs_with_odd_count_byes():
    league = LeagueFactory(slug="korova-league")
    season = season_with_teams(5, league=league, slug="autumn-2026")
    output = generate("korova-league/autumn-2026")
    assert season.fixtures.count() == 20
    assert "20 fixtures in 10 rounds" in output


def test_first_kickoff_and_interval_options():
    season = season_with_teams(3)
    generate(str(season.pk), "--first-kickoff", "2026-09-03T20:00", "--days-between-rounds", "3")
    london = ZoneInfo("Europe/London")
    starts = sorted(set(season.fixtures.values_list("starts_at", flat=True)))
    assert starts[0] == datetime.datetime(2026, 9, 3, 20, 0, tzinfo=london)
    assert starts[1] == datetime.datetime(2026, 9, 6, 20, 0, tzinfo=london)


def test_running_again_says_it_replaced_the_fixtures_without_results():
    season = season_with_teams(4)
    generate(str(season.pk))
    output = generate(str(season.pk))
    assert "Replaced 12 earlier fixtures" in output
    assert season.fixtures.count() == 12


@pytest.mark.parametrize("label", ["999999", "no-such-league/no-season", "autumn", "a/b/c", ""])
def test_unknown_season_is_a_clear_error(label):
    season_with_teams(2, league=LeagueFactory(slug="real"), slug="season")
    with pytest.raises(CommandError, match="Unknown season .*league-slug/season-slug"):
        generate(label)
    assert not Fixture.objects.exists()


def test_refuses_a_season_with_results_and_changes_nothing():
    season = season_with_teams(2)
    generate(str(season.pk))
    fixture = season.fixtures.first()
    ResultVersion.objects.create(
        fixture=fixture, number=1, sheet={}, home_score=1, away_score=0, winner="home"
    )
    with pytest.raises(CommandError, match="already has results"):
        generate(str(season.pk))
    assert season.fixtures.filter(pk=fixture.pk).exists()


def test_refuses_a_season_with_one_team():
    season = season_with_teams(1)
    with pytest.raises(CommandError, match="at least two teams"):
        generate(str(season.pk))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--first-kickoff", "next tuesday"], "not a date and time"),
        (["--days-between-rounds", "0"], "between 1 and 365 days"),
    ],
)
def test_refuses_bad_options(args, message):
    season = season_with_teams(2)
    with pytest.raises(CommandError, match=message):
        generate(str(season.pk), *args)
    assert not season.fixtures.exists()
