"""The writes the fixture services (leagues.services) and match night's schedule services
(leagues.schedule_services) share: a fixture locked for the change, saved with who and why in
its history, moved to a new date; a proposed new date answered, or closed when staff move the
fixture. Each runs inside its caller's transaction, under the fixture's row lock.
"""

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Invalid, NotFound

from .models import Fixture, RescheduleProposal
from .permissions import AnyUser

Status = Fixture.Status
Proposal = RescheduleProposal.Status
CHANGE_REASON_MAX_LENGTH = 100


def aware_datetime(value: datetime.datetime, *, field: str) -> datetime.datetime:
    """`value` in the current time zone when it has none; Invalid on `field` for a non-date."""
    if not isinstance(value, datetime.datetime):
        raise Invalid(errors={field: _("Give a date and a time.")})
    if timezone.is_naive(value):
        return timezone.make_aware(value)
    return value


def lock_fixture(fixture_id: int) -> Fixture:
    """The fixture row, locked until the transaction ends; NotFound when there is none."""
    try:
        return Fixture.objects.select_for_update().get(pk=fixture_id)
    except Fixture.DoesNotExist:
        raise NotFound(_("There is no such fixture.")) from None


def save_fixture(
    fixture: Fixture, *, by: AnyUser | None, reason: str, fields: list[str]
) -> Fixture:
    """Save `fields` of the fixture with who (`by`) and why (`reason`) in its history."""
    fixture._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    if len(reason) > CHANGE_REASON_MAX_LENGTH:  # simple-history's column holds 100
        reason = reason[: CHANGE_REASON_MAX_LENGTH - 1] + "…"
    fixture._change_reason = reason  # type: ignore[attr-defined]
    fixture.save(update_fields=fields)
    return fixture


def move_fixture(fixture: Fixture, *, starts_at: datetime.datetime, by: AnyUser) -> Fixture:
    """The fixture on its new date and scheduled (again), the old and new dates in its history."""
    before = timezone.localtime(fixture.starts_at)
    was_postponed = fixture.status == Status.POSTPONED
    fixture.starts_at = starts_at
    fixture.status = Status.SCHEDULED
    fixture.postponed_reason = ""
    after = timezone.localtime(starts_at)
    reason = f"{'Rearranged' if was_postponed else 'Rescheduled'} from {before:%d %b %Y %H:%M}"
    return save_fixture(
        fixture,
        by=by,
        reason=f"{reason} to {after:%d %b %Y %H:%M}",
        fields=["starts_at", "status", "postponed_reason"],
    )


def close_open_proposal(fixture: Fixture, *, by: AnyUser) -> None:
    """Staff or an admin moved, postponed or voided the fixture: its open proposal, if any, is
    withdrawn (by them, which tells it from the proposer's own withdrawal). Under the fixture's
    lock, as the answers to a proposal are."""
    for proposal in RescheduleProposal.objects.select_for_update().filter(
        fixture=fixture, status=Proposal.PROPOSED
    ):
        proposal._change_reason = "Closed: the fixture was moved by staff"  # type: ignore[attr-defined]
        decide_proposal(proposal, status=Proposal.WITHDRAWN, by=by)


def decide_proposal(
    proposal: RescheduleProposal, *, status: str, by: AnyUser
) -> RescheduleProposal:
    """The proposal answered (`status`) by `by`, now."""
    proposal.status = status
    proposal.decided_by = by  # type: ignore[assignment]  # a user of AUTH_USER_MODEL
    proposal.decided_at = timezone.now()
    proposal._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    proposal.save(update_fields=["status", "decided_by", "decided_at"])
    return proposal
