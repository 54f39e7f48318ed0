"""A cup of Корова teams entered in a season, and sheets that win, lose or draw its ties."""

import datetime

from django.utils import timezone

from leagues.models import Cup, Fixture, Game
from scoring.results.services import result_submit
from tests.factories import (
    EntryFactory,
    LeagueFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

HOME_WINS = [[10, 5, 20, 5]] * 4  # home 60 heads, away 100
AWAY_WINS = [[20, 5, 10, 5]] * 4  # home 100, away 60
# Level on 125 heads; the last round home 35, away 40: home goes through on the cup's rule.
DRAWN_HOME_LAST = [[20, 10, 15, 15], [20, 10, 15, 15], [20, 10, 10, 15], [20, 15, 15, 25]]
# Level in every round: the sheet cannot decide, a decider is played.
LEVEL_EVERY_ROUND = [[20, 10, 15, 15]] * 4


def admin_user():
    return UserFactory(is_superuser=True, is_staff=True)


def make_cup(
    teams=4, *, game=Game.KOROVA, with_plate=False, seeding=Cup.Seeding.RANDOM, names=None
):
    season = SeasonFactory(league=LeagueFactory(game=game))
    cup = Cup.objects.create(
        season=season, name="Knockout Cup", slug="knockout", with_plate=with_plate, seeding=seeding
    )
    names = names or [f"Team {chr(65 + index)}" for index in range(teams)]
    for name in names:
        team = TeamFactory(name=name, home_venue=VenueFactory())
        EntryFactory(season=season, team=team)
        cup.teams.add(team)
    return cup


def first_round_at():
    """Earlier today, an hour ago or at midnight if that was later: the first round's results
    may be entered now and its live tables opened (they open on the fixture's day only, so
    an hour before a run just after midnight would be yesterday)."""
    now = timezone.localtime()
    return max(now - datetime.timedelta(hours=1), now.replace(hour=0, minute=0, second=0))


def korova_sheet(fixture: Fixture, rounds):
    players = [
        member.player_id
        for team in (fixture.home_team, fixture.away_team)
        for member in team.members.order_by("position")
    ]
    return {"players": players, "rounds": rounds}


def play(fixture: Fixture, rounds, *, by, based_on=0):
    fixture.refresh_from_db()
    return result_submit(
        fixture_id=fixture.pk,
        sheet=korova_sheet(fixture, rounds),
        based_on_version=based_on,
        by=by,
        before_fixture_day=True,
    )
