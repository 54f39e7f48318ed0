"""Reads of the standings: a division's table.

A season has one or more divisions (leagues.models.Division), each its own table of the teams
entered in it, from its league fixtures (stage "league": cup ties and play-offs never count).
An entry or league fixture without a division is in the season's top division
(leagues.selectors.division_q).

season_standings costs the same number of queries whatever the number of teams or fixtures:
  1. the season's stamp: its game and table settings, the id of the newest result version of
     its fixtures and of the newest change to any of its fixtures (django-simple-history);
  2. the season's divisions;
  3. the teams entered in the division;
  4. the points adjustments of those teams in the season;
  5. only when the table is not cached for that stamp: the current result of every league
     fixture of the division that is not void, with the fixture's teams and date, in one query.
The table is cached under a key made of the division, the stamp, the team ids and the
adjustments, so a saved result (a new version), a voided or moved fixture (a new history
row), a team entered, moved or withdrawn, an adjustment, or a change to the points or the
tie-breakers gives a new key: the table shows it at once. Results are append-only versions
(never deleted) and fixtures change through save(), which is what keeps the stamp honest.
The zones (promotion, relegation) are marked on every read, from the division's settings.
"""

import datetime
import hashlib
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.errors import Invalid
from leagues.models import Division, Entry, Fixture, Season, Team, WithdrawalRule
from leagues.selectors import division_q, season_divisions
from scoring.kinds import get_kind
from scoring.models import PointsAdjustment, ResultVersion
from scoring.results.outcomes import saved_outcome
from scoring.standings.table import (
    RECORD_FIELDS,
    Adjustment,
    ResultRecord,
    StandingRow,
    StandingsConfig,
    build_standings,
    mark_zones,
)

CACHE_SECONDS = 24 * 60 * 60
_ROW_FIELDS = (
    "played won drawn lost score_for score_against difference points form position shares_position"
    " figures adjustment adjustments withdrawn"
).split()


def season_standings(
    *, season: Season, division: Division | int | None = None, use_cache: bool = True
) -> list[StandingRow]:
    """A division's table (the season's top division without `division`), best first; rows
    carry the Team, the counts, form, position, points adjustments and zone.

    Only the current version of each league fixture's result counts, and no void fixture
    does. A walkover counts with the season's walkover points. A team that withdrew is marked
    (`withdrawn`) when the season keeps its results; when it expunges them, the team has no
    row and none of its results count for anyone. Raises Invalid (field "division") for a
    division that is not the season's.
    """
    stamp = _season_stamp(season.pk)
    config = StandingsConfig(
        game=stamp["league__game"],
        points_win=stamp["points_win"],
        points_draw=stamp["points_draw"],
        points_loss=stamp["points_loss"],
        tie_breakers=tuple(stamp["tie_breakers"]),
        walkover_points_winner=stamp["walkover_points_winner"],
        walkover_points_loser=stamp["walkover_points_loser"],
    )
    divisions = season_divisions(season=season)
    chosen = division_of(divisions, division)
    top = chosen is None or chosen is divisions[0]
    in_division = division_q(division=chosen, top=top, field="division")
    entries = list(
        Entry.objects.filter(in_division, season_id=season.pk)
        .select_related("team")
        .order_by("team__name", "team__pk")
    )
    withdrawn = {entry.team_id for entry in entries if entry.withdrawn_on is not None}
    expunged = withdrawn if stamp["withdrawal_rule"] == WithdrawalRule.EXPUNGE else set()
    teams = [entry.team for entry in entries if entry.team_id not in expunged]
    adjustments = _adjustments(season.pk, [team.pk for team in teams])
    withdrawals = sorted((*withdrawn, stamp["withdrawal_rule"]), key=str)
    key = _cache_key(season.pk, chosen, stamp, config, teams, adjustments, withdrawals)
    rows = _cached_rows(key, teams) if use_cache else None
    if rows is None:
        records = [
            record
            for record in _season_records(
                season.pk,
                game=config.game,
                rule_options=stamp["rule_options"],
                division=chosen,
                top=top,
            )
            if record.home_team_id not in expunged and record.away_team_id not in expunged
        ]
        rows = build_standings(records=records, teams=teams, config=config, adjustments=adjustments)
        for row in rows:
            row.withdrawn = row.team_id in withdrawn
        if use_cache:
            cache.set(
                key,
                [(row.team_id, *(getattr(row, name) for name in _ROW_FIELDS)) for row in rows],
                CACHE_SECONDS,
            )
    if chosen is not None:
        index = divisions.index(chosen)
        mark_zones(
            rows,
            promoted=chosen.promoted if index > 0 else 0,
            relegated=chosen.relegated if index < len(divisions) - 1 else 0,
        )
    return rows


def division_of(divisions: list[Division], division: Division | int | None) -> Division | None:
    """The division asked for among the season's `divisions` (the top one when None, and None
    for a season without divisions). Raises Invalid naming "division" when it is not one of
    them."""
    if division is None:
        return divisions[0] if divisions else None
    wanted = division.pk if isinstance(division, Division) else division
    for candidate in divisions:
        if candidate.pk == wanted:
            return candidate
    raise Invalid(errors={"division": _("This season has no such division.")})


def _cached_rows(key: str, teams: list[Team]) -> list[StandingRow] | None:
    cached = cache.get(key)
    if cached is None:
        return None
    by_id = {team.pk: team for team in teams}
    return [
        StandingRow(team=by_id[team_id], team_id=team_id, **dict(zip(_ROW_FIELDS, values)))
        for team_id, *values in cached
    ]


def _adjustments(season_id: int, team_ids: list[int]) -> dict[int, list[Adjustment]]:
    found: dict[int, list[Adjustment]] = {}
    for team_id, points, reason, on in (
        PointsAdjustment.objects.filter(season_id=season_id, team_id__in=team_ids)
        .order_by("on", "pk")
        .values_list("team_id", "points", "reason", "on")
    ):
        found.setdefault(team_id, []).append(Adjustment(points, reason, on))
    return found


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
            "walkover_points_winner",
            "walkover_points_loser",
            "withdrawal_rule",
            "tie_breakers",
            "rule_options",
            "newest_version",
            "newest_fixture_change",
        )
        .get()
    )


def _cache_key(
    season_id: int,
    division: Division | None,
    stamp: dict[str, Any],
    config: StandingsConfig,
    teams: list[Team],
    adjustments: dict[int, list[Adjustment]],
    withdrawals: list[Any],
) -> str:
    digest = hashlib.sha256(
        repr(
            (
                stamp["newest_version"],
                stamp["newest_fixture_change"],
                config,
                [team.pk for team in teams],
                sorted(adjustments.items()),
                withdrawals,
            )
        ).encode()
    ).hexdigest()[:32]
    division_id = division.pk if division is not None else 0
    return f"roundel:standings:{season_id}:{division_id}:{digest}"


def league_results(*, season_id: int, in_division: Q) -> QuerySet[ResultVersion]:
    """The counted results (current, not void) of the season's league fixtures that
    `in_division` selects (a Q over ResultVersion: `fixture__division…`), unordered. Cup ties
    and play-offs are not the table's: a cup tie counts in ratings and players' figures, never
    in the table. The one read of the table's results: the table and its charts use it."""
    return (
        ResultVersion.objects.counted()
        .filter(in_division, fixture__season_id=season_id, fixture__stage=Fixture.Stage.LEAGUE)
        .order_by()  # build_standings orders them by date: no join for the models' ordering
    )


def _season_records(
    season_id: int,
    *,
    game: str,
    rule_options: dict[str, Any],
    division: Division | None,
    top: bool,
) -> list[ResultRecord]:
    """The current result of every league fixture of the division that is not void (cup ties
    and play-offs are not the table's), with what it adds to the kind's own columns when those
    come from the sheets."""
    kind = get_kind(game)
    with_sheets = bool(kind.figure_columns)
    rows = league_results(
        season_id=season_id,
        in_division=division_q(division=division, top=top, field="fixture__division"),
    ).values_list(*RECORD_FIELDS, "walkover", *(["sheet"] if with_sheets else []))
    records = []
    for fixture_id, home_id, away_id, home, away, winner, at, walkover, *sheet in rows:
        record = ResultRecord(fixture_id, home_id, away_id, home, away, winner, at)
        # A walkover played no game: nothing for the kind's own columns.
        if with_sheets and not walkover:
            outcome = saved_outcome(game=game, sheet=sheet[0], rule_options=rule_options)
            record = record._replace(
                home_figures=tuple(kind.fixture_figures(outcome, "home").items()),
                away_figures=tuple(kind.fixture_figures(outcome, "away").items()),
            )
        records.append(record._replace(walkover=walkover) if walkover else record)
    return records


@dataclass(frozen=True)
class Withdrawal:
    """A team that withdrew from the season: the day, and what the season's rule did with its
    results (`expunged`), in a sentence for the table's footnote."""

    team: Team
    on: datetime.date
    expunged: bool

    @property
    def sentence(self) -> str:
        day = date_format(self.on, pgettext("date format", "j M Y"))
        if self.expunged:
            return _(
                "%(team)s withdrew on %(day)s: its results are expunged (taken out of the "
                "table) and its remaining fixtures are void."
            ) % {"team": self.team.name, "day": day}
        return _(
            "%(team)s withdrew on %(day)s: its played results stand and its remaining "
            "fixtures are walkovers to its opponents."
        ) % {"team": self.team.name, "day": day}


def season_withdrawals(*, season: Season, division: Division | None = None) -> list[Withdrawal]:
    """The teams that withdrew from the season (from `division` when given), earliest first,
    as the season's rule treats them (Season.withdrawal_rule)."""
    expunged = season.withdrawal_rule == WithdrawalRule.EXPUNGE
    entries = Entry.objects.filter(season_id=season.pk, withdrawn_on__isnull=False)
    if division is not None:
        top = not season.divisions.filter(level__lt=division.level).exists()
        entries = entries.filter(division_q(division=division, top=top))
    return [
        Withdrawal(team=entry.team, on=entry.withdrawn_on, expunged=expunged)
        for entry in entries.select_related("team").order_by("withdrawn_on", "team__name")
        if entry.withdrawn_on is not None
    ]
