"""Writes of results: a fixture's result, as append-only versions.

A result is never overwritten: every save is a new `ResultVersion` (number + 1) and the previous
current version stops being current. Two members of staff who loaded the same version and both
save are told apart by the lock on the fixture row: the first one writes the next version, the
second one finds the version changed under it and gets `ResultConflict`, with nothing lost.

Match night (docs/match-night.md): a player of either team may enter the result too; theirs is
*awaiting* until a player of the other team confirms it (or disputes it), or until the season's
confirmation window passes (results_confirm_overdue, run by Celery beat). Every such step is a
new version with the same sheet and the new confirmation state, written under the same lock.
"""

import datetime
import functools
import re
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from config.errors import Conflict, Forbidden, Invalid, NotFound
from leagues.models import (
    Eligibility,
    Entry,
    Fixture,
    Player,
    Season,
    Team,
    TeamMember,
    WithdrawalRule,
)
from leagues.permissions import (
    NOT_LEAGUE_ADMIN,
    AnyUser,
    can_enter_results,
    ensure_can_enter_results,
    fixture_team_of,
    is_league_admin,
    staff_grants,
)
from scoring.kinds import get_kind
from scoring.models import ResultProposal, ResultVersion
from scoring.results.fixture_open import FixtureNotOpen as FixtureNotOpen  # re-exported
from scoring.results.fixture_open import ensure_fixture_takes_result
from scoring.results.lineup_selectors import (
    fixture_player_ids,
    lineup_choice_check,
    lineup_record,
)
from scoring.results.selectors import (
    fixture_current_result,
    fixture_day_to_come,
    fixture_sheet_context,
    fixture_submitted_version,
    result_answered_team,
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


class NotCurrentVersion(Conflict):
    """A confirmation or a dispute named a version that is not the current one, or one that no
    longer awaits an answer (409). The body carries `version`: the current version's number."""

    code = "not_current_version"

    def __init__(self, detail: str, *, current: ResultVersion | None):
        self.current = current
        super().__init__(detail, extra={"version": current.number if current else 0})


class BeforeFixtureDay(Conflict):
    """The fixture's day has not come: a result for it is refused (a league admin may override).

    `fixture_day` is the local date the fixture is played on; `waiting` says what waits for it;
    `override` (a sentence) tells a client how to go ahead anyway, where one may.
    """

    code = "before_fixture_day"

    def __init__(
        self,
        *,
        fixture_day: datetime.date,
        waiting: str = "its result can be entered",
        override: str | None = None,
    ):
        self.fixture_day = fixture_day
        extra: dict[str, object] = {"fixture_day": fixture_day.isoformat()}
        if override is not None:
            extra["before_fixture_day"] = [override]
        day = dateformat.format(fixture_day, pgettext("date format", "D j M Y"))
        if waiting == "its tables open":
            sentence = _("This fixture is on %(day)s: its tables open on that day only.")
        elif waiting == "its result can be entered":
            sentence = _("This fixture is on %(day)s: its result can be entered from that day on.")
        else:
            sentence = _("This fixture is on %(day)s: %(waiting)s from that day on.")
        super().__init__(sentence % {"day": day, "waiting": waiting}, extra=extra)


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
        _ensure_fixture_day_has_come(fixture=fixture, by=by, override=before_fixture_day)

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
    _ensure_appearances_allowed(season=season, fixture=fixture, record=record)

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
    if fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.postponed_reason = ""
        fixture._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
        fixture.save(update_fields=["status", "postponed_reason"])
    result_recorded.send(sender=ResultVersion, game=season.game, version=version)
    return version


def ensure_fixture_day_has_come(
    *, fixture: Fixture, waiting: str = "its result can be entered"
) -> None:
    """Raise BeforeFixtureDay while the fixture's (local) day has not come: the one rule for
    what waits for that day, a person's result and the fixture's live tables alike."""
    fixture_day = fixture_day_to_come(fixture=fixture)
    if fixture_day is not None:
        raise BeforeFixtureDay(fixture_day=fixture_day, waiting=waiting)


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


def _ensure_fixture_day_has_come(*, fixture: Fixture, by: AnyUser | None, override: bool) -> None:
    """A person's result waits for the fixture's day; a live table's is the game as played."""
    try:
        ensure_fixture_day_has_come(fixture=fixture)
    except BeforeFixtureDay as early:
        if not override:
            raise BeforeFixtureDay(
                fixture_day=early.fixture_day,
                override=_("A league admin may record it earlier with before_fixture_day: true."),
            ) from None
        if not is_league_admin(user=by):
            raise PermissionDenied(
                _("Only a league admin may record a result before the fixture's day.")
            ) from None


def _locked_fixture(fixture_id: int) -> Fixture:
    """The fixture row, locked until the transaction ends: the one lock of result_submit.

    Every read that the new version depends on (the current version number above all) comes
    after this, so two submissions for the same fixture run one after the other.
    """
    return Fixture.objects.select_for_update().get(pk=fixture_id)


def _ensure_appearances_allowed(
    *, season: Season, fixture: Fixture, record: dict[str, list[int]]
) -> None:
    """Under the season's "limited" eligibility, a substitute who is one of another team's two
    players may play for a team not theirs only Season.appearance_limit times (this fixture's
    own versions aside). Raises Invalid on "lineup"."""
    if season.eligibility != Eligibility.LIMITED or not record["substitutes"]:
        return
    own_team = dict(
        TeamMember.objects.filter(
            player_id__in=record["substitutes"], team__entries__season_id=season.pk
        ).values_list("player_id", "team_id")
    )
    teams = {"home": fixture.home_team_id, "away": fixture.away_team_id}
    elsewhere = {
        pk
        for side in ("home", "away")
        for pk in record[side]
        if pk in own_team and own_team[pk] != teams[side]
    }
    if not elsewhere:
        return
    appearances = dict.fromkeys(elsewhere, 0)
    for lineup, home_id, away_id in (
        ResultVersion.objects.counted()
        .filter(fixture__season_id=season.pk)
        .exclude(fixture_id=fixture.pk)
        .values_list("lineup", "fixture__home_team_id", "fixture__away_team_id")
    ):
        for side, team_id in (("home", home_id), ("away", away_id)):
            for pk in (lineup or {}).get(side, []):
                if pk in appearances and own_team[pk] != team_id:
                    appearances[pk] += 1
    for pk, count in appearances.items():
        if count >= season.appearance_limit:
            name = Player.objects.get(pk=pk).name
            raise Invalid(
                errors={
                    "lineup": _(
                        "%(name)s has played %(count)s times for a team not their own this "
                        "season: %(season)s allows %(limit)s."
                    )
                    % {
                        "name": name,
                        "count": count,
                        "season": season,
                        "limit": season.appearance_limit,
                    }
                }
            )


# --- walkovers and withdrawals -------------------------------------------------------------


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
    _ensure_fixture_day_has_come(fixture=fixture, by=by, override=False)
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
    if fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.postponed_reason = ""
        fixture._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
        fixture.save(update_fields=["status", "postponed_reason"])
    result_recorded.send(sender=ResultVersion, game=season.game, version=version)
    return version


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


# ---- Match night: players enter, the other team confirms or disputes, staff decide ------------

NOT_FIXTURE_PLAYER = gettext_lazy(
    "You can only enter results for fixtures at a venue you serve, or for your own team's fixtures."
)
AUTO_CONFIRMED_NOTE = gettext_lazy(
    "Confirmed automatically when the window passed without a dispute."
)


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
