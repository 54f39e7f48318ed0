"""Writes of results: a fixture's result, as append-only versions.

A result is never overwritten: every save is a new `ResultVersion` (number + 1) and the previous
current version stops being current. Two members of staff who loaded the same version and both
save are told apart by the lock on the fixture row: the first one writes the next version, the
second one finds the version changed under it and gets `ResultConflict`, with nothing lost.

Match night (docs/match-night.md): a player of either team may enter the result too; theirs is
*awaiting* until a player of the other team confirms it (or disputes it), or until the season's
confirmation window passes: scoring.results.confirmation writes those steps, each a new version
under the same lock. Walkovers and withdrawals are scoring.results.walkovers'.
"""

import datetime
import re
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.errors import Conflict, Invalid
from leagues.models import Fixture, Season
from leagues.permissions import (
    AnyUser,
    can_enter_results,
    ensure_can_enter_results,
    fixture_team_of,
)
from scoring.kinds import get_kind
from scoring.models import ResultProposal, ResultVersion
from scoring.results.appearances import ensure_appearances_allowed
from scoring.results.fixture_day import ensure_fixture_day_or_admin_override
from scoring.results.fixture_open import ensure_fixture_takes_result
from scoring.results.lineup_selectors import (
    fixture_player_ids,
    lineup_choice_check,
    lineup_record,
)
from scoring.results.selectors import (
    fixture_current_result,
    fixture_sheet_context,
    fixture_submitted_version,
    result_entering_team,
    result_version_json,
)
from scoring.results.sheets import unstorable_character, validate_sheet

NOTE_MAX_LENGTH: int = ResultVersion._meta.get_field("note").max_length  # type: ignore[assignment]  # a CharField has one
SUBMISSION_KEY_MAX_LENGTH: int = ResultVersion._meta.get_field("submission_key").max_length  # type: ignore[assignment]  # a CharField has one
# Printable ASCII without spaces: a UUID, a ULID, base64 all fit; a header carries it unchanged.
SUBMISSION_KEY_PATTERN = re.compile(rf"\A[!-~]{{1,{SUBMISSION_KEY_MAX_LENGTH}}}\Z")

# Sent inside result_submit's transaction once a version is written, with `game` and `version`:
# results sit below ratings and do not know them, so ratings listen (scoring/apps.py) and queue
# the game's recomputation for when the transaction commits.
result_recorded = Signal()

NOT_FIXTURE_PLAYER = gettext_lazy(
    "You can only enter results for fixtures at a venue you serve, or for your own team's fixtures."
)


class ResultConflict(Conflict):
    """Someone saved a newer version of the result since the form was loaded (409).

    `current` is the version saved now (None if there is none, e.g. the form claimed a version
    that does not exist); `based_on_version` is the number the caller started from. The API's
    body carries both: the current version as JSON, to start again from.
    """

    def __init__(self, *, current: ResultVersion | None, based_on_version: int | None = None):
        self.current = current
        self.based_on_version = based_on_version
        number = current.number if current is not None else 0
        super().__init__(
            _(
                "The result was saved by someone else meanwhile: you started from version "
                "%(sent)s, the saved result is now version %(number)s."
            )
            % {"sent": based_on_version, "number": number},
            extra={
                "based_on_version": [
                    _(
                        "The current version is %(number)s; you sent %(sent)s. Reload "
                        "the result and apply your change to it."
                    )
                    % {"sent": based_on_version, "number": number}
                ],
                "current_version": (
                    result_version_json(version=current, show_author=True)
                    if current is not None
                    else None
                ),
            },
        )


class ResultSettled(Conflict):
    """A player may not write over the current result: it is confirmed or disputed (only staff
    change it now), or the other team entered it (confirm or dispute it instead) (409)."""

    code = "result_settled"


def result_submit(
    *,
    fixture_id: int,
    sheet: dict[str, Any],
    based_on_version: int,
    by: AnyUser | None,
    source: str = ResultVersion.Source.STAFF,
    note: str = "",
    before_fixture_day: bool = False,
    lineup: dict[str, list[int]] | None = None,
    submission_key: str = "",
) -> ResultVersion:
    """Record a new version of a fixture's result and mark the fixture played.

    One transaction: the fixture row is locked first, then the permission, the fixture's status,
    its day and the version the caller started from (`based_on_version`, 0 when there was no
    result) are checked, the sheet is validated against the season's rules, and the version is
    written. A result is taken from the fixture's day on (local time: a match is played that
    evening); `before_fixture_day=True` lets a league admin record one earlier (a match played
    ahead of its date by agreement). A live table's result (source LIVE) is the game as it was
    played, whenever that was.

    `lineup` ({"home": [id, id], "away": [id, id]}, position order) says who played when a
    reserve stood in: each from the team's squad (its two and its registered reserves), and
    the sheet may then name only them. Without it the lineup is the players the sheet names,
    or (for a game whose sheet names none) the teams' two. The version keeps it
    (ResultVersion.lineup), the substitutes marked.

    `by` is None only for a result written by the fixture's live tables (source LIVE): the
    tables that played the game are the authority, not a person.

    `submission_key` names one submission (an entry page's form, an API client's request): a
    submission sent again with the same key (a phone that lost the answer and sends its kept
    sheet once more) writes nothing and returns the version the first one wrote, whatever its
    sheet, its version and the fixture's day now are; who may not enter the result is still
    refused. Looked up under the fixture lock; the unique constraint on (fixture, key) backs it
    up should a writer ever go around the lock. Blank: no key, every submission is new.

    Who writes it decides its confirmation: staff of the venue and league admins (and a live
    table) write a confirmed version, which counts at once; a player of either team writes an
    awaiting one (source PLAYER, confirm_by = now + the season's confirmation_hours), which
    counts once the other team confirms it or the window passes (docs/match-night.md).

    Raises:
      PermissionDenied  `by` neither serves the fixture's venue (nor is a league admin) nor
                        plays for one of its teams, or asks for `before_fixture_day` without
                        being a league admin;
      ResultSettled     `by` is a player and the current result is not theirs to change: it
                        is confirmed or disputed (staff decide), or the other team entered it
                        (they confirm or dispute it instead);
      FixtureNotOpen    the fixture is void, or postponed for a live table's result;
      BeforeFixtureDay  the fixture's day has not come, and no league admin overrode it;
      ResultConflict    the current version is not `based_on_version` (someone saved meanwhile);
      SheetInvalid      the sheet breaks the game's rules or names players not in the fixture
                        (errors map a field path to a plain message);
      Invalid           the note is too long or holds what cannot be stored (field "note"),
                        or the lineup names someone outside a team's squad, or a player
                        past the season's appearance limit for another team (field "lineup"),
                        or the submission key is not 1 to 64 printable characters without
                        spaces (field "submission_key");
      Fixture.DoesNotExist  no such fixture.
    Nothing is written when any of these is raised.
    """
    if source not in ResultVersion.Source.values:
        raise ValueError(f"source must be one of {', '.join(ResultVersion.Source.values)}")
    if submission_key != "" and not (
        isinstance(submission_key, str) and SUBMISSION_KEY_PATTERN.match(submission_key)
    ):
        raise Invalid(
            errors={
                "submission_key": _(
                    "A submission key is 1 to %(length)d printable characters without spaces."
                )
                % {"length": SUBMISSION_KEY_MAX_LENGTH}
            }
        )
    try:
        return _record_version(
            fixture_id=fixture_id,
            sheet=sheet,
            based_on_version=based_on_version,
            by=by,
            source=source,
            note=note,
            before_fixture_day=before_fixture_day,
            lineup=lineup,
            submission_key=submission_key,
        )
    except IntegrityError as exc:
        # Only reachable when a writer went around the fixture lock: the unique constraints
        # (one number per fixture, one current version) refused the second version.
        raise ResultConflict(
            current=fixture_current_result(fixture=fixture_id), based_on_version=based_on_version
        ) from exc


def _check_note(note: object) -> None:
    """Invalid (on "note") unless the note is text the database can store, within its length."""
    if not isinstance(note, str) or len(note) > NOTE_MAX_LENGTH:
        raise Invalid(
            errors={
                "note": _("A note is text of at most %(most)s characters.")
                % {"most": NOTE_MAX_LENGTH}
            }
        )
    bad = unstorable_character(note)
    if bad:
        raise Invalid(errors={"note": _("A note cannot hold %(bad)s.") % {"bad": bad}})


@transaction.atomic
def _record_version(
    *,
    fixture_id: int,
    sheet: dict[str, Any],
    based_on_version: int,
    by: AnyUser | None,
    source: str,
    note: str,
    before_fixture_day: bool,
    lineup: dict[str, list[int]] | None,
    submission_key: str,
) -> ResultVersion:
    fixture = _locked_fixture(fixture_id)
    player_team = None
    if by is not None or source != ResultVersion.Source.LIVE:
        player_team = _ensure_may_submit(by=by, fixture=fixture)
    replayed = fixture_submitted_version(fixture=fixture, submission_key=submission_key)
    if replayed is not None:
        return replayed
    ensure_fixture_takes_result(fixture=fixture, source=source)
    if source != ResultVersion.Source.LIVE:
        ensure_fixture_day_or_admin_override(fixture=fixture, by=by, override=before_fixture_day)

    current = fixture_current_result(fixture=fixture.pk)
    current_number = current.number if current is not None else 0
    if type(based_on_version) is not int or based_on_version != current_number:
        raise ResultConflict(current=current, based_on_version=based_on_version)
    if player_team is not None:
        _ensure_player_may_change(fixture=fixture, current=current, team_id=player_team)

    _check_note(note)
    season = Season.objects.select_related("league").get(pk=fixture.season_id)
    kind = get_kind(season.game)
    chosen = None if lineup is None else lineup_choice_check(fixture=fixture, chosen=lineup)
    context = fixture_sheet_context(fixture=fixture, kind=kind, sheet=sheet, lineup=chosen)
    clean = validate_sheet(game=season.game, sheet=sheet, **context)
    outcome = kind.outcome(sheet=clean, rule_options=season.rule_options)
    played = kind.sheet_lineup(clean) or chosen or fixture_player_ids(fixture=fixture)
    record = lineup_record(fixture=fixture, played=played)
    ensure_appearances_allowed(season=season, fixture=fixture, record=record)

    if current is not None:
        ResultVersion.objects.filter(pk=current.pk).update(is_current=False)
    if source == ResultVersion.Source.STAFF:
        # The entry page showed the open proposals beside the sheet: saving is staff's choice.
        _proposals_decide(fixture=fixture, by=by)
    awaiting = player_team is not None
    try:
        # A savepoint: should the constraints refuse the version, the transaction is still
        # usable to read what the other writer saved (who, with the same submission, made the
        # same two changes above).
        with transaction.atomic():
            version = ResultVersion.objects.create(
                fixture=fixture,
                number=current_number + 1,
                sheet=clean,
                home_score=outcome.home_score,
                away_score=outcome.away_score,
                winner=outcome.winner,
                lineup=record,
                is_current=True,
                source=ResultVersion.Source.PLAYER if awaiting else source,
                created_by_id=None if by is None else by.pk,
                note=note.strip(),
                submission_key=submission_key,
                confirmation=(
                    ResultVersion.Confirmation.AWAITING
                    if awaiting
                    else ResultVersion.Confirmation.CONFIRMED
                ),
                confirm_by=(
                    timezone.now() + datetime.timedelta(hours=season.confirmation_hours)
                    if awaiting
                    else None
                ),
            )
    except IntegrityError:
        # Only reachable when a writer went around the fixture lock. The same submission
        # written by the other one is a replay like any other; anything else is a conflict
        # (result_submit turns the error into ResultConflict).
        replayed = fixture_submitted_version(fixture=fixture, submission_key=submission_key)
        if replayed is not None:
            return replayed
        raise
    return fixture_played_mark(fixture=fixture, version=version, game=season.game, by=by)


def fixture_played_mark(
    *, fixture: Fixture, version: ResultVersion, game: str, by: AnyUser | None
) -> ResultVersion:
    """After a version is written (a sheet or a walkover): its fixture is played, with who made
    it so kept in the history, and the result is announced (ratings). Returns the version."""
    if fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.postponed_reason = ""
        fixture._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
        fixture.save(update_fields=["status", "postponed_reason"])
    result_recorded.send(sender=ResultVersion, game=game, version=version)
    return version


@transaction.atomic
def result_propose(
    *, fixture_id: int, sheet: dict[str, Any], based_on_version: int, source: str, note: str = ""
) -> ResultProposal:
    """Keep a result that met a newer version than the one it was begun from (result_submit
    raised ResultConflict, and no one is at a form to merge it: a live table's game) as a
    proposal that staff see on the entry page and choose from. Nothing counts until they do.

    Raises FixtureNotOpen for a void fixture (or a postponed one, for a live result) and
    SheetInvalid for a sheet that breaks the rules (nothing is written), Fixture.DoesNotExist.
    """
    fixture = _locked_fixture(fixture_id)
    ensure_fixture_takes_result(fixture=fixture, source=source)
    season = Season.objects.select_related("league").get(pk=fixture.season_id)
    context = fixture_sheet_context(fixture=fixture, kind=get_kind(season.game), sheet=sheet)
    return ResultProposal.objects.create(
        fixture=fixture,
        sheet=validate_sheet(game=season.game, sheet=sheet, **context),
        based_on_version=based_on_version,
        source=source,
        note=note[:NOTE_MAX_LENGTH],
    )


@transaction.atomic
def result_proposals_dismiss(*, fixture_id: int, by: AnyUser) -> int:
    """Staff keep the fixture's current result: its open proposals are decided, none taken.
    Returns how many were open. Raises PermissionDenied unless `by` serves the venue."""
    fixture = _locked_fixture(fixture_id)
    ensure_can_enter_results(user=by, venue_id=fixture.venue_id)
    return _proposals_decide(fixture=fixture, by=by)


def _proposals_decide(*, fixture: Fixture, by: AnyUser | None) -> int:
    return ResultProposal.objects.filter(fixture=fixture, decided_at__isnull=True).update(
        decided_at=timezone.now(), decided_by=by
    )


def _locked_fixture(fixture_id: int) -> Fixture:
    """The fixture row, locked until the transaction ends: the one lock of result_submit (and
    of scoring.results.confirmation's and scoring.results.walkovers' writes).

    Every read that the new version depends on (the current version number above all) comes
    after this, so two submissions for the same fixture run one after the other.
    """
    return Fixture.objects.select_for_update().get(pk=fixture_id)


def _ensure_may_submit(*, by: AnyUser | None, fixture: Fixture) -> int | None:
    """Staff of the venue and league admins: None (their result is confirmed at once). A player
    of either team: their team's id (their result awaits the other team). Anyone else:
    PermissionDenied."""
    if can_enter_results(user=by, venue_id=fixture.venue_id):
        return None
    team_id = fixture_team_of(user=by, fixture=fixture)
    if team_id is None:
        raise PermissionDenied(str(NOT_FIXTURE_PLAYER))
    return team_id


def _ensure_player_may_change(
    *, fixture: Fixture, current: ResultVersion | None, team_id: int
) -> None:
    """A player enters a first result, or corrects their own team's while it awaits."""
    if current is None:
        return
    if current.confirmation == ResultVersion.Confirmation.CONFIRMED:
        raise ResultSettled(
            _(
                "This result is confirmed: only staff of the venue or a league admin can "
                "correct it now."
            )
        )
    if current.confirmation == ResultVersion.Confirmation.DISPUTED:
        raise ResultSettled(
            _("This result is disputed: staff of the venue or a league admin decide it.")
        )
    if result_entering_team(fixture=fixture, version=current) != team_id:
        raise ResultSettled(
            _(
                "The other team entered this result: confirm it, or dispute it with your "
                "reason (and your own sheet if you like)."
            )
        )
