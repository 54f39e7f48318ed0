"""Reads of the standings: a season's table.

season_standings costs the same number of queries whatever the number of teams or fixtures:
  1. the season's stamp: its game and table settings, the id of the newest result version of
     its fixtures and of the newest change to any of its fixtures (django-simple-history);
  2. the teams entered in the season;
  3. only when the table is not cached for that stamp: the current result of every fixture
     that is not void, with the fixture's teams and date, in one query.
The table is cached under a key made of the stamp and the team ids, so a saved result (a new
version), a voided or moved fixture (a new history row), a team entered or withdrawn, or a
change to the points or the tie-breakers gives a new key: the table shows it at once.
Results are append-only versions (never deleted) and fixtures change through save(), which
is what keeps the stamp honest.
"""

import hashlib
from typing import Any

from django.core.cache import cache
from django.db.models import OuterRef, Subquery

from leagues.models import Fixture, Season, Team
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.standings.table import ResultRecord, StandingRow, StandingsConfig, build_standings

CACHE_SECONDS = 24 * 60 * 60
_ROW_FIELDS = (
    "played won drawn lost score_for score_against difference points form position shares_position"
    " figures"
).split()


def season_standings(*, season: Season, use_cache: bool = True) -> list[StandingRow]:
    """The season's table, best first; rows carry the Team, the counts, form and position.

    Only the current version of each fixture's result counts, and no void fixture does.
    """
    stamp = _season_stamp(season.pk)
    config = StandingsConfig(
        game=stamp["league__game"],
        points_win=stamp["points_win"],
        points_draw=stamp["points_draw"],
        points_loss=stamp["points_loss"],
        tie_breakers=tuple(stamp["tie_breakers"]),
    )
    teams = list(Team.objects.filter(entries__season_id=season.pk).order_by("name", "pk"))
    key = _cache_key(season.pk, stamp, config, teams)
    if use_cache:
        cached = cache.get(key)
        if cached is not None:
            by_id = {team.pk: team for team in teams}
            return [
                StandingRow(team=by_id[team_id], team_id=team_id, **dict(zip(_ROW_FIELDS, values)))
                for team_id, *values in cached
            ]
    records = _season_records(season.pk, game=config.game, rule_options=stamp["rule_options"])
    rows = build_standings(records=records, teams=teams, config=config)
    if use_cache:
        cache.set(
            key,
            [(row.team_id, *(getattr(row, name) for name in _ROW_FIELDS)) for row in rows],
            CACHE_SECONDS,
        )
    return rows


def _season_stamp(season_id: int) -> dict[str, Any]:
    """The season's table settings and what changes whenever its table may change: one query."""
    newest_version = (
        ResultVersion.objects.filter(fixture__season_id=OuterRef("pk"))
        .order_by("-pk")
        .values("pk")[:1]
    )
    newest_fixture_change = (
        Fixture.history.filter(season_id=OuterRef("pk"))
        .order_by("-history_id")
        .values("history_id")[:1]
    )
    return (
        Season.objects.filter(pk=season_id)
        .annotate(
            newest_version=Subquery(newest_version),
            newest_fixture_change=Subquery(newest_fixture_change),
        )
        .values(
            "league__game",
            "points_win",
            "points_draw",
            "points_loss",
            "tie_breakers",
            "rule_options",
            "newest_version",
            "newest_fixture_change",
        )
        .get()
    )


def _cache_key(
    season_id: int, stamp: dict[str, Any], config: StandingsConfig, teams: list[Team]
) -> str:
    digest = hashlib.sha256(
        repr(
            (
                stamp["newest_version"],
                stamp["newest_fixture_change"],
                config,
                [team.pk for team in teams],
            )
        ).encode()
    ).hexdigest()[:32]
    return f"roundel:standings:{season_id}:{digest}"


def _season_records(
    season_id: int, *, game: str, rule_options: dict[str, Any]
) -> list[ResultRecord]:
    """The current result of every league fixture of the season that is not void (cup ties
    and play-offs are not the table's), with what it adds
    to the kind's own columns when those come from the sheets."""
    kind = get_kind(game)
    with_sheets = bool(kind.figure_columns)
    rows = (
        ResultVersion.objects.counted()
        # The league's fixtures only: a cup tie counts in ratings and players' figures,
        # never in the table.
        .filter(fixture__season_id=season_id, fixture__stage=Fixture.Stage.LEAGUE)
        .order_by()  # build_standings orders them by date: no join for the models' ordering
        .values_list(
            "fixture_id",
            "fixture__home_team_id",
            "fixture__away_team_id",
            "home_score",
            "away_score",
            "winner",
            "fixture__starts_at",
            *(["sheet"] if with_sheets else []),
        )
    )
    if not with_sheets:
        return [ResultRecord(*row) for row in rows]
    records = []
    for *row, sheet in rows:
        try:
            outcome = kind.outcome(sheet=sheet, rule_options=rule_options)
        except ValueError:  # the season's options changed since: read it under the defaults
            outcome = kind.outcome(sheet=sheet, rule_options={})
        figures = [tuple(kind.fixture_figures(outcome, side).items()) for side in ("home", "away")]
        records.append(ResultRecord(*row, *figures))
    return records
