"""Match night's answers (docs/match-night.md): a player of the team that did not enter an
awaiting result confirms it or disputes it, staff of the venue or a league admin decide a
disputed one, and Celery beat confirms the ones whose window passed (results_confirm_overdue).

Every such step is a new version with the same sheet (unless the step brings one) and the new
confirmation state, written under the lock on the fixture's row
(scoring.results.services._locked_fixture), with the version number checked as for any save.
"""

import datetime
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.errors import Conflict, Invalid, NotFound
from leagues.models import Fixture, Season
from leagues.permissions import AnyUser, ensure_can_enter_results, fixture_team_of
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.lineup_selectors import fixture_player_ids
from scoring.results.selectors import (
    fixture_current_result,
    fixture_sheet_context,
    result_answered_team,
)
from scoring.results.services import NOTE_MAX_LENGTH, _locked_fixture, result_recorded
from scoring.results.sheets import unstorable_character, validate_sheet

AUTO_CONFIRMED_NOTE = gettext_lazy(
    "Confirmed automatically when the window passed without a dispute."
)


class NotCurrentVersion(Conflict):
    """A confirmation or a dispute named a version that is not the current one, or one that no
    longer awaits an answer (409). The body carries `version`: the current version's number."""

    code = "not_current_version"

    def __init__(self, detail: str, *, current: ResultVersion | None):
        self.current = current
        super().__init__(detail, extra={"version": current.number if current else 0})


P = ParamSpec("P")
R = TypeVar("R")


def _lost_race_is_a_conflict(write: Callable[P, R]) -> Callable[P, R]:
    """Only reachable when a writer went around the fixture lock: the unique constraints (one
    number per fixture, one current version) refused the second version. Answered as the
    conflict it is (409 with the current version), never as a server error."""

    @functools.wraps(write)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return write(*args, **kwargs)
        except IntegrityError as exc:
            fixture_id = kwargs["fixture_id"]
            assert isinstance(fixture_id, int)
            raise NotCurrentVersion(
                _("The result changed meanwhile: reload it and look again."),
                current=fixture_current_result(fixture=fixture_id),
            ) from exc

    return guarded


def result_answer_check(*, fixture: Fixture, by: AnyUser) -> int:
    """Who may confirm or dispute the fixture's result: a player of the team that did not
    enter it. Returns their team's id; PermissionDenied for anyone else, the enterer and their
    partner included, whatever the version they answer or what they send (the API asks it
    before reading the body; the services again under the fixture's lock)."""
    team_id = fixture_team_of(user=by, fixture=fixture)
    if team_id is None:
        raise PermissionDenied(
            _("Only the players of the team that did not enter this result can answer it.")
        )
    if team_id == result_answered_team(fixture=fixture):
        raise PermissionDenied(
            _("Your team entered this result: a player of the other team confirms or disputes it.")
        )
    return team_id


def _awaiting_current(*, fixture: Fixture, version: int) -> ResultVersion:
    """The fixture's current version, checked to be `version` and to await an answer
    (NotCurrentVersion, or NotFound without a result); result_answer_version_check too."""
    current = fixture_current_result(fixture=fixture.pk)
    if current is None:
        raise NotFound(_("No result has been entered for this fixture yet."))
    if type(version) is not int or version != current.number:
        raise NotCurrentVersion(
            _(
                "The result changed meanwhile: you answered version %(sent)s, the current "
                "version is %(current)s. Reload it and look again."
            )
            % {"sent": version, "current": current.number},
            current=current,
        )
    if current.confirmation != ResultVersion.Confirmation.AWAITING:
        raise NotCurrentVersion(
            _("This result is %(state)s: it no longer awaits an answer.")
            % {"state": current.get_confirmation_display().lower()},
            current=current,
        )
    return current


def result_answer_version_check(*, fixture: Fixture, version: int) -> None:
    """Raise NotCurrentVersion unless `version` is the fixture's current version and awaits an
    answer (NotFound without a result): the API asks it when the rest of a dispute's body is
    invalid, so that a stale version is told (409) before the body (400)."""
    _awaiting_current(fixture=fixture, version=version)


def _reason_clean(reason: object, *, field: str = "reason") -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid(errors={field: _("Say why you dispute the result.")})
    if len(reason) > NOTE_MAX_LENGTH:
        raise Invalid(
            errors={field: _("Keep it to %(limit)d characters.") % {"limit": NOTE_MAX_LENGTH}}
        )
    bad = unstorable_character(reason)
    if bad:
        raise Invalid(errors={field: _("It cannot hold %(bad)s.") % {"bad": bad}})
    return reason.strip()


def _next_state(
    *,
    fixture: Fixture,
    current: ResultVersion,
    confirmation: str,
    source: str,
    by: AnyUser | None,
    note: str = "",
    copy_of: ResultVersion | None = None,
    sheet: dict[str, Any] | None = None,
) -> ResultVersion:
    """Write the next version: `copy_of`'s sheet and scores (the current version's by
    default), or a new validated `sheet`, in the new confirmation state. Call under the lock."""
    source_version = copy_of or current
    scores = {
        "sheet": source_version.sheet,
        "home_score": source_version.home_score,
        "away_score": source_version.away_score,
        "winner": source_version.winner,
        "walkover": source_version.walkover,
        "lineup": source_version.lineup,
    }
    season = Season.objects.select_related("league").get(pk=fixture.season_id)
    if sheet is not None:
        kind = get_kind(season.game)
        context = fixture_sheet_context(fixture=fixture, kind=kind, sheet=sheet)
        clean = validate_sheet(game=season.game, sheet=sheet, **context)
        outcome = kind.outcome(sheet=clean, rule_options=season.rule_options)
        scores.update(
            sheet=clean,
            home_score=outcome.home_score,
            away_score=outcome.away_score,
            winner=outcome.winner,
            walkover="",
            lineup=fixture_player_ids(fixture=fixture),
        )
    ResultVersion.objects.filter(pk=current.pk).update(is_current=False)
    version = ResultVersion.objects.create(
        fixture=fixture,
        number=current.number + 1,
        is_current=True,
        source=source,
        created_by_id=None if by is None else by.pk,
        note=note,
        confirmation=confirmation,
        confirm_by=None,
        **scores,
    )
    result_recorded.send(sender=ResultVersion, game=season.game, version=version)
    return version


@_lost_race_is_a_conflict
@transaction.atomic
def result_confirm(*, fixture_id: int, version: int, by: AnyUser) -> ResultVersion:
    """A player of the team that did not enter the awaiting result confirms it: the next
    version, the same sheet, confirmed (it counts from now on).

    Raises, in this order, PermissionDenied (not a player of the fixture, or of the team that
    entered it: the enterer and their partner), FixtureNotOpen (void), NotCurrentVersion (`version` is not the current one, or it
    no longer awaits: confirmed or disputed already; NotFound with no result yet),
    Fixture.DoesNotExist. Nothing is written when any of these is raised.
    """
    fixture = _locked_fixture(fixture_id)
    result_answer_check(fixture=fixture, by=by)  # 403 first: whatever the version or the body
    _ensure_open(fixture)
    current = _awaiting_current(fixture=fixture, version=version)
    return _next_state(
        fixture=fixture,
        current=current,
        confirmation=ResultVersion.Confirmation.CONFIRMED,
        source=ResultVersion.Source.PLAYER,
        by=by,
    )


@_lost_race_is_a_conflict
@transaction.atomic
def result_dispute(
    *,
    fixture_id: int,
    version: int,
    reason: str,
    by: AnyUser,
    sheet: dict[str, Any] | None = None,
) -> ResultVersion:
    """A player of the team that did not enter the awaiting result disputes it, with a reason
    (the version's note) and optionally their own account of the sheet (the version's sheet;
    without one the disputed sheet is kept). The next version is disputed: it does not count,
    no window confirms it, and the venue's staff and league admins decide (result_decide).

    Raises what result_confirm raises, then (the body last) Invalid naming "reason" (missing,
    too long) or SheetInvalid for a sheet that breaks the rules. Nothing is written then.
    """
    fixture = _locked_fixture(fixture_id)
    result_answer_check(fixture=fixture, by=by)  # 403 first: whatever the version or the body
    _ensure_open(fixture)
    current = _awaiting_current(fixture=fixture, version=version)
    note = _reason_clean(reason)
    return _next_state(
        fixture=fixture,
        current=current,
        confirmation=ResultVersion.Confirmation.DISPUTED,
        source=ResultVersion.Source.PLAYER,
        by=by,
        note=note,
        sheet=sheet,
    )


@_lost_race_is_a_conflict
@transaction.atomic
def result_decide(*, fixture_id: int, version: int, choose: int, by: AnyUser) -> ResultVersion:
    """Staff of the venue or a league admin settle an awaiting or disputed result by choosing
    one of its versions (`choose`: the entered one, or the disputing team's account): the next
    version copies it, confirmed. (Entering a new sheet on the entry page decides too.)

    Raises PermissionDenied (not staff of the venue, no league admin), NotCurrentVersion
    (`version` is not the current one, or it is confirmed already), Invalid naming "choose"
    (no such version), FixtureNotOpen, Fixture.DoesNotExist.
    """
    fixture = _locked_fixture(fixture_id)
    ensure_can_enter_results(user=by, venue_id=fixture.venue_id)
    _ensure_open(fixture)
    current = fixture_current_result(fixture=fixture.pk)
    if current is None:
        raise NotFound(_("No result has been entered for this fixture yet."))
    if version != current.number or current.confirmation == ResultVersion.Confirmation.CONFIRMED:
        raise NotCurrentVersion(
            _("The result changed meanwhile (it is version %(current)s, %(state)s): look again.")
            % {"current": current.number, "state": current.get_confirmation_display().lower()},
            current=current,
        )
    chosen = (
        ResultVersion.objects.filter(fixture=fixture, number=choose).first()
        if type(choose) is int
        else None
    )
    if chosen is None:
        raise Invalid(errors={"choose": _("Choose one of this result's versions.")})
    decided = _("Decided by staff: version %(number)s stands.") % {"number": chosen.number}
    return _next_state(
        fixture=fixture,
        current=current,
        confirmation=ResultVersion.Confirmation.CONFIRMED,
        source=ResultVersion.Source.STAFF,
        by=by,
        note=decided,
        copy_of=chosen,
    )


def results_confirm_overdue(*, now: datetime.datetime | None = None) -> list[int]:
    """Confirm every awaiting result whose window has passed without an answer: for each, the
    next version, the same sheet, confirmed, source AUTO, no author, a note that says so.

    One transaction per fixture, under its lock, checked again inside it: a confirmation or a
    dispute that came first wins and this one writes nothing. Returns the fixture ids confirmed.
    """
    now = now or timezone.now()
    due = list(
        ResultVersion.objects.filter(
            is_current=True,
            confirmation=ResultVersion.Confirmation.AWAITING,
            confirm_by__lte=now,
        )
        .order_by("confirm_by", "pk")
        .values_list("fixture_id", flat=True)
    )
    return [fixture_id for fixture_id in due if _confirm_when_due(fixture_id=fixture_id, now=now)]


@transaction.atomic
def _confirm_when_due(*, fixture_id: int, now: datetime.datetime) -> ResultVersion | None:
    fixture = _locked_fixture(fixture_id)
    current = fixture_current_result(fixture=fixture.pk)
    if (
        current is None
        or current.confirmation != ResultVersion.Confirmation.AWAITING
        or current.confirm_by is None
        or current.confirm_by > now
        or fixture.status == Fixture.Status.VOID
    ):
        return None
    return _next_state(
        fixture=fixture,
        current=current,
        confirmation=ResultVersion.Confirmation.CONFIRMED,
        source=ResultVersion.Source.AUTO,
        by=None,
        note=str(AUTO_CONFIRMED_NOTE),
    )


def _ensure_open(fixture: Fixture) -> None:
    if fixture.status == Fixture.Status.VOID:
        raise FixtureNotOpen(_("This fixture is void: it takes no result."))
