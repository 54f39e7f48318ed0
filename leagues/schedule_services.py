"""Match night's writes between the two teams of a fixture (docs/match-night.md): a new date one
team proposes and the other accepts or declines (`reschedule_*`), and whether a player can play
it (`availability_set`). Staff move a fixture themselves through leagues.services.

Each runs in one transaction and locks the fixture first, as every fixture write does; refusals
are config.errors kinds (Invalid keyed by the field at fault, Forbidden, NotFound, Conflict).
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import Conflict, Forbidden, Invalid, NotFound

from .fixture_writes import aware_datetime, decide_proposal, lock_fixture, move_fixture
from .models import Availability, Fixture, RescheduleProposal
from .permissions import (
    NOT_FIXTURE_PLAYER,
    NOT_FIXTURE_SQUAD,
    AnyUser,
    fixture_squad_player,
    fixture_team_of,
)

# Match night: a new date agreed between the two teams (docs/match-night.md). The proposal and
# its fixture are locked together, fixture first (as every fixture write does), so that two
# answers to one proposal, or an answer and a staff move, take effect one after the other.

Status = Fixture.Status
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
    fixture = lock_fixture(fixture_id)
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
    fixture = lock_fixture(fixture_id)
    team_id = fixture_team_of(user=by, fixture=fixture)
    if team_id is None:
        raise Forbidden(_(NOT_FIXTURE_PLAYER))
    _ensure_can_move(fixture)
    if RescheduleProposal.objects.filter(fixture=fixture, status=Proposal.PROPOSED).exists():
        raise Conflict(
            _("A new date is already proposed for this fixture: it waits for its answer first.")
        )
    starts_at = aware_datetime(starts_at, field="starts_at")
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
        move_fixture(fixture, starts_at=proposal.starts_at, by=by)
    return decide_proposal(proposal, status=Proposal.ACCEPTED, by=by)


@transaction.atomic
def reschedule_decline(*, proposal_id: int, by: AnyUser) -> RescheduleProposal:
    """A player of the other team declines: the fixture keeps its date.

    Raises NotFound, Forbidden and Conflict (already decided) as reschedule_accept does.
    """
    proposal, fixture = _locked_proposal(proposal_id)
    _ensure_other_team(proposal, fixture, by)
    _ensure_undecided(proposal)
    return decide_proposal(proposal, status=Proposal.DECLINED, by=by)


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
    return decide_proposal(proposal, status=Proposal.WITHDRAWN, by=by)


@transaction.atomic
def availability_set(*, fixture_id: int, available: bool, by: AnyUser) -> Availability:
    """`by` says whether they can play the fixture (a player of either team, or a reserve of
    one in the season); saying it again replaces what they said.

    Raises NotFound for an unknown fixture, Forbidden for anyone else, Conflict when the
    fixture is played or void, Invalid on "available" for anything but true or false.
    """
    if not isinstance(available, bool):
        raise Invalid(errors={"available": _("Say true or false.")})
    fixture = lock_fixture(fixture_id)
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
