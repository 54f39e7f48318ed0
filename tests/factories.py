"""factory-boy factories shared by the whole suite."""

import datetime

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from leagues.models import (
    Division,
    Entry,
    Fixture,
    Game,
    League,
    Player,
    Season,
    StaffMembership,
    Team,
    TeamMember,
    Venue,
)
from leagues.services import season_divisions_ensure

PASSWORD = "a-long-test-password"


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class VenueFactory(factory.django.DjangoModelFactory[Venue]):
    class Meta:
        model = Venue

    name = factory.Sequence(lambda n: f"The Crown {n}")
    slug = factory.Sequence(lambda n: f"the-crown-{n}")


class StaffMembershipFactory(factory.django.DjangoModelFactory[StaffMembership]):
    class Meta:
        model = StaffMembership

    user = factory.SubFactory(UserFactory)
    venue = factory.SubFactory(VenueFactory)


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")
    slug = factory.Sequence(lambda n: f"player-{n}")


class TeamFactory(factory.django.DjangoModelFactory[Team]):
    """A team with its two players (positions 1 and 2)."""

    class Meta:
        model = Team
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Team {n}")
    slug = factory.Sequence(lambda n: f"team-{n}")
    home_venue = factory.SubFactory(VenueFactory)

    @factory.post_generation
    def members(self, create, extracted, **kwargs):
        if not create:
            return
        for position, player in enumerate(extracted or [PlayerFactory(), PlayerFactory()], 1):
            TeamMember.objects.create(team=self, player=player, position=position)


class LeagueFactory(factory.django.DjangoModelFactory[League]):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    game = Game.KOROVA


class SeasonFactory(factory.django.DjangoModelFactory[Season]):
    """A season with its one division ("Division 1"), as the admin creates it."""

    class Meta:
        model = Season
        skip_postgeneration_save = True

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    slug = factory.Sequence(lambda n: f"season-{n}")
    starts_on = datetime.date(2026, 9, 1)

    @factory.post_generation
    def divisions(self, create, extracted, **kwargs):
        if create:
            season_divisions_ensure(season=self)


class EntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    season = factory.SubFactory(SeasonFactory)
    team = factory.SubFactory(TeamFactory)


class FixtureFactory(factory.django.DjangoModelFactory[Fixture]):
    class Meta:
        model = Fixture

    season = factory.SubFactory(SeasonFactory)
    round = 1
    home_team = factory.SubFactory(TeamFactory)
    away_team = factory.SubFactory(TeamFactory)
    venue = factory.LazyAttribute(lambda fixture: fixture.home_team.home_venue)
    # Earlier today (two hours ago, or local midnight if that was yesterday): a fixture that may
    # take its result (none before its day) and whose live tables are open (its day only).
    starts_at = factory.LazyFunction(
        lambda: max(
            timezone.now() - datetime.timedelta(hours=2),
            timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0),
        )
    )


class DivisionFactory(factory.django.DjangoModelFactory[Division]):
    """A further division of a season (SeasonFactory already made its "Division 1")."""

    class Meta:
        model = Division

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Division {n + 2}")
    level = factory.LazyAttribute(
        lambda division: (
            max(division.season.divisions.values_list("level", flat=True), default=0) + 1
        )
    )


def team_player_user(team: Team, position: int = 1, **user_fields) -> User:
    """A login for the team's player at `position` (match night: players act for their team)."""
    player = team.members.get(position=position).player
    if player.user is None:
        user: User = UserFactory.create(**user_fields)
        player.user = user
        player.save(update_fields=["user"])
        return user
    return player.user
