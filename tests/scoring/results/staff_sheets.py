"""Fixtures with their staff, the staff pages' addresses and a Корова sheet's form data, for the
staff-page tests (test_views*.py, test_conflicts.py)."""

from django.urls import reverse

from leagues.models import Game
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    VenueFactory,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def make_fixture(game=Game.KOROVA, **season):
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game=game), **season)
    home = TeamFactory(
        home_venue=venue, members=[PlayerFactory(name="Ann"), PlayerFactory(name="Bea")]
    )
    away = TeamFactory(members=[PlayerFactory(name="Cy"), PlayerFactory(name="Dot")])
    return FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)


def staff_of(fixture):
    return StaffMembershipFactory(venue=fixture.venue).user


def entry_url(fixture):
    return reverse("result-entry", args=[fixture.pk])


def history_url(fixture):
    return reverse("result-history", args=[fixture.pk])


def korova_post(rounds, based_on=0, **extra):
    data = {"based_on_version": str(based_on), "action": "save"}
    for index, row in enumerate(rounds):
        for seat, heads in enumerate(row):
            data[f"rounds.{index}.{seat}"] = str(heads)
    data.update(extra)
    return data


# Ann reaches 80 in round 4: home 100 heads, away 60, the away team wins.
FULL_GAME = [[20, 5, 10, 5]] * 4


def player_ids(fixture):
    return [
        m.player_id
        for team in (fixture.home_team, fixture.away_team)
        for m in team.members.order_by("position")
    ]
