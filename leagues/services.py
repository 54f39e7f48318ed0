"""Writes for leagues' fixtures: a season's divisions (`season_divisions_ensure`); generating a
season's fixtures, a double round robin per division; a fixture's status (scheduled, postponed,
void: `fixture_status_change`, the one place its life is checked) and venue. A team's players and
reserves are leagues.squad_services'; match night's new dates and availability
leagues.schedule_services'; a user's own settings leagues.profile_services'.

Every function takes keyword arguments, runs in one transaction and locks the rows its decision
depends on before reading them. Refusals are config.errors kinds: Invalid keyed by the field
at fault, Forbidden, NotFound, or Conflict when the season or fixture is not in a state that
allows the change (the API's handler answers them; the admin puts them next to their field with
config.errors.add_refusal_to_form, or in a message). The audit trail is
django-simple-history on Fixture: each write records who (`by`) and why (the change reason).
"""

import datetime
from collections.abc import Hashable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from simple_history.utils import bulk_create_with_history

from config.errors import Conflict, Forbidden, Invalid, NotFound

from .fixture_writes import (
    aware_datetime,
    close_open_proposal,
    lock_fixture,
    move_fixture,
    save_fixture,
)
from .fixtures import double_round_robin
from .models import Division, Entry, Fixture, Season, Team, Venue
from .permissions import (
    NOT_LEAGUE_ADMIN,
    NOT_VENUE_STAFF,
    AnyUser,
    can_enter_results,
    is_league_admin,
)
from .selectors import division_matches

DEFAULT_KICKOFF_TIME = datetime.time(19, 30)
MAX_DAYS_BETWEEN_ROUNDS = 365
REASON_MAX_LENGTH: int = Fixture._meta.get_field("postponed_reason").max_length  # type: ignore[assignment]  # a CharField has one
# A void fixture's reason lives only in its history row, whose change reason holds 100.
VOID_REASON_MAX_LENGTH = 100


# Checks shared by the services and the admin form (which shows them next to the field).


def ensure_can_manage_fixtures(*, user: AnyUser | None) -> None:
    """Generating, voiding and moving fixtures is for league admins (leagues.permissions).
    `user` None means the command line. Raises Forbidden for anyone else."""
    if user is not None and not is_league_admin(user=user):
        raise Forbidden(NOT_LEAGUE_ADMIN)


def clean_reason(
    reason: str | None, *, field: str = "reason", max_length: int = REASON_MAX_LENGTH
) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise Invalid(errors={field: _("Give a reason: it is shown with the fixture's history.")})
    if len(reason) > max_length:
        raise Invalid(
            errors={
                field: ngettext(
                    "Keep the reason to %(count)d character or fewer.",
                    "Keep the reason to %(count)d characters or fewer.",
                    max_length,
                )
                % {"count": max_length}
            }
        )
    return reason


# Seasons


def season_lock(*, season_id: int) -> Season:
    """The season, read with its league and both rows locked until the transaction ends, so
    that the writes whose decision hangs on the season (a reserve's registration, a points
    adjustment, a play-off, the rollover, whose new slug must be free in the league) run one
    at a time. Raises NotFound for no such season."""
    try:
        return Season.objects.select_for_update().select_related("league").get(pk=season_id)
    except Season.DoesNotExist:
        raise NotFound(_("There is no such season.")) from None


# Divisions

# The name of the one division of a season set up without divisions (as migration 0003 named it).
DEFAULT_DIVISION_NAME = "Division 1"


@transaction.atomic
def season_divisions_ensure(*, season: Season, by: AnyUser | None = None) -> Division:
    """Make the season whole: it has at least one division (a season set up without divisions
    gets "Division 1"), and every entry is in one (an entry without a division goes to the
    top division). Returns the top division. Called wherever a season is created or its
    entries saved: the admin, the rollover, the demo, the test factories.
    """
    season = Season.objects.select_for_update().get(pk=season.pk)
    top = Division.objects.filter(season=season).order_by("level", "pk").first()
    if top is None:
        top = Division(season=season, name=DEFAULT_DIVISION_NAME, level=1)
        top._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
        top.save()
    Entry.objects.filter(season=season, division__isnull=True).update(division=top)
    return top


# Generation


def default_first_kickoff(season: Season) -> datetime.datetime:
    """The season's first day at 19:30, local time."""
    return timezone.make_aware(datetime.datetime.combine(season.starts_on, DEFAULT_KICKOFF_TIME))


@transaction.atomic
def fixtures_generate(
    *,
    season: Season,
    first_kickoff: datetime.datetime | None = None,
    days_between_rounds: int = 7,
    by: AnyUser | None = None,
) -> list[Fixture]:
    """Create a double round robin in each of the season's divisions (its league fixtures,
    stage "league", each with its division): round r kicks off at first_kickoff plus
    (r - 1) * days_between_rounds days, at the home team's venue. A division without teams
    is left empty; a season without divisions is one table.

    League fixtures that have no result yet are replaced (generating again after changing the
    entries is how a league admin redoes the calendar); cup ties and play-offs stay. Raises
    Conflict when any league fixture has a result, fewer than two teams are entered, or a
    division has a single team; Invalid for a bad kickoff or interval, Forbidden when `by` is
    not a league admin.
    """
    ensure_can_manage_fixtures(user=by)
    if isinstance(days_between_rounds, bool) or not isinstance(days_between_rounds, int):
        raise Invalid(errors={"days_between_rounds": _("Give a whole number of days.")})
    if not 1 <= days_between_rounds <= MAX_DAYS_BETWEEN_ROUNDS:
        raise Invalid(
            errors={
                "days_between_rounds": _("Give between 1 and %(most)d days.")
                % {"most": MAX_DAYS_BETWEEN_ROUNDS}
            }
        )
    season = Season.objects.select_for_update().get(pk=season.pk)
    first_kickoff = (
        default_first_kickoff(season)
        if first_kickoff is None
        else aware_datetime(first_kickoff, field="first_kickoff")
    )
    # Days are added to the local wall time, so that a 19:30 kick-off stays at 19:30 when the
    # clocks change during the season.
    first_kickoff = timezone.localtime(first_kickoff)

    # Lock the current fixtures so that a result being saved for one of them either lands
    # first (and we refuse) or waits and then finds its fixture gone.
    league_fixtures = Fixture.objects.filter(season=season, stage=Fixture.Stage.LEAGUE)
    existing = list(league_fixtures.select_for_update().order_by("pk"))
    played = league_fixtures.filter(
        Q(status=Fixture.Status.PLAYED) | Q(result_versions__isnull=False)
    )
    if played.exists():
        raise Conflict(
            errors={
                "season": _(
                    "The season already has results; its fixtures can no longer be "
                    "generated again. Reschedule or postpone single fixtures instead."
                )
            }
        )
    entries = list(
        Entry.objects.filter(season=season).select_related("team").order_by("team__name", "team_id")
    )
    if len(entries) < 2:
        raise Conflict(
            errors={
                "season": _("The season needs at least two teams entered to generate fixtures.")
            }
        )

    divisions: list[Division | None] = list(
        Division.objects.filter(season=season).order_by("level", "pk")
    ) or [None]
    tables = [
        (
            division,
            [
                entry
                for entry in entries
                if division_matches(entry.division_id, division, top=division is divisions[0])
            ],
        )
        for division in divisions
    ]
    for division, members in tables:
        if len(members) == 1:
            raise Conflict(
                errors={
                    "season": _(
                        "%(division)s has one team: put at least two teams in it, or move "
                        "that team to another division."
                    )
                    % {"division": division}
                }
            )

    for fixture in existing:
        fixture._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
        fixture._change_reason = "Replaced by generating the season's fixtures again"  # type: ignore[attr-defined]
        fixture.delete()

    fixtures = []
    for division, members in tables:
        teams: dict[Hashable, Team] = {entry.team_id: entry.team for entry in members}
        if len(teams) < 2:
            continue
        for round_ in double_round_robin(list(teams)):
            starts_at = first_kickoff + datetime.timedelta(
                days=(round_.number - 1) * days_between_rounds
            )
            for pairing in round_.pairings:
                home = teams[pairing.home]
                fixtures.append(
                    Fixture(
                        season=season,
                        division=division,
                        stage=Fixture.Stage.LEAGUE,
                        round=round_.number,
                        home_team=home,
                        away_team=teams[pairing.away],
                        venue_id=home.home_venue_id,
                        starts_at=starts_at,
                    )
                )
    created: list[Fixture] = bulk_create_with_history(
        fixtures, Fixture, default_user=by, default_change_reason="Generated"
    )
    return created


# One fixture


# A fixture's status. Played comes only with a result (scoring.results.services.result_submit, from
# scheduled or postponed); void is final (a league admin undoes a mistaken void by reverting the
# fixture to an older version in its history).
Status = Fixture.Status
FIXTURE_TRANSITIONS: dict[str, set[str]] = {
    Status.SCHEDULED: {Status.SCHEDULED, Status.POSTPONED, Status.VOID},
    Status.POSTPONED: {Status.SCHEDULED, Status.POSTPONED, Status.VOID},
    Status.PLAYED: {Status.PLAYED, Status.VOID},
    Status.VOID: set(),
}
# Who may make each change: venue staff, or league admins only.
_ADMIN_ONLY = {Status.VOID}


@dataclass(frozen=True)
class StatusChange:
    """A checked status change: what fixture_status_change writes, and why."""

    status: str
    starts_at: datetime.datetime
    reason: str  # the postponement's or the void's reason; "" for a reschedule


def fixture_statuses_open(*, fixture: Fixture, user: AnyUser) -> list[str]:
    """The statuses `user` may give the fixture now, its current one first (for a form)."""
    statuses = [fixture.status]
    for status in Status.values:
        if status == fixture.status or status not in FIXTURE_TRANSITIONS[fixture.status]:
            continue
        if status in _ADMIN_ONLY and not is_league_admin(user=user):
            continue
        statuses.append(status)
    return statuses


def fixture_status_change_check(
    *,
    fixture: Fixture,
    status: str,
    reason: str | None,
    starts_at: datetime.datetime | None,
    user: AnyUser,
) -> StatusChange:
    """The change of `fixture` to `status` (and `starts_at`, None to keep the date), checked.

    Raises Forbidden when `user` may not make it; Conflict on "status" for a change the
    fixture's life does not allow now (void, played); Invalid keyed by the field at fault for an
    unknown status, a missing or long reason, a new date with a postponement or a void. Writes
    nothing.
    """
    if status not in Status.values:
        raise Invalid(errors={"status": _("Choose scheduled, postponed or void.")})
    current = fixture.status
    if status == Status.PLAYED and current != Status.PLAYED:
        raise Invalid(errors={"status": _("A fixture becomes played when its result is entered.")})
    if status not in FIXTURE_TRANSITIONS[current]:
        raise Conflict(
            errors={
                "status": _(_REFUSED.get((current, status), gettext_noop("This cannot change.")))
            }
        )
    if status in _ADMIN_ONLY:
        ensure_can_manage_fixtures(user=user)
    elif not can_enter_results(user=user, venue_id=fixture.venue_id):
        raise Forbidden(NOT_VENUE_STAFF)
    new_date = (
        fixture.starts_at if starts_at is None else aware_datetime(starts_at, field="starts_at")
    )
    if status == Status.PLAYED:  # stays played: nothing to change but the venue
        if new_date != fixture.starts_at:
            raise Conflict(errors={"starts_at": _(_REFUSED[(Status.PLAYED, Status.SCHEDULED)])})
        return StatusChange(status, new_date, fixture.postponed_reason)
    if status == Status.POSTPONED:
        if new_date != fixture.starts_at:
            raise Invalid(
                errors={
                    "starts_at": _("Postponing keeps the date: postpone now, reschedule later.")
                }
            )
        if current == Status.POSTPONED and not (reason or "").strip():
            return StatusChange(status, new_date, fixture.postponed_reason)  # reason kept
        return StatusChange(status, new_date, clean_reason(reason))
    if status == Status.VOID:
        if new_date != fixture.starts_at:
            raise Invalid(errors={"starts_at": _("Void the fixture without moving it.")})
        return StatusChange(
            status, new_date, clean_reason(reason, max_length=VOID_REASON_MAX_LENGTH)
        )
    return StatusChange(status, new_date, "")


_REFUSED: dict[tuple[str, str], str] = {
    (Status.VOID, Status.SCHEDULED): gettext_noop(
        "This fixture is void; it cannot be rescheduled."
    ),
    (Status.VOID, Status.POSTPONED): gettext_noop("This fixture is void; it cannot be postponed."),
    (Status.VOID, Status.VOID): gettext_noop("This fixture is already void."),
    (Status.PLAYED, Status.SCHEDULED): gettext_noop(
        "This fixture has been played; it cannot be moved."
    ),
    (Status.PLAYED, Status.POSTPONED): gettext_noop(
        "This fixture has been played; it cannot be postponed."
    ),
}


@transaction.atomic
def fixture_status_change(
    *,
    fixture_id: int,
    status: str,
    reason: str | None = "",
    starts_at: datetime.datetime | None = None,
    by: AnyUser,
) -> Fixture:
    """Change a fixture's status, with the reason in its history:

    - scheduled (again): a new date (`starts_at`); a postponed fixture is back on. Venue staff.
    - postponed: needs a reason (shown with the fixture); keeps the date. Venue staff.
    - void: needs a reason of up to 100 characters (kept in the history); the fixture no longer
      counts, whatever its result. League admins only.
    Raises what fixture_status_change_check raises; nothing is written then. Saving the same
    status and date again writes nothing.
    """
    fixture = lock_fixture(fixture_id)
    change = fixture_status_change_check(
        fixture=fixture, status=status, reason=reason, starts_at=starts_at, user=by
    )
    unchanged = (fixture.status, fixture.starts_at, fixture.postponed_reason)
    if (change.status, change.starts_at, change.reason) == unchanged:
        return fixture
    close_open_proposal(fixture, by=by)  # staff's move stands: accepting it later cannot undo it
    if change.status == Status.SCHEDULED:
        return move_fixture(fixture, starts_at=change.starts_at, by=by)
    fixture.status = change.status
    if change.status == Status.POSTPONED:
        fixture.postponed_reason = change.reason
        if fixture.play_by is None:  # the first postponement sets the deadline; later ones keep it
            fixture.play_by = fixture_play_by(fixture=fixture)
        history = f"Postponed: {change.reason}"
    else:
        history = change.reason
    return save_fixture(
        fixture, by=by, reason=history, fields=["status", "postponed_reason", "play_by"]
    )


def fixture_play_by(*, fixture: Fixture) -> datetime.date:
    """The last day a postponed fixture may be played: its date (local) plus the season's
    postponed_within_days."""
    days = Season.objects.values_list("postponed_within_days", flat=True).get(pk=fixture.season_id)
    return timezone.localdate(fixture.starts_at) + datetime.timedelta(days=days)


@transaction.atomic
def fixture_relocate(*, fixture_id: int, venue_id: int, by: AnyUser) -> Fixture:
    """Move a fixture to another venue (a pub closed, a neutral venue). League admins only.

    Staff of the new venue then enter its result. Raises Forbidden for anyone but a league
    admin, NotFound for an unknown fixture and Invalid (on "venue") for an unknown venue.
    """
    fixture = lock_fixture(fixture_id)
    ensure_can_manage_fixtures(user=by)
    venue = Venue.objects.filter(pk=venue_id).first()
    if venue is None:
        raise Invalid(errors={"venue": _("There is no such venue.")})
    if fixture.venue_id == venue.pk:
        return fixture
    before = fixture.venue.name
    fixture.venue = venue
    return save_fixture(
        fixture, by=by, reason=f"Moved from {before} to {venue.name}", fields=["venue"]
    )
