"""The demo's match night schedule (docs/match-night.md): a new date proposed by one captain
and waiting for the other team, and players who said whether they can play. Loaded by
load_demo after the fixtures tonight; loading it again changes nothing.
"""

import datetime

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from leagues.models import Availability, Fixture, RescheduleProposal, Team
from leagues.schedule_services import availability_set, reschedule_propose

PROPOSING, ANSWERING = "roundheads", "full-convoy"  # Ada Finch proposes; Cal Reyes answers
MARKS = {"ada-finch": True, "bo-marsh": False, "cal-reyes": True}  # Bo cannot make it


def load(*, site_url: str) -> str:
    """Propose the demo's new date and mark availability; the line that says where to look."""
    fixture = _next_meeting()
    if fixture is None:  # the seasons are over: nothing left to move
        return "Match night: no fixture left to propose a new date for."
    users = get_user_model().objects
    proposer = users.get(player__slug="ada-finch")
    if not RescheduleProposal.objects.filter(fixture__season__in=_demo_seasons()).exists():
        reschedule_propose(
            fixture_id=fixture.pk,
            starts_at=fixture.starts_at + datetime.timedelta(days=2),
            message="Our pub has a quiz that night: could we play two days later?",
            by=proposer,
        )
    for slug, available in MARKS.items():
        if not Availability.objects.filter(fixture=fixture, player__slug=slug).exists():
            availability_set(
                fixture_id=fixture.pk, available=available, by=users.get(player__slug=slug)
            )
    page = site_url.rstrip("/") + reverse("needs-you")
    return (
        f"Match night: Ada Finch proposed a new date for {fixture} and marked who can play; "
        f"log in as cal-reyes / cal-reyes-plays and open {page}"
    )


def _demo_seasons():
    return Team.objects.get(slug=PROPOSING).seasons.all()


def _next_meeting() -> Fixture | None:
    """The Roundheads' next fixture against Full Convoy after today, in any demo season."""
    tomorrow = timezone.make_aware(
        datetime.datetime.combine(
            timezone.localdate() + datetime.timedelta(days=1), datetime.time()
        )
    )
    teams = Team.objects.filter(slug__in=[PROPOSING, ANSWERING])
    return (
        Fixture.objects.filter(
            home_team__in=teams,
            away_team__in=teams,
            status=Fixture.Status.SCHEDULED,
            starts_at__gte=tomorrow,
        )
        .select_related("home_team", "away_team")
        .order_by("starts_at", "pk")
        .first()
    )
