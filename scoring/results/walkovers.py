"""Walkovers and withdrawals (docs/seasons-walkovers-squads.md): a fixture awarded to the team
that turned up, and a team withdrawn from its season, whose fixtures left become void or
walkovers as the season's rule says. A walkover is a version of the result like any other,
written under the lock on the fixture's row (scoring.results.services._locked_fixture).
"""

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.errors import Conflict, Forbidden, Invalid, NotFound
from leagues.models import Entry, Fixture, Season, Team, WithdrawalRule
from leagues.permissions import (
    NOT_LEAGUE_ADMIN,
    AnyUser,
    ensure_can_enter_results,
    is_league_admin,
    staff_grants,
)
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.results.fixture_day import ensure_fixture_day_or_admin_override
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.selectors import fixture_current_result
from scoring.results.services import _check_note, _locked_fixture, fixture_played_mark


class PlayedResultStands(Conflict):
    """A walkover asked for a fixture that has a played result (409)."""


@transaction.atomic
def result_walkover_award(
    *, fixture_id: int, team: str, by: AnyUser, note: str = ""
) -> ResultVersion:
    """Award the fixture to the team that turned up (`team`: "home" or "away") because the
    other did not: a new version of its result like any other (append-only, who and when),
    with an empty sheet, the season's walkover score (or the game's own,
    GameKind.walkover_scores) and `walkover` set. The table gives it the season's walkover
    points; ratings and players' figures leave it out.

    A walkover may replace a walkover (the wrong team was named), never a played result:
    staff correct or void that through the normal path first.

    Raises:
      PermissionDenied    `by` does not serve the fixture's venue and is no league admin;
      Invalid             `team` is not "home" or "away" (field "team"), or the note is
                          too long (field "note");
      FixtureNotOpen      the fixture is void;
      PlayedResultStands  the fixture's current result was played (409);
      BeforeFixtureDay    the fixture's day has not come;
      Fixture.DoesNotExist  no such fixture.
    Nothing is written when any of these is raised.
    """
    fixture = _locked_fixture(fixture_id)
    ensure_can_enter_results(user=by, venue_id=fixture.venue_id)
    if team not in ResultVersion.Walkover.values:
        raise Invalid(errors={"team": _('Choose the team that turned up: "home" or "away".')})
    if fixture.status == Fixture.Status.VOID:
        raise FixtureNotOpen(_("This fixture is void: it takes no result."))
    current = fixture_current_result(fixture=fixture.pk)
    if current is not None and not current.walkover:
        raise PlayedResultStands(
            _(
                "This fixture has a played result (version %(number)s): a walkover is for a "
                "team that did not turn up. Correct the result on its sheet, or ask a league "
                "admin to void the fixture, instead."
            )
            % {"number": current.number}
        )
    ensure_fixture_day_or_admin_override(fixture=fixture, by=by, override=False)
    _check_note(note)
    source = (
        ResultVersion.Source.ADMIN
        if is_league_admin(user=by)
        and not staff_grants(user=by).filter(venue_id=fixture.venue_id).exists()
        else ResultVersion.Source.STAFF
    )
    return _write_walkover(fixture=fixture, team=team, by=by, source=source, note=note.strip())


def _write_walkover(
    *, fixture: Fixture, team: str, by: AnyUser | None, source: str, note: str
) -> ResultVersion:
    """The walkover's version, the fixture locked by the caller."""
    season = Season.objects.select_related("league").get(pk=fixture.season_id)
    winner_score, loser_score = get_kind(season.game).walkover_scores(
        rule_options=season.rule_options, fixture_format=season.fixture_format
    )
    if season.walkover_score_winner is not None:
        winner_score = season.walkover_score_winner
    if season.walkover_score_loser is not None:
        loser_score = season.walkover_score_loser
    current = fixture_current_result(fixture=fixture.pk)
    if current is not None:
        ResultVersion.objects.filter(pk=current.pk).update(is_current=False)
    version = ResultVersion.objects.create(
        fixture=fixture,
        number=(current.number if current is not None else 0) + 1,
        sheet={},
        home_score=winner_score if team == "home" else loser_score,
        away_score=loser_score if team == "home" else winner_score,
        winner=team,
        lineup={"home": [], "away": [], "substitutes": []},  # nobody played
        walkover=team,
        is_current=True,
        source=source,
        created_by_id=None if by is None else by.pk,
        note=note,
    )
    return fixture_played_mark(fixture=fixture, version=version, game=season.game, by=by)


@transaction.atomic
def entry_withdraw(*, entry_id: int, on: datetime.date, by: AnyUser | None) -> Entry:
    """Withdraw a team from its season on the day `on`, as the season's withdrawal rule says
    (docs/seasons-walkovers-squads.md):

    - expunge: its league fixtures still without a result become void, and the table leaves
      out its played results too (the team is not ranked);
    - keep: its played results stand, and each league fixture still without a result becomes
      a walkover to its opponent (a version written by `by`, source admin).

    The entry row is locked first, then the team's fixtures. Raises Forbidden unless `by` is a
    league admin (None: the command line), NotFound for no such entry, Invalid (on "on") for a
    day that is not a date, and Conflict when the team has withdrawn already. Nothing is
    written then.
    """
    if by is not None and not is_league_admin(user=by):
        raise Forbidden(NOT_LEAGUE_ADMIN)
    if not isinstance(on, datetime.date) or isinstance(on, datetime.datetime):
        raise Invalid(errors={"on": _("Give the day the team withdrew.")})
    try:
        entry = Entry.objects.select_for_update().get(pk=entry_id)
    except Entry.DoesNotExist:
        raise NotFound(_("There is no such entry.")) from None
    team = Team.objects.get(pk=entry.team_id)
    season = Season.objects.get(pk=entry.season_id)
    if entry.withdrawn_on is not None:
        raise Conflict(
            _("%(team)s withdrew from %(season)s on %(day)s already.")
            % {
                "team": team,
                "season": season,
                "day": dateformat.format(entry.withdrawn_on, pgettext("date format", "j M Y")),
            }
        )
    entry.withdrawn_on = on
    entry.save(update_fields=["withdrawn_on"])
    remaining = (
        Fixture.objects.select_for_update()
        .filter(season_id=season.pk, stage=Fixture.Stage.LEAGUE)
        .filter(Q(home_team_id=team.pk) | Q(away_team_id=team.pk))
        .exclude(status=Fixture.Status.VOID)
        .exclude(result_versions__is_current=True)
        .order_by("starts_at", "pk")
    )
    reason = _("%(team)s withdrew on %(day)s") % {"team": team, "day": f"{on:%d %b %Y}"}
    for fixture in remaining:
        if season.withdrawal_rule == WithdrawalRule.EXPUNGE:
            fixture.status = Fixture.Status.VOID
            fixture._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
            fixture._change_reason = reason  # type: ignore[attr-defined]
            fixture.save(update_fields=["status"])
        else:
            opponent = "away" if fixture.home_team_id == team.pk else "home"
            _write_walkover(
                fixture=fixture,
                team=opponent,
                by=by,
                source=ResultVersion.Source.ADMIN,
                note=f"{reason}.",
            )
    return entry
