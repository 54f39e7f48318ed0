"""A season's table from its results: pure Python, no database.

scoring.standings.selectors.season_standings fetches the results and teams and calls
`build_standings`; tests build the records by hand.
"""

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

from scoring.kinds import get_kind
from scoring.standings.tiebreakers import TieBreaker, tie_breaker_chain

FORM_LENGTH = 5
FORM_LETTERS = {"win": "W", "draw": "D", "loss": "L"}


# The ResultVersion fields a ResultRecord's first seven come from, in its order: every read of
# counted results for a table (a season's, its position chart's, a team's record) asks for them.
RECORD_FIELDS = (
    "fixture_id",
    "fixture__home_team_id",
    "fixture__away_team_id",
    "home_score",
    "away_score",
    "winner",
    "fixture__starts_at",
)


class ResultRecord(NamedTuple):
    """One counted result: a fixture's current version (void fixtures left out).

    Scores are the game's own units (convoys, penalty heads, deal points), as stored on the
    ResultVersion. played_at (the fixture's date and time) orders the form. A named tuple:
    a season of 20 teams has 380 of these to build for every table computed.
    """

    fixture_id: int
    home_team_id: int
    away_team_id: int
    home_score: int
    away_score: int
    winner: str  # "home", "away" or "draw"
    played_at: Any = None
    # What the fixture adds to the kind's own columns (GameKind.fixture_figures) per side.
    home_figures: tuple[tuple[str, int], ...] = ()
    away_figures: tuple[tuple[str, int], ...] = ()
    walkover: str = ""  # "home" / "away": awarded to that side, no game played

    def side_of(self, team_id: int) -> str | None:
        if team_id == self.home_team_id:
            return "home"
        if team_id == self.away_team_id:
            return "away"
        return None

    def result_for(self, team_id: int) -> str:
        """ "win", "draw" or "loss" for that team."""
        if self.winner == "draw":
            return "draw"
        return "win" if self.winner == self.side_of(team_id) else "loss"

    def figures_for(self, team_id: int) -> tuple[tuple[str, int], ...]:
        return self.home_figures if self.side_of(team_id) == "home" else self.away_figures

    def scores_for(self, team_id: int) -> tuple[int, int]:
        """(score for, score against) from that team's side."""
        if self.side_of(team_id) == "home":
            return self.home_score, self.away_score
        return self.away_score, self.home_score

    def points_for(self, team_id: int, config: "StandingsConfig") -> int:
        """The table's points for that team: the season's walkover points for a walkover."""
        result = self.result_for(team_id)
        if self.walkover:
            won = result == "win"
            return config.walkover_points_winner if won else config.walkover_points_loser
        return config.points_for(result)


class Adjustment(NamedTuple):
    """Points a league admin added to (or took from) a team's total, and why
    (scoring.models.PointsAdjustment)."""

    points: int
    reason: str
    on: datetime.date


class Zone:
    """Where a row's place sends its team at the season's end (scoring.season_rules)."""

    PROMOTION = "promotion"
    RELEGATION = "relegation"


@dataclass(frozen=True)
class StandingsConfig:
    """What of the season the table depends on."""

    game: str
    points_win: int = 3
    points_draw: int = 1
    points_loss: int = 0
    tie_breakers: tuple[str, ...] = ("points", "difference", "head_to_head", "wins")
    walkover_points_winner: int = 3
    walkover_points_loser: int = 0

    @classmethod
    def from_season(cls, season, *, game: str | None = None) -> "StandingsConfig":
        return cls(
            game=game or season.game,
            points_win=season.points_win,
            points_draw=season.points_draw,
            points_loss=season.points_loss,
            tie_breakers=tuple(season.tie_breakers),
            walkover_points_winner=season.walkover_points_winner,
            walkover_points_loser=season.walkover_points_loser,
        )

    def points_for(self, result: str) -> int:
        return {"win": self.points_win, "draw": self.points_draw, "loss": self.points_loss}[result]


def game_difference(game: str, score_for: int, score_against: int) -> int:
    """The game's own difference, positive when good (the kind knows if lower is better)."""
    return get_kind(game).difference(score_for, score_against)


@dataclass
class StandingRow:
    team: Any
    team_id: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    score_for: int = 0
    score_against: int = 0
    difference: int = 0
    points: int = 0
    form: list[str] = field(default_factory=list)  # the last 5 as "W"/"D"/"L", newest last
    figures: dict[str, int] = field(default_factory=dict)  # the kind's own columns' totals
    position: int = 0
    shares_position: bool = False  # level with another team on every tie-breaker
    adjustment: int = 0  # the sum of the team's points adjustments, included in points
    adjustments: list[Adjustment] = field(default_factory=list)
    zone: str | None = None  # Zone.PROMOTION, Zone.RELEGATION or None
    withdrawn: bool = False  # withdrew from the season, its results kept (expunged: no row)


class StandingsContext:
    """What a tie-breaker may look at besides a row: the results, and who is tied now."""

    def __init__(self, config: StandingsConfig, records: Sequence[ResultRecord], tied=()):
        self.config = config
        self.records = records
        self.tied = frozenset(tied)

    def among(self, team_ids: Iterable[int]) -> "StandingsContext":
        return StandingsContext(self.config, self.records, team_ids)

    @cached_property
    def mini_table(self) -> dict[int, tuple[int, int]]:
        """Points and difference per tied team, from the fixtures between tied teams only."""
        table = {team_id: [0, 0] for team_id in self.tied}
        for record in self.records:
            if record.home_team_id in self.tied and record.away_team_id in self.tied:
                for team_id in (record.home_team_id, record.away_team_id):
                    score_for, score_against = record.scores_for(team_id)
                    table[team_id][0] += record.points_for(team_id, self.config)
                    table[team_id][1] += game_difference(self.config.game, score_for, score_against)
        return {team_id: (points, diff) for team_id, (points, diff) in table.items()}


def build_standings(
    *,
    records: Iterable[ResultRecord],
    teams: Sequence,
    config: StandingsConfig,
    adjustments: Mapping[int, Sequence[Adjustment]] | None = None,
) -> list[StandingRow]:
    """The table: a row per team (any object with `pk`), ordered, with positions.

    `teams` in their order for display when level on everything (the selector gives them by
    name). Results of teams not in `teams` count only for the teams that are. `adjustments`
    (team id → its points adjustments) count in the points before the table is ordered.
    """
    chain = tie_breaker_chain(list(config.tie_breakers))
    rows = {team.pk: StandingRow(team=team, team_id=team.pk) for team in teams}
    records = sorted(records, key=lambda r: (r.played_at is None, r.played_at or 0, r.fixture_id))
    results = defaultdict(list)
    for record in records:
        for team_id in (record.home_team_id, record.away_team_id):
            row = rows.get(team_id)
            if row is None:
                continue
            outcome = record.result_for(team_id)
            score_for, score_against = record.scores_for(team_id)
            row.played += 1
            if outcome == "win":
                row.won += 1
            elif outcome == "draw":
                row.drawn += 1
            else:
                row.lost += 1
            row.score_for += score_for
            row.score_against += score_against
            row.points += record.points_for(team_id, config)
            for key, value in record.figures_for(team_id):
                row.figures[key] = row.figures.get(key, 0) + value
            results[team_id].append(FORM_LETTERS[outcome])
    kind = get_kind(config.game)
    for row in rows.values():
        row.figures = {column.key: row.figures.get(column.key, 0) for column in kind.figure_columns}
        row.difference = game_difference(config.game, row.score_for, row.score_against)
        row.form = results[row.team_id][-FORM_LENGTH:]
        row.adjustments = list((adjustments or {}).get(row.team_id, ()))
        row.adjustment = sum(adjustment.points for adjustment in row.adjustments)
        row.points += row.adjustment
    context = StandingsContext(config, records)
    ordered: list[StandingRow] = []
    for group in order_rows(list(rows.values()), chain, context):
        position = len(ordered) + 1
        for row in group:
            row.position = position
            row.shares_position = len(group) > 1
        ordered += group
    return ordered


def mark_zones(rows: Sequence[StandingRow], *, promoted: int, relegated: int) -> None:
    """Mark the top `promoted` rows of an ordered table as the promotion zone and the bottom
    `relegated` as the relegation zone (by place in the table, so that the line falls where
    the counts say even between teams level on everything); promotion wins an overlap."""
    for index, row in enumerate(rows):
        if index < promoted:
            row.zone = Zone.PROMOTION
        elif index >= len(rows) - relegated:
            row.zone = Zone.RELEGATION
        else:
            row.zone = None


def order_rows(
    rows: list[StandingRow], chain: Sequence[TieBreaker], context: StandingsContext
) -> list[list[StandingRow]]:
    """The rows in groups, best first; the rows of a group are level on every tie-breaker.

    Each tie-breaker orders the teams still level on all the ones before it, seeing only
    those teams as tied (head to head builds its mini-table from them).
    """
    groups = [rows] if rows else []
    for tie_breaker in chain:
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            among = context.among(row.team_id for row in group)
            keyed = [(tie_breaker.sort_key(row, among), row) for row in group]
            # sorted() is stable, also in reverse: level teams keep their order.
            keyed.sort(key=itemgetter(0), reverse=True)
            refined += [[row for _, row in level] for _, level in groupby(keyed, itemgetter(0))]
        groups = refined
    return groups
