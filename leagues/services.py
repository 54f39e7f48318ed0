"""Writes for leagues: generating a season's fixtures; rescheduling, postponing, voiding and
relocating one fixture; setting a team's two players.

Every function takes keyword arguments, runs in one transaction and locks the rows its decision
depends on before reading them. Refusals are Django ValidationErrors keyed by the field at
fault (config/api_errors.py turns them into 400s) or PermissionDenied. The audit trail is
django-simple-history on Fixture: each write records who (`by`) and why (the change reason).
"""

import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from .fixtures import double_round_robin
from .models import Entry, Fixture, Player, Season, Team, TeamMember, Venue
from .permissions import ensure_can_enter_results

DEFAULT_KICKOFF_TIME = datetime.time(19, 30)
MAX_DAYS_BETWEEN_ROUNDS = 365
REASON_MAX_LENGTH = Fixture._meta.get_field("postponed_reason").max_length
# A void fixture's reason lives only in its history row, whose change reason holds 100.
VOID_REASON_MAX_LENGTH = 100
CHANGE_REASON_MAX_LENGTH = 100


# Checks shared by the services and the admin form (which shows them next to the field).


def ensure_can_manage_fixtures(*, user) -> None:
    """Generating and voiding fixtures is for league admins: superusers, or users holding
    both the add and delete fixture permissions. `user` None means the command line."""
    if user is None:
        return
    if not user.is_authenticated or not user.is_active:
        raise PermissionDenied("Only league admins can do this.")
    if user.is_superuser or user.has_perms(["leagues.add_fixture", "leagues.delete_fixture"]):
        return
    raise PermissionDenied("Only league admins can do this.")


def clean_reason(
    reason: str | None, *, field: str = "reason", max_length: int = REASON_MAX_LENGTH
) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise ValidationError({field: "Give a reason: it is shown with the fixture's history."})
    if len(reason) > max_length:
        raise ValidationError({field: f"Keep the reason to {max_length} characters or fewer."})
    return reason


def ensure_fixture_can_be_rescheduled(fixture: Fixture) -> None:
    if fixture.status == Fixture.Status.VOID:
        raise ValidationError({"status": "This fixture is void; it cannot be rescheduled."})
    if fixture.status == Fixture.Status.PLAYED:
        raise ValidationError({"status": "This fixture has been played; it cannot be moved."})


def ensure_fixture_can_be_postponed(fixture: Fixture) -> None:
    if fixture.status == Fixture.Status.VOID:
        raise ValidationError({"status": "This fixture is void; it cannot be postponed."})
    if fixture.status == Fixture.Status.PLAYED:
        raise ValidationError({"status": "This fixture has been played; it cannot be postponed."})


def ensure_fixture_can_be_voided(fixture: Fixture) -> None:
    if fixture.status == Fixture.Status.VOID:
        raise ValidationError({"status": "This fixture is already void."})


def _aware(value: datetime.datetime, *, field: str) -> datetime.datetime:
    if not isinstance(value, datetime.datetime):
        raise ValidationError({field: "Give a date and a time."})
    if timezone.is_naive(value):
        return timezone.make_aware(value)
    return value


def _lock_fixture(fixture_id: int) -> Fixture:
    try:
        return Fixture.objects.select_for_update().get(pk=fixture_id)
    except Fixture.DoesNotExist:
        raise ValidationError({"fixture_id": "There is no such fixture."})


def _save(fixture: Fixture, *, by, reason: str, fields: list[str]) -> Fixture:
    fixture._history_user = by
    if len(reason) > CHANGE_REASON_MAX_LENGTH:  # simple-history's column holds 100
        reason = reason[: CHANGE_REASON_MAX_LENGTH - 1] + "…"
    fixture._change_reason = reason
    fixture.save(update_fields=fields)
    return fixture


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
    by=None,
) -> list[Fixture]:
    """Create the season's double round robin: round r kicks off at first_kickoff plus
    (r - 1) * days_between_rounds days, at the home team's venue.

    Fixtures that have no result yet are replaced (generating again after changing the
    entries is how a league admin redoes the calendar). Raises ValidationError when any of the
    season's fixtures has a result, when fewer than two teams are entered, or for a bad
    kickoff or interval; PermissionDenied when `by` is not a league admin.
    """
    ensure_can_manage_fixtures(user=by)
    if isinstance(days_between_rounds, bool) or not isinstance(days_between_rounds, int):
        raise ValidationError({"days_between_rounds": "Give a whole number of days."})
    if not 1 <= days_between_rounds <= MAX_DAYS_BETWEEN_ROUNDS:
        raise ValidationError(
            {"days_between_rounds": f"Give between 1 and {MAX_DAYS_BETWEEN_ROUNDS} days."}
        )
    season = Season.objects.select_for_update().get(pk=season.pk)
    first_kickoff = (
        default_first_kickoff(season)
        if first_kickoff is None
        else _aware(first_kickoff, field="first_kickoff")
    )
    # Days are added to the local wall time, so that a 19:30 kick-off stays at 19:30 when the
    # clocks change during the season.
    first_kickoff = timezone.localtime(first_kickoff)

    # Lock the current fixtures so that a result being saved for one of them either lands
    # first (and we refuse) or waits and then finds its fixture gone.
    existing = list(Fixture.objects.select_for_update().filter(season=season).order_by("pk"))
    played = Fixture.objects.filter(
        Q(status=Fixture.Status.PLAYED) | Q(result_versions__isnull=False), season=season
    )
    if played.exists():
        raise ValidationError(
            {
                "season": f"{season} already has results; its fixtures can no longer be "
                "generated again. Reschedule or postpone single fixtures instead."
            }
        )
    entries = list(
        Entry.objects.filter(season=season).select_related("team").order_by("team__name", "team_id")
    )
    if len(entries) < 2:
        raise ValidationError(
            {"season": f"{season} needs at least two teams entered to generate fixtures."}
        )

    for fixture in existing:
        fixture._history_user = by
        fixture._change_reason = "Replaced by generating the season's fixtures again"
        fixture.delete()

    teams = {entry.team_id: entry.team for entry in entries}
    fixtures = []
    for round_ in double_round_robin(list(teams)):
        starts_at = first_kickoff + datetime.timedelta(
            days=(round_.number - 1) * days_between_rounds
        )
        for pairing in round_.pairings:
            home = teams[pairing.home]
            fixtures.append(
                Fixture(
                    season=season,
                    round=round_.number,
                    home_team=home,
                    away_team=teams[pairing.away],
                    venue_id=home.home_venue_id,
                    starts_at=starts_at,
                )
            )
    return bulk_create_with_history(
        fixtures, Fixture, default_user=by, default_change_reason="Generated"
    )


# One fixture


@transaction.atomic
def fixture_reschedule(*, fixture_id: int, starts_at: datetime.datetime, by) -> Fixture:
    """Move a fixture to `starts_at`; a postponed fixture is back on (scheduled).

    Raises PermissionDenied unless `by` serves the fixture's venue (or is a superuser), and
    ValidationError for a void or played fixture.
    """
    fixture = _lock_fixture(fixture_id)
    ensure_can_enter_results(user=by, venue_id=fixture.venue_id)
    ensure_fixture_can_be_rescheduled(fixture)
    starts_at = _aware(starts_at, field="starts_at")
    if fixture.starts_at == starts_at and fixture.status == Fixture.Status.SCHEDULED:
        return fixture
    before = timezone.localtime(fixture.starts_at)
    was_postponed = fixture.status == Fixture.Status.POSTPONED
    fixture.starts_at = starts_at
    fixture.status = Fixture.Status.SCHEDULED
    fixture.postponed_reason = ""
    after = timezone.localtime(starts_at)
    reason = f"{'Rearranged' if was_postponed else 'Rescheduled'} from {before:%d %b %Y %H:%M}"
    return _save(
        fixture,
        by=by,
        reason=f"{reason} to {after:%d %b %Y %H:%M}",
        fields=["starts_at", "status", "postponed_reason"],
    )


@transaction.atomic
def fixture_postpone(*, fixture_id: int, reason: str, by) -> Fixture:
    """Postpone a fixture (it keeps its date until it is rescheduled).

    Raises ValidationError without a reason or for a void or played fixture, and
    PermissionDenied unless `by` serves the fixture's venue (or is a superuser).
    """
    fixture = _lock_fixture(fixture_id)
    ensure_can_enter_results(user=by, venue_id=fixture.venue_id)
    reason = clean_reason(reason)
    ensure_fixture_can_be_postponed(fixture)
    fixture.status = Fixture.Status.POSTPONED
    fixture.postponed_reason = reason
    return _save(
        fixture, by=by, reason=f"Postponed: {reason}", fields=["status", "postponed_reason"]
    )


@transaction.atomic
def fixture_relocate(*, fixture_id: int, venue_id: int, by) -> Fixture:
    """Move a fixture to another venue (a pub closed, a neutral venue). League admins only.

    Staff of the new venue then enter its result. Raises PermissionDenied for anyone but a
    league admin and ValidationError for an unknown venue.
    """
    fixture = _lock_fixture(fixture_id)
    ensure_can_manage_fixtures(user=by)
    venue = Venue.objects.filter(pk=venue_id).first()
    if venue is None:
        raise ValidationError({"venue": "There is no such venue."})
    if fixture.venue_id == venue.pk:
        return fixture
    before = fixture.venue.name
    fixture.venue = venue
    return _save(fixture, by=by, reason=f"Moved from {before} to {venue.name}", fields=["venue"])


@transaction.atomic
def fixture_void(*, fixture_id: int, reason: str, by) -> Fixture:
    """Void a fixture: it no longer counts, whatever its result. League admins only.

    The reason (up to 100 characters) is the history row's change reason. Raises ValidationError without a reason or
    when the fixture is already void, and PermissionDenied for anyone but a league admin.
    """
    fixture = _lock_fixture(fixture_id)
    ensure_can_manage_fixtures(user=by)
    reason = clean_reason(reason, max_length=VOID_REASON_MAX_LENGTH)
    ensure_fixture_can_be_voided(fixture)
    fixture.status = Fixture.Status.VOID
    return _save(fixture, by=by, reason=reason, fields=["status"])


# Teams


@transaction.atomic
def team_players_set(*, team: Team, players: list[Player]) -> list[TeamMember]:
    """Make `players` the team's two players, in order (positions 1 and 2).

    Replacing both rows at once lets an admin swap positions 1 and 2, which row-by-row updates
    cannot do under the one-player-per-position constraint. Raises ValidationError unless
    exactly two different players are given.
    """
    players = list(players)
    if len(players) != 2:
        raise ValidationError({"players": "A team has exactly two players."})
    if players[0].pk == players[1].pk:
        raise ValidationError({"players": "A team's two players must be different people."})
    team = Team.objects.select_for_update().get(pk=team.pk)
    current = list(team.members.order_by("position").values_list("player_id", flat=True))
    if current == [player.pk for player in players]:
        return list(team.members.order_by("position"))
    team.members.all().delete()
    return TeamMember.objects.bulk_create(
        TeamMember(team=team, player=player, position=position)
        for position, player in enumerate(players, start=1)
    )
