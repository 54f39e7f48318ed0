"""A season of two divisions of three teams, every league fixture played: the table of each
is the teams in the order they were made (the first wins all, the last loses all)."""

import datetime
from dataclasses import dataclass

from leagues.models import Division, Entry, Fixture, Season, Team
from leagues.services import fixtures_generate
from scoring.models import ResultVersion
from tests.factories import SeasonFactory, TeamFactory, VenueFactory

START = datetime.datetime(2026, 9, 1, 19, 30, tzinfo=datetime.UTC)


@dataclass
class TwoDivisions:
    season: Season
    premier: Division
    second: Division
    top_teams: list[Team]  # best first
    second_teams: list[Team]


def result(fixture: Fixture, winner: str) -> ResultVersion:
    scores = {"home": (3, 1), "away": (1, 3), "draw": (2, 2)}[winner]
    fixture.status = Fixture.Status.PLAYED
    fixture.save(update_fields=["status"])
    return ResultVersion.objects.create(
        fixture=fixture,
        number=1,
        sheet={"games": []},
        home_score=scores[0],
        away_score=scores[1],
        winner=winner,
        is_current=True,
    )


def play_in_order(fixtures, ranking: list[Team]) -> None:
    """Every fixture won by the team earlier in `ranking`."""
    order = {team.pk: index for index, team in enumerate(ranking)}
    for fixture in fixtures:
        home_better = order[fixture.home_team_id] < order[fixture.away_team_id]
        result(fixture, "home" if home_better else "away")


def two_divisions(*, played: bool = True, playoff: bool = False) -> TwoDivisions:
    season = SeasonFactory.create(league__game="convoy", name="2026", slug="s-2026")
    premier = season.divisions.get()
    premier.name, premier.relegated, premier.playoff = "Premier", 1, playoff
    premier.save()
    second = Division.objects.create(
        season=season, name="Division One", level=2, promoted=1, playoff=playoff
    )
    venue = VenueFactory()
    top = [TeamFactory.create(name=f"Top {n}", home_venue=venue) for n in "ABC"]
    low = [TeamFactory.create(name=f"Low {n}", home_venue=venue) for n in "ABC"]
    Entry.objects.bulk_create(
        [Entry(season=season, team=team, division=premier) for team in top]
        + [Entry(season=season, team=team, division=second) for team in low]
    )
    fixtures = fixtures_generate(season=season, first_kickoff=START)
    if played:
        play_in_order([f for f in fixtures if f.division_id == premier.pk], top)
        play_in_order([f for f in fixtures if f.division_id == second.pk], low)
    return TwoDivisions(season, premier, second, top, low)
