"""Seasons with teams and a league admin, for the leagues.services tests (test_services*.py)."""

from zoneinfo import ZoneInfo

from tests.factories import EntryFactory, SeasonFactory, UserFactory

LONDON = ZoneInfo("Europe/London")


def season_with_teams(count, **season_fields):
    season = SeasonFactory(**season_fields)
    for _ in range(count):
        EntryFactory(season=season)
    return season


def admin_user():
    return UserFactory(is_superuser=True, is_staff=True)
