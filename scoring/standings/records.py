"""A team's (or a player's teams') record per game for the team and player pages, counted by
the standings' own code and shown in the game's own columns. One query, whatever the number of
results. (A player's own figures: scoring.standings.figures.)"""

from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db.models import Q

from leagues.models import Game
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.results.outcomes import saved_outcome
from scoring.standings.table import (
    RECORD_FIELDS,
    ResultRecord,
    StandingRow,
    StandingsConfig,
    build_standings,
)

# The teams whose record is asked for count as one side (a player's two teams, say).
_SIDE = 0


@dataclass
class GameRecord:
    """A record in one game: the one-side standings `row` and, per column of the game's
    kind, (column, value)."""

    kind: object
    row: StandingRow
    cells: list = field(default_factory=list)


def _counted_results(team_ids: set[int]):
    """The current results of these teams' fixtures that count (not void), oldest first; a
    walkover is no game played and stays out of a record (the season's table counts it)."""
    return (
        ResultVersion.objects.counted()
        .filter(walkover="")
        .filter(Q(fixture__home_team_id__in=team_ids) | Q(fixture__away_team_id__in=team_ids))
        .order_by("fixture__starts_at", "fixture_id")
    )


def record_by_game(*, team_ids: list[int]) -> list[GameRecord]:
    """The record of these teams per game across all seasons (games without a result left
    out), in the order of the Game choices. Counts what the season tables count."""
    own_team_ids = set(team_ids)
    rows = _counted_results(own_team_ids).values_list(
        "fixture__season__league__game", *RECORD_FIELDS, "sheet", "fixture__season__rule_options"
    )
    by_game: dict[str, list[ResultRecord]] = {}
    for game, fixture_id, home_id, away_id, home, away, winner, at, sheet, options in rows:
        kind = get_kind(game)
        figures: tuple[tuple[tuple[str, int], ...], ...] = ((), ())
        if kind.figure_columns:
            outcome = saved_outcome(game=game, sheet=sheet, rule_options=options)
            figures = tuple(
                tuple(kind.fixture_figures(outcome, side).items()) for side in ("home", "away")
            )
        home_id = _SIDE if home_id in own_team_ids else home_id
        away_id = _SIDE if away_id in own_team_ids and home_id != _SIDE else away_id
        by_game.setdefault(game, []).append(
            ResultRecord(
                fixture_id, home_id, away_id, home, away, winner, at, figures[0], figures[1]
            )
        )
    side = SimpleNamespace(pk=_SIDE)
    records = []
    for game in Game.values:
        if game in by_game:
            kind = get_kind(game)
            (row,) = build_standings(
                records=by_game[game], teams=[side], config=StandingsConfig(game=game)
            )
            cells = [(column, column.value(row)) for column in kind.standings_columns]
            records.append(GameRecord(kind=kind, row=row, cells=cells))
    return records
