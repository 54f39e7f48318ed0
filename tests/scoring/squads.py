"""Builders for the walkover, withdrawal and squad tests: a season with its teams entered, a
fixture between two of them, staff of its venue, a reserve, and each game's sheets."""

from dataclasses import dataclass
from typing import Any

from leagues.models import Game, Reserve
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    VenueFactory,
)


@dataclass
class Squads:
    season: Any
    venue: Any
    teams: list[Any]
    entries: list[Any]
    fixture: Any  # teams[0] at home to teams[1]
    staff: Any

    def players(self, team_index: int) -> list[int]:
        team = self.teams[team_index]
        return [m.player_id for m in team.members.order_by("position")]

    def reserve(self, team_index: int, name: str = "Rita Reserve") -> Any:
        player: Any = PlayerFactory(name=name)
        Reserve.objects.create(entry=self.entries[team_index], player_id=player.pk)
        return player

    def fixture_between(self, home: int, away: int, round: int = 1) -> Any:
        return FixtureFactory(
            season=self.season,
            home_team=self.teams[home],
            away_team=self.teams[away],
            venue=self.venue,
            round=round,
        )


def make_squads(game: str = Game.KOROVA, teams: int = 2, **season_fields) -> Squads:
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game=game), **season_fields)
    made = [TeamFactory(home_venue=venue) for _ in range(teams)]
    entries = [EntryFactory(season=season, team=team) for team in made]
    fixture = FixtureFactory(season=season, home_team=made[0], away_team=made[1], venue=venue)
    staff = StaffMembershipFactory(venue=venue).user
    return Squads(season, venue, made, entries, fixture, staff)


def korova_sheet(home: list[int], away: list[int]) -> dict:
    """Home player 1 reaches 80 in round 4: the away team wins on 60 heads against 100."""
    return {"players": [*home, *away], "rounds": [[20, 5, 10, 5]] * 4}


def conquian_sheet(home: list[int], away: list[int]) -> dict:
    """Home wins single 1, away single 2, each 5–0: a draw."""
    return {
        "singles": [
            {"home_player": home[0], "away_player": away[0], "deals": ["home"] * 5},
            {"home_player": home[1], "away_player": away[1], "deals": ["away"] * 5},
        ]
    }


CONVOY_SHEET = {"games": [{"winner": "home", "convoys": {"home": 3, "away": 1}}]}
