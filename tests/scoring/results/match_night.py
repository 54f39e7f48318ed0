"""A Корова fixture whose four players have logins, its staff, and a valid sheet: what the
match-night tests (services, pages, API) share."""

from dataclasses import dataclass

from django.contrib.auth.models import User

from leagues.models import Fixture, Player
from tests.factories import StaffMembershipFactory, TeamFactory, UserFactory
from tests.scoring.results.staff_sheets import FULL_GAME, make_fixture, player_ids


@dataclass
class MatchNight:
    fixture: Fixture
    home: list[User]  # the home team's players 1 and 2
    away: list[User]
    staff: User  # staff of the fixture's venue
    other_staff: User  # staff of another venue
    stranger: User  # a player of a team outside the fixture

    def sheet(self, rounds=None) -> dict:
        return {"players": player_ids(self.fixture), "rounds": rounds or FULL_GAME}


def match_night(**season) -> MatchNight:
    fixture = make_fixture(**season)
    users: dict[int, list[User]] = {}
    for team in (fixture.home_team, fixture.away_team):
        for member in team.members.order_by("position"):
            user = UserFactory.create(username=f"{team.slug}-{member.position}")
            Player.objects.filter(pk=member.player_id).update(user=user)
            users.setdefault(team.pk, []).append(user)
    outsider = UserFactory.create(username=f"outsider-{fixture.pk}")
    Player.objects.filter(pk=TeamFactory().members.first().player_id).update(user=outsider)
    return MatchNight(
        fixture=fixture,
        home=users[fixture.home_team_id],
        away=users[fixture.away_team_id],
        staff=StaffMembershipFactory.create(venue=fixture.venue).user,
        other_staff=StaffMembershipFactory.create().user,
        stranger=outsider,
    )
