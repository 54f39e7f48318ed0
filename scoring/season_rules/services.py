"""Writes of a season's rules beyond the table's settings (docs/seasons.md): points
adjustments, play-off fixtures and the rollover into the next season. League admins only
(leagues.permissions.is_league_admin); `by` None is the command line.

Each runs in one transaction and locks the season row before the reads it depends on, so two
admins doing the same at once do it once (the rollover's concurrency test shows it).
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, Invalid, NotFound
from leagues.models import Division, Entry, Fixture, Season
from leagues.permissions import NOT_LEAGUE_ADMIN, AnyUser, is_league_admin
from leagues.services import season_divisions_ensure, season_lock
from scoring.models import PointsAdjustment
from scoring.season_rules.selectors import (
    division_playoffs,
    rollover_eligibility_clash,
    season_rollover_plan,
)

REASON_MAX_LENGTH = 250
MAX_ADJUSTMENT = 100  # points, either way: more is a typing slip, not a fine
PLAYOFF_DAYS_AFTER = 7  # a play-off kicks off a week after the division's last league fixture


def ensure_league_admin(*, user: AnyUser | None) -> None:
    if user is not None and not is_league_admin(user=user):
        raise Forbidden(NOT_LEAGUE_ADMIN)


@transaction.atomic
def points_adjustment_add(
    *,
    season_id: int,
    team_id: int,
    points: int,
    reason: str,
    on: datetime.date,
    by: AnyUser | None,
) -> PointsAdjustment:
    """Add (points > 0) or deduct (points < 0) league points from a team entered in the
    season, with the reason shown under the table. The adjustment's history keeps who added
    it. Raises Forbidden for anyone but a league admin, Invalid naming the field for points
    of 0 or beyond ±MAX_ADJUSTMENT, an empty reason, a missing date or a team not entered,
    NotFound for an unknown season.
    """
    ensure_league_admin(user=by)
    season = season_lock(season_id=season_id)
    errors: dict[str, str] = {}
    if isinstance(points, bool) or not isinstance(points, int) or points == 0:
        errors["points"] = _("Give the points to add (e.g. 2) or deduct (e.g. -3): not 0.")
    elif abs(points) > MAX_ADJUSTMENT:
        errors["points"] = _("Keep an adjustment within %(max)d points either way.") % {
            "max": MAX_ADJUSTMENT
        }
    reason = " ".join((reason or "").split())
    if not reason:
        errors["reason"] = _("Give the reason: it is shown under the table.")
    elif len(reason) > REASON_MAX_LENGTH:
        errors["reason"] = _("Keep the reason to %(max)d characters.") % {"max": REASON_MAX_LENGTH}
    if not isinstance(on, datetime.date):
        errors["on"] = _("Give the date of the adjustment.")
    if not Entry.objects.filter(season=season, team_id=team_id).exists():
        errors["team"] = _("That team is not entered in %(season)s.") % {"season": season}
    if errors:
        raise Invalid(errors=errors)
    adjustment = PointsAdjustment(
        season=season,
        team_id=team_id,
        points=points,
        reason=reason,
        on=on,
    )
    if by is not None and by.is_authenticated:
        adjustment.created_by_id = by.pk
    adjustment._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    adjustment.save()
    return adjustment


@transaction.atomic
def playoff_fixtures_create(*, division_id: int, by: AnyUser | None) -> list[Fixture]:
    """Create the division's play-off fixtures (stage "playoff") from its table as it stands:
    on each line the division has (promotion, relegation), the team just inside it at home to
    the team just outside it, a week after the division's last league fixture (move it in
    the fixture's admin like any other). Raises Forbidden for anyone but a league admin,
    Conflict when the division has no play-off, already has its play-offs, or its table has
    no line to play for.
    """
    ensure_league_admin(user=by)
    division = Division.objects.filter(pk=division_id).first()
    if division is None:
        raise NotFound(_("There is no such division."))
    season = season_lock(season_id=division.season_id)
    if not division.playoff:
        raise Conflict(
            errors={"division": _("%(division)s has no play-off.") % {"division": division.name}}
        )
    if Fixture.objects.filter(division=division, stage=Fixture.Stage.PLAYOFF).exists():
        raise Conflict(
            errors={
                "division": _("%(division)s already has its play-offs.")
                % {"division": division.name}
            }
        )
    pairings = [p for p in division_playoffs(season=season) if p.division.pk == division.pk]
    if not pairings:
        raise Conflict(
            errors={
                "division": _("%(division)s has no promotion or relegation line to play for.")
                % {"division": division.name}
            }
        )
    league = Fixture.objects.filter(division=division, stage=Fixture.Stage.LEAGUE)
    last_starts = league.order_by("-starts_at").values_list("starts_at", flat=True).first()
    last_round = max(league.values_list("round", flat=True), default=0)
    fixtures = []
    for pairing in pairings:
        fixture = Fixture(
            season=season,
            division=division,
            stage=Fixture.Stage.PLAYOFF,
            round=last_round + 1,
            home_team=pairing.inside,
            away_team=pairing.outside,
            venue_id=pairing.inside.home_venue_id,
            starts_at=(last_starts or timezone.now()) + datetime.timedelta(days=PLAYOFF_DAYS_AFTER),
        )
        fixture._history_user = by  # type: ignore[attr-defined]
        fixture._change_reason = f"Play-off ({pairing.line})"  # type: ignore[attr-defined]
        fixture.save()
        fixtures.append(fixture)
    return fixtures


@transaction.atomic
def season_rollover(
    *, season_id: int, name: str, slug: str, starts_on: datetime.date, by: AnyUser | None
) -> Season:
    """Create the next season from a finished one, as season_rollover_plan previews it: the
    same league and rule settings, the same divisions, every team that did not withdraw in
    its new division. Runs once per season: the season row is locked and its `next_season`
    set. Raises Forbidden for anyone but a league admin, Conflict when the season was rolled
    over already, a play-off has no result or one of a team's two now plays for another team
    of the next season (its eligibility rule, leagues.eligibility), Invalid naming the field for a missing name or
    date or a slug the league already uses.
    """
    ensure_league_admin(user=by)
    season = season_lock(season_id=season_id)
    if season.next_season_id is not None:
        raise Conflict(
            errors={
                "season": _("%(season)s was already rolled over into %(next)s.")
                % {"season": season, "next": season.next_season}
            }
        )
    name, slug = (name or "").strip(), (slug or "").strip()
    errors: dict[str, str] = {}
    if not name:
        errors["name"] = _("Give the new season a name.")
    if not slug:
        errors["slug"] = _("Give the new season a slug (its address).")
    elif Season.objects.filter(league_id=season.league_id, slug=slug).exists():
        errors["slug"] = _("The league already has a season at that address.")
    if not isinstance(starts_on, datetime.date):
        errors["starts_on"] = _("Give the date the new season starts.")
    if errors:
        raise Invalid(errors=errors)
    season_divisions_ensure(season=season, by=by)
    plan = season_rollover_plan(season=season)
    clash = rollover_eligibility_clash(plan=plan)
    if clash is not None:
        raise Conflict(errors={"season": clash})
    successor = Season(
        league_id=season.league_id,
        name=name,
        slug=slug,
        starts_on=starts_on,
        **{field: getattr(season, field) for field in COPIED_SETTINGS},
    )
    successor._history_user = by  # type: ignore[attr-defined]
    successor._divisions_follow = True  # type: ignore[attr-defined]  # the plan's, below
    successor.save()
    for planned in plan.divisions:
        division = Division(
            season=successor,
            name=planned.name,
            level=planned.level,
            promoted=planned.promoted,
            relegated=planned.relegated,
            playoff=planned.playoff,
        )
        division._history_user = by  # type: ignore[attr-defined]
        division.save()
        Entry.objects.bulk_create(
            [Entry(season=successor, team=team, division=division) for team in planned.teams]
        )
    season.next_season = successor
    season._history_user = by  # type: ignore[attr-defined]
    season._change_reason = f"Rolled over into {successor.name}"  # type: ignore[attr-defined]
    season.save(update_fields=["next_season"])
    return successor


# The season's rule settings, copied to the season a rollover creates.
COPIED_SETTINGS = [
    "rule_options",
    "fixture_format",
    "points_win",
    "points_draw",
    "points_loss",
    "tie_breakers",
    "walkover_points_winner",
    "walkover_points_loser",
    "walkover_score_winner",
    "walkover_score_loser",
    "withdrawal_rule",
    "reserves_allowed",
    "eligibility",
    "appearance_limit",
    "confirmation_hours",
    "postponed_within_days",
    "language",
]
