"""A small realistic league for the API and public-page tests: two pubs, four teams, a Корова
season with two rounds played through the real service, and one played Convoy and Conquian
fixture each. Sheets are valid under the default rules (end score 66, target 5, carry-over double).
"""

import datetime
from dataclasses import dataclass, field

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from leagues.models import Fixture, Game, League, Season, Team, Venue
from scoring.models import ResultVersion
from scoring.results.services import result_submit
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

# Корова: the home pair takes 45 heads, the away pair 100 (an away player reaches 69 in round 3).
KOROVA_HOME_WINS = [[6, 8, 10, 20], [7, 9, 12, 25], [5, 10, 9, 24]]
KOROVA_AWAY_WINS = [[10, 20, 6, 8], [12, 25, 7, 9], [9, 24, 5, 10]]
# Home 80, away 116: the fourth player reaches 67 in round 3.
KOROVA_CLOSE_HOME_WIN = [[10, 10, 30, 20], [15, 10, 10, 20], [20, 15, 9, 27]]


def korova_sheet(fixture: Fixture, rounds: list[list[int]]) -> dict:
    home = [m.player_id for m in fixture.home_team.members.order_by("position")]
    away = [m.player_id for m in fixture.away_team.members.order_by("position")]
    return {"players": home + away, "rounds": rounds}


def conquian_sheet(fixture: Fixture, first: list[str], second: list[str]) -> dict:
    home = [m.player_id for m in fixture.home_team.members.order_by("position")]
    away = [m.player_id for m in fixture.away_team.members.order_by("position")]
    return {
        "singles": [
            {"home_player": home[0], "away_player": away[0], "deals": first},
            {"home_player": home[1], "away_player": away[1], "deals": second},
        ]
    }


# Single 1: home wins 5–1 (a drawn deal doubles the next); single 2: away wins 5–0.
CONQUIAN_FIRST = ["home", "draw", "home", "away", "home", "home"]
CONQUIAN_SECOND = ["away", "away", "away", "away", "away"]


def convoy_sheet(winner: str = "home") -> dict:
    loser = "away" if winner == "home" else "home"
    return {"games": [{"winner": winner, "convoys": {winner: 3, loser: 1}}]}


@dataclass
class LeagueWorld:
    crown: Venue
    anchor: Venue
    admin: User
    crown_staff: User
    anchor_staff: User
    league: League
    season: Season
    teams: list[Team]
    fixtures: list[Fixture] = field(default_factory=list)  # Корова, rounds 1–3
    convoy_fixture: Fixture | None = None
    conquian_fixture: Fixture | None = None

    def submit(self, fixture: Fixture, sheet: dict, *, by=None) -> ResultVersion:
        current = ResultVersion.objects.filter(fixture=fixture, is_current=True).first()
        return result_submit(
            fixture_id=fixture.pk,
            sheet=sheet,
            based_on_version=current.number if current else 0,
            by=by or self.admin,
        )


def one_fixture_league(game: Game, teams: list[Team], first_evening: datetime.datetime) -> Fixture:
    """A league of `game` with a season where the first two teams meet once, the next day."""
    other_season = SeasonFactory.create(
        league=LeagueFactory.create(
            name=f"{game.label} League", slug=f"{game.value}-league", game=game
        ),
        name="Autumn 2026",
        slug="autumn-2026",
    )
    for team in teams[:2]:
        EntryFactory(season=other_season, team=team)
    return FixtureFactory.create(
        season=other_season,
        round=1,
        home_team=teams[0],
        away_team=teams[1],
        starts_at=first_evening + datetime.timedelta(days=1),
    )


def build_world() -> LeagueWorld:
    crown = VenueFactory.create(name="The Crown", slug="the-crown", address="1 High Street")
    anchor = VenueFactory.create(name="The Anchor", slug="the-anchor", address="2 Quay Road")
    admin = UserFactory.create(username="league-admin", is_superuser=True, is_staff=True)
    crown_staff = StaffMembershipFactory.create(
        user=UserFactory.create(username="crown-staff"), venue=crown
    )
    anchor_staff = StaffMembershipFactory.create(
        user=UserFactory.create(username="anchor-staff"), venue=anchor
    )
    league = LeagueFactory.create(
        name="Корова Tuesday League", slug="korova-tuesday", game=Game.KOROVA
    )
    season = SeasonFactory.create(
        league=league, name="Autumn 2026", slug="autumn-2026", starts_on=datetime.date(2026, 9, 1)
    )
    names = [
        ("Crown Jewels", crown, "Alice Archer", "Bob Baker"),
        ("Crown Heads", crown, "Cara Cole", "Dan Dyer"),
        ("Anchor Rats", anchor, "Eve Evans", "Finn Ford"),
        ("Anchor Swans", anchor, "Gail Grant", "Hugh Hale"),
    ]
    teams = []
    for name, venue, first, second in names:
        slug = name.lower().replace(" ", "-")
        players = [
            PlayerFactory(name=first, slug=first.lower().replace(" ", "-")),
            PlayerFactory(name=second, slug=second.lower().replace(" ", "-")),
        ]
        team = TeamFactory.create(name=name, slug=slug, home_venue=venue, members=players)
        EntryFactory(season=season, team=team)
        teams.append(team)
    world = LeagueWorld(
        crown=crown,
        anchor=anchor,
        admin=admin,
        crown_staff=crown_staff.user,
        anchor_staff=anchor_staff.user,
        league=league,
        season=season,
        teams=teams,
    )
    first_evening = timezone.make_aware(datetime.datetime(2026, 9, 1, 19, 30))
    for home, away, number in [(0, 1, 1), (2, 3, 1), (0, 2, 2), (3, 1, 2), (3, 0, 3), (1, 2, 3)]:
        world.fixtures.append(
            FixtureFactory.create(
                season=season,
                round=number,
                home_team=teams[home],
                away_team=teams[away],
                starts_at=first_evening + datetime.timedelta(weeks=number - 1),
            )
        )
    # Rounds 1 and 2 played: Crown Jewels 6 pts (+110), Anchor Swans 6 (+91),
    # Crown Heads 0 (−91), Anchor Rats 0 (−110).
    world.submit(world.fixtures[0], korova_sheet(world.fixtures[0], KOROVA_HOME_WINS))
    world.submit(world.fixtures[1], korova_sheet(world.fixtures[1], KOROVA_AWAY_WINS))
    world.submit(world.fixtures[2], korova_sheet(world.fixtures[2], KOROVA_HOME_WINS))
    world.submit(world.fixtures[3], korova_sheet(world.fixtures[3], KOROVA_CLOSE_HOME_WIN))

    convoy_fixture = one_fixture_league(Game.CONVOY, teams, first_evening)
    conquian_fixture = one_fixture_league(Game.CONQUIAN, teams, first_evening)
    world.convoy_fixture, world.conquian_fixture = convoy_fixture, conquian_fixture
    world.submit(convoy_fixture, convoy_sheet("away"))
    world.submit(
        conquian_fixture, conquian_sheet(conquian_fixture, CONQUIAN_FIRST, CONQUIAN_SECOND)
    )
    return world


@pytest.fixture(autouse=True)
def _clear_cache(settings):
    """A cold standings cache for every test, and a fast password hasher for the users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(db) -> LeagueWorld:
    return build_world()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def token_client(user) -> APIClient:
    client = APIClient()
    _, token = AuthToken.objects.create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client
