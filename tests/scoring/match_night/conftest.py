"""A fixture with a login for each team's player 1, and versions of its result as the
confirmation flow leaves them (written here directly: match night only reads them)."""

import datetime

import pytest
from django.utils import timezone

from scoring.models import ResultVersion
from tests.factories import FixtureFactory, team_player_user


def version(fixture, *, by, confirmation="awaiting", number=1, **fields) -> ResultVersion:
    """A current version of the fixture's result, 17–4 to the home team, entered by `by`."""
    ResultVersion.objects.filter(fixture=fixture).update(is_current=False)
    return ResultVersion.objects.create(
        fixture=fixture,
        number=number,
        sheet={"rounds": [[17, 4]]},
        home_score=17,
        away_score=4,
        winner="home",
        source=ResultVersion.Source.PLAYER,
        created_by=by,
        confirmation=confirmation,
        confirm_by=timezone.now() + datetime.timedelta(hours=24),
        **fields,
    )


@pytest.fixture
def fixture():
    return FixtureFactory(starts_at=timezone.now() - datetime.timedelta(hours=1))


@pytest.fixture
def home(fixture):
    return team_player_user(fixture.home_team, 1, email="home@example.com")


@pytest.fixture
def away(fixture):
    return team_player_user(fixture.away_team, 1, email="away@example.com")
