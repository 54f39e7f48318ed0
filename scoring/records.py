"""A team's (or a player's teams') record per game, counted by the standings' own rules.

The record is a one-team table per game built by scoring.standings.build_standings from the
current results of every season, so won/drawn/lost, for/against and the game's difference
mean exactly what they mean in a season's table. One query, whatever the number of results.
"""

from dataclasses import dataclass
from types import SimpleNamespace

from django.db.models import Q

from leagues.models import Fixture, Game

from .models import ResultVersion
from .standings import ResultRecord, StandingRow, StandingsConfig, build_standings

# The teams whose record is asked for count as one side (a player's two teams, say).
_SIDE = 0


@dataclass
class GameRecord:
    """A record in one game: `row` is the standings row (played, won, drawn, lost, …)."""

    game: str
    label: str
    row: StandingRow


def record_by_game(*, team_ids: list[int]) -> list[GameRecord]:
    """The record of these teams per game across all seasons, games without results left out.

    Counts every fixture with a current result that is not void, as the standings do.
    """
    team_ids = set(team_ids)
    rows = (
        ResultVersion.objects.filter(is_current=True)
        .exclude(fixture__status=Fixture.Status.VOID)
        .filter(Q(fixture__home_team_id__in=team_ids) | Q(fixture__away_team_id__in=team_ids))
        .order_by()
        .values_list(
            "fixture__season__league__game",
            "fixture_id",
            "fixture__home_team_id",
            "fixture__away_team_id",
            "home_score",
            "away_score",
            "winner",
            "fixture__starts_at",
        )
    )
    by_game: dict[str, list[ResultRecord]] = {}
    for game, fixture_id, home_id, away_id, home_score, away_score, winner, starts_at in rows:
        home_id = _SIDE if home_id in team_ids else home_id
        away_id = _SIDE if away_id in team_ids and home_id != _SIDE else away_id
        by_game.setdefault(game, []).append(
            ResultRecord(fixture_id, home_id, away_id, home_score, away_score, winner, starts_at)
        )
    side = SimpleNamespace(pk=_SIDE)
    records = []
    for game, label in Game.choices:
        if game in by_game:
            (row,) = build_standings(
                records=by_game[game], teams=[side], config=StandingsConfig(game=game)
            )
            records.append(GameRecord(game=game, label=label, row=row))
    return records
