"""Writes for leagues: a season's divisions (`season_divisions_ensure`); generating a season's
fixtures, a double round robin per division; a fixture's status (scheduled, postponed,
void: `fixture_status_change`, the one place its life is checked) and venue; a team's two
players and its registered reserves; match night's new dates agreed between the teams
(`reschedule_*`), players' availability and their notice settings (docs/match-night.md).

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

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from simple_history.utils import bulk_create_with_history

from config.errors import Conflict, Forbidden, Invalid, NotFound

from .eligibility import team_players_ensure_eligible
from .fixtures import double_round_robin
from .models import (
    Availability,
    Division,
    Eligibility,
    Entry,
    Fixture,
    Player,
    Profile,
    RescheduleProposal,
    Reserve,
    Season,
    Team,
    TeamMember,
    Venue,
)
from .permissions import (
    NOT_FIXTURE_PLAYER,
    NOT_FIXTURE_SQUAD,
    NOT_LEAGUE_ADMIN,
    NOT_VENUE_STAFF,
    AnyUser,
    can_enter_results,
    fixture_squad_player,
    fixture_team_of,
    is_league_admin,
)
from .selectors import division_matches, team_player_ids

DEFAULT_KICKOFF_TIME = datetime.time(19, 30)
MAX_DAYS_BETWEEN_ROUNDS = 365
REASON_MAX_LENGTH: int = Fixture._meta.get_field("postponed_reason").max_length  # type: ignore[assignment]  # a CharField has one
# A void fixture's reason lives only in its history row, whose change reason holds 100.
VOID_REASON_MAX_LENGTH = 100
CHANGE_REASON_MAX_LENGTH = 100


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


def _aware(value: datetime.datetime, *, field: str) -> datetime.datetime:
    if not isinstance(value, datetime.datetime):
        raise Invalid(errors={field: _("Give a date and a time.")})
    if timezone.is_naive(value):
        return timezone.make_aware(value)
    return value


def _lock_fixture(fixture_id: int) -> Fixture:
    try:
        return Fixture.objects.select_for_update().get(pk=fixture_id)
    except Fixture.DoesNotExist:
        raise NotFound(_("There is no such fixture.")) from None


def _save(fixture: Fixture, *, by: AnyUser | None, reason: str, fields: list[str]) -> Fixture:
    fixture._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    if len(reason) > CHANGE_REASON_MAX_LENGTH:  # simple-history's column holds 100
        reason = reason[: CHANGE_REASON_MAX_LENGTH - 1] + "…"
    fixture._change_reason = reason  # type: ignore[attr-defined]
    fixture.save(update_fields=fields)
    return fixture


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
        else _aware(first_kickoff, field="first_kickoff")
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
    new_date = fixture.starts_at if starts_at is None else _aware(starts_at, field="starts_at")
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
    fixture = _lock_fixture(fixture_id)
    change = fixture_status_change_check(
        fixture=fixture, status=status, reason=reason, starts_at=starts_at, user=by
    )
    unchanged = (fixture.status, fixture.starts_at, fixture.postponed_reason)
    if (change.status, change.starts_at, change.reason) == unchanged:
        return fixture
    _open_proposal_close(fixture, by=by)  # staff's move stands: accepting it later cannot undo it
    if change.status == Status.SCHEDULED:
        return _reschedule(fixture, starts_at=change.starts_at, by=by)
    fixture.status = change.status
    if change.status == Status.POSTPONED:
        fixture.postponed_reason = change.reason
        if fixture.play_by is None:  # the first postponement sets the deadline; later ones keep it
            fixture.play_by = fixture_play_by(fixture=fixture)
        history = f"Postponed: {change.reason}"
    else:
        history = change.reason
    return _save(fixture, by=by, reason=history, fields=["status", "postponed_reason", "play_by"])


def fixture_play_by(*, fixture: Fixture) -> datetime.date:
    """The last day a postponed fixture may be played: its date (local) plus the season's
    postponed_within_days."""
    days = Season.objects.values_list("postponed_within_days", flat=True).get(pk=fixture.season_id)
    return timezone.localdate(fixture.starts_at) + datetime.timedelta(days=days)


def _reschedule(fixture: Fixture, *, starts_at: datetime.datetime, by: AnyUser) -> Fixture:
    before = timezone.localtime(fixture.starts_at)
    was_postponed = fixture.status == Status.POSTPONED
    fixture.starts_at = starts_at
    fixture.status = Status.SCHEDULED
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
def fixture_relocate(*, fixture_id: int, venue_id: int, by: AnyUser) -> Fixture:
    """Move a fixture to another venue (a pub closed, a neutral venue). League admins only.

    Staff of the new venue then enter its result. Raises Forbidden for anyone but a league
    admin, NotFound for an unknown fixture and Invalid (on "venue") for an unknown venue.
    """
    fixture = _lock_fixture(fixture_id)
    ensure_can_manage_fixtures(user=by)
    venue = Venue.objects.filter(pk=venue_id).first()
    if venue is None:
        raise Invalid(errors={"venue": _("There is no such venue.")})
    if fixture.venue_id == venue.pk:
        return fixture
    before = fixture.venue.name
    fixture.venue = venue
    return _save(fixture, by=by, reason=f"Moved from {before} to {venue.name}", fields=["venue"])


# Teams


@transaction.atomic
def team_players_set(*, team: Team, players: list[Player]) -> list[TeamMember]:
    """Make `players` the team's two players, in order (positions 1 and 2).

    Replacing both rows at once lets an admin swap positions 1 and 2, which row-by-row updates
    cannot do under the one-player-per-position constraint. Raises Invalid (on "players")
    unless exactly two different players are given, or when a new one already plays for
    another team of a season the team is entered in and still playing, as that season's
    eligibility rule says (leagues.eligibility; the seasons' rows are locked first).
    """
    players = list(players)
    if len(players) != 2:
        raise Invalid(errors={"players": _("A team has exactly two players.")})
    if players[0].pk == players[1].pk:
        raise Invalid(errors={"players": _("A team's two players must be different people.")})
    team = Team.objects.select_for_update().get(pk=team.pk)
    current = team_player_ids(team_ids=[team.pk])[team.pk]
    if current == [player.pk for player in players]:
        return list(team.members.order_by("position"))
    joining = [player.pk for player in players if player.pk not in current]
    team_players_ensure_eligible(team=team, player_ids=joining)
    team.members.all().delete()
    return TeamMember.objects.bulk_create(
        TeamMember(team=team, player=player, position=position)
        for position, player in enumerate(players, start=1)
    )


# Squads


def reserve_register_check(*, entry: Entry, player: Player) -> None:
    """Raise Invalid (on "player") unless `player` may be registered as a reserve of `entry`:
    the season's limit of reserves, not one of the team's two already nor its reserve, and
    the season's eligibility rule (docs/seasons-walkovers-squads.md):

    - one_team: nobody plays for two teams of a season, as a player or a reserve;
    - one_per_div: nobody plays for two teams of the same division;
    - limited: a player of another team may be registered; their appearances for this team
      are limited when a result is saved (Season.appearance_limit).

    The admin asks it to put the refusal next to the field; reserve_register asks it again
    under its locks.
    """
    season = entry.season
    team = entry.team
    if TeamMember.objects.filter(team_id=team.pk, player_id=player.pk).exists():
        raise Invalid(
            errors={
                "player": _("%(player)s is one of %(team)s's two players already, not a reserve.")
                % {"player": player, "team": team}
            }
        )
    if Reserve.objects.filter(entry_id=entry.pk, player_id=player.pk).exists():
        raise Invalid(
            errors={
                "player": _("%(player)s is already a reserve of %(team)s.")
                % {"player": player, "team": team}
            }
        )
    registered = Reserve.objects.filter(entry_id=entry.pk).count()
    if registered >= season.reserves_allowed:
        raise Invalid(
            errors={
                "player": ngettext(
                    "%(team)s has %(registered)s reserve already: %(season)s allows %(allowed)s "
                    "a team.",
                    "%(team)s has %(registered)s reserves already: %(season)s allows %(allowed)s "
                    "a team.",
                    registered,
                )
                % {
                    "team": team,
                    "registered": registered,
                    "season": season,
                    "allowed": season.reserves_allowed,
                }
            }
        )
    if season.eligibility == Eligibility.LIMITED:
        return
    others = Entry.objects.filter(season_id=season.pk).exclude(pk=entry.pk)
    if season.eligibility == Eligibility.ONE_PER_DIVISION:
        others = (
            others.filter(division__isnull=True)
            if entry.division_id is None
            else others.filter(division_id=entry.division_id)
        )
    other = (
        others.filter(Q(team__members__player_id=player.pk) | Q(reserves__player_id=player.pk))
        .select_related("team")
        .first()
    )
    if other is not None:
        if season.eligibility == Eligibility.ONE_PER_DIVISION:
            message = _(
                "%(player)s already plays for %(team)s in this division: a player plays for "
                "one team in each division."
            )
        else:
            message = _(
                "%(player)s already plays for %(team)s this season: a player plays for one "
                "team a season."
            )
        raise Invalid(errors={"player": message % {"player": player, "team": other.team}})


def _lock_season(season_id: int) -> Season:
    """The season row, locked until the transaction ends: one registration at a time."""
    return Season.objects.select_for_update().get(pk=season_id)


@transaction.atomic
def reserve_register(*, entry_id: int, player_id: int, by: AnyUser | None) -> Reserve:
    """Register `player_id` as a reserve of the team's entry in its season.

    The season row is locked first: two registrations of one player for two teams run one
    after the other, so the eligibility rule holds. Raises Forbidden unless `by` is a league
    admin (None: the command line), NotFound for no such entry or player, and Invalid (on
    "player") as reserve_register_check says; nothing is written then.
    """
    ensure_can_manage_fixtures(user=by)
    try:
        entry = Entry.objects.select_related("team").get(pk=entry_id)
        player = Player.objects.get(pk=player_id)
    except (Entry.DoesNotExist, Player.DoesNotExist):
        raise NotFound(_("There is no such entry or player.")) from None
    entry.season = _lock_season(entry.season_id)
    reserve_register_check(entry=entry, player=player)
    reserve = Reserve(entry=entry, player=player)
    reserve._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    reserve.save()
    return reserve


# Match night: a new date agreed between the two teams (docs/match-night.md). The proposal and
# its fixture are locked together, fixture first (as every fixture write does), so that two
# answers to one proposal, or an answer and a staff move, take effect one after the other.

Proposal = RescheduleProposal.Status
MESSAGE_MAX_LENGTH: int = RescheduleProposal._meta.get_field("message").max_length  # type: ignore[assignment]  # a CharField has one
_CLOSED: dict[str, str] = {
    Status.PLAYED: gettext_noop("This fixture has been played; it cannot be moved."),
    Status.VOID: gettext_noop("This fixture is void; it cannot be moved."),
}


def _ensure_can_move(fixture: Fixture) -> None:
    if fixture.status in _CLOSED:
        raise Conflict(_(_CLOSED[fixture.status]))


def _locked_proposal(proposal_id: int) -> tuple[RescheduleProposal, Fixture]:
    """The proposal and its fixture, both locked (the fixture first)."""
    fixture_id = (
        RescheduleProposal.objects.filter(pk=proposal_id)
        .values_list("fixture_id", flat=True)
        .first()
    )
    if fixture_id is None:
        raise NotFound(_("There is no such proposal."))
    fixture = _lock_fixture(fixture_id)
    return RescheduleProposal.objects.select_for_update().get(pk=proposal_id), fixture


def _ensure_other_team(proposal: RescheduleProposal, fixture: Fixture, by: AnyUser) -> None:
    team_id = fixture_team_of(user=by, fixture=fixture)
    if team_id is None:
        raise Forbidden(_(NOT_FIXTURE_PLAYER))
    if team_id == proposal.team_id:
        raise Forbidden(_("Your team proposed this date: the other team answers it."))


# A whole sentence for each answer, so that a translation need not inflect the status.
_DECIDED: dict[str, str] = {
    Proposal.ACCEPTED: gettext_noop("This proposal has already been accepted."),
    Proposal.DECLINED: gettext_noop("This proposal has already been declined."),
    Proposal.WITHDRAWN: gettext_noop("This proposal has already been withdrawn."),
}


def _ensure_undecided(proposal: RescheduleProposal) -> None:
    if proposal.status == Proposal.WITHDRAWN and proposal.decided_by_id != proposal.proposed_by_id:
        raise Conflict(
            _(
                "This proposal was closed when staff or a league admin moved, postponed or "
                "voided the fixture: propose a new date if one is still needed."
            )
        )
    if proposal.status != Proposal.PROPOSED:
        raise Conflict(_(_DECIDED.get(proposal.status, _DECIDED[Proposal.WITHDRAWN])))


def _open_proposal_close(fixture: Fixture, *, by: AnyUser) -> None:
    """Staff or an admin moved, postponed or voided the fixture: its open proposal, if any, is
    withdrawn (by them, which tells it from the proposer's own withdrawal). Under the fixture's
    lock, as the answers to a proposal are."""
    for proposal in RescheduleProposal.objects.select_for_update().filter(
        fixture=fixture, status=Proposal.PROPOSED
    ):
        proposal._change_reason = "Closed: the fixture was moved by staff"  # type: ignore[attr-defined]
        _decide(proposal, status=Proposal.WITHDRAWN, by=by)


def _decide(proposal: RescheduleProposal, *, status: str, by: AnyUser) -> RescheduleProposal:
    proposal.status = status
    proposal.decided_by = by  # type: ignore[assignment]  # a user of AUTH_USER_MODEL
    proposal.decided_at = timezone.now()
    proposal._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    proposal.save(update_fields=["status", "decided_by", "decided_at"])
    return proposal


@transaction.atomic
def reschedule_propose(
    *, fixture_id: int, starts_at: datetime.datetime, message: str = "", by: AnyUser
) -> RescheduleProposal:
    """A player of either team proposes a new date for the fixture, with a message.

    Raises Forbidden for anyone else (staff move fixtures directly: fixture_status_change),
    NotFound for an unknown fixture, Conflict when it is played or void or a proposal is
    already open, Invalid on "starts_at" for a date not in the future or the fixture's own,
    on "message" for a message over 500 characters.
    """
    fixture = _lock_fixture(fixture_id)
    team_id = fixture_team_of(user=by, fixture=fixture)
    if team_id is None:
        raise Forbidden(_(NOT_FIXTURE_PLAYER))
    _ensure_can_move(fixture)
    if RescheduleProposal.objects.filter(fixture=fixture, status=Proposal.PROPOSED).exists():
        raise Conflict(
            _("A new date is already proposed for this fixture: it waits for its answer first.")
        )
    starts_at = _aware(starts_at, field="starts_at")
    if starts_at <= timezone.now():
        raise Invalid(errors={"starts_at": _("Propose a date and time that is still to come.")})
    if starts_at == fixture.starts_at and fixture.status == Status.SCHEDULED:
        raise Invalid(errors={"starts_at": _("The fixture is on that date already.")})
    message = " ".join((message or "").split())
    if len(message) > MESSAGE_MAX_LENGTH:
        raise Invalid(
            errors={
                "message": _("Keep the message to %(count)d characters or fewer.")
                % {"count": MESSAGE_MAX_LENGTH}
            }
        )
    proposal = RescheduleProposal(
        fixture=fixture,
        team_id=team_id,
        proposed_by=by,  # type: ignore[misc]  # a user of AUTH_USER_MODEL (a player: logged in)
        starts_at=starts_at,
        message=message,
    )
    proposal._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    proposal.save()
    return proposal


@transaction.atomic
def reschedule_accept(*, proposal_id: int, by: AnyUser) -> RescheduleProposal:
    """A player of the other team accepts: the fixture moves to the proposed date (and is
    scheduled again if it was postponed), with who and why in its history.

    Raises NotFound for an unknown proposal, Forbidden for anyone but a player of the other
    team, Conflict when the proposal is already decided, the fixture is played or void, or the
    proposed date has passed.
    """
    proposal, fixture = _locked_proposal(proposal_id)
    _ensure_other_team(proposal, fixture, by)
    _ensure_undecided(proposal)
    _ensure_can_move(fixture)
    if proposal.starts_at <= timezone.now():
        raise Conflict(_("The proposed date has passed: propose another."))
    if fixture.starts_at != proposal.starts_at or fixture.status != Status.SCHEDULED:
        _reschedule(fixture, starts_at=proposal.starts_at, by=by)
    return _decide(proposal, status=Proposal.ACCEPTED, by=by)


@transaction.atomic
def reschedule_decline(*, proposal_id: int, by: AnyUser) -> RescheduleProposal:
    """A player of the other team declines: the fixture keeps its date.

    Raises NotFound, Forbidden and Conflict (already decided) as reschedule_accept does.
    """
    proposal, fixture = _locked_proposal(proposal_id)
    _ensure_other_team(proposal, fixture, by)
    _ensure_undecided(proposal)
    return _decide(proposal, status=Proposal.DECLINED, by=by)


@transaction.atomic
def reschedule_withdraw(*, proposal_id: int, by: AnyUser) -> RescheduleProposal:
    """A player of the proposing team takes the proposal back (so that they can propose another).

    Raises NotFound, Forbidden for anyone but a player of the proposing team, Conflict when it
    is already decided.
    """
    proposal, fixture = _locked_proposal(proposal_id)
    if fixture_team_of(user=by, fixture=fixture) != proposal.team_id:
        raise Forbidden(_("Only the players of the team that proposed this date can withdraw it."))
    _ensure_undecided(proposal)
    return _decide(proposal, status=Proposal.WITHDRAWN, by=by)


@transaction.atomic
def availability_set(*, fixture_id: int, available: bool, by: AnyUser) -> Availability:
    """`by` says whether they can play the fixture (a player of either team, or a reserve of
    one in the season); saying it again replaces what they said.

    Raises NotFound for an unknown fixture, Forbidden for anyone else, Conflict when the
    fixture is played or void, Invalid on "available" for anything but true or false.
    """
    if not isinstance(available, bool):
        raise Invalid(errors={"available": _("Say true or false.")})
    fixture = _lock_fixture(fixture_id)
    player = fixture_squad_player(user=by, fixture=fixture)
    if player is None:
        raise Forbidden(_(NOT_FIXTURE_SQUAD))
    if fixture.status in _CLOSED:
        raise Conflict(
            _("This fixture has been played; availability is for fixtures still to come.")
            if fixture.status == Status.PLAYED
            else _("This fixture is void; nobody plays it.")
        )
    availability, _created = Availability.objects.update_or_create(
        fixture=fixture, player=player, defaults={"available": available}
    )
    return availability


def language_supported(language: str) -> bool:
    return language in {code for code, _name in settings.LANGUAGES}


def profile_language_set(*, user: AnyUser, language: str) -> Profile | None:
    """Keep the language a user chose; for a visitor not logged in, only check it (their choice
    lives in the cookie alone)."""
    if not language_supported(language):
        raise Invalid(errors={"language": _("Choose one of the site's languages.")})
    if not user.is_authenticated:
        return None
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user_id=user.pk)
        if profile.language != language:
            profile.language = language
            profile.save(update_fields=["language"])
    return profile


@transaction.atomic
def profile_email_notices_set(*, user: AnyUser, email_notices: bool) -> Profile:
    """Turn a user's notices by email on or off (their own settings: no one else's)."""
    if not user.is_authenticated:
        raise Forbidden(_("Log in to change your notices."))
    profile, _created = Profile.objects.select_for_update().get_or_create(user_id=user.pk)
    if profile.email_notices != email_notices:
        profile.email_notices = email_notices
        profile.save(update_fields=["email_notices"])
    return profile
