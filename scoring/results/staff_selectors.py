"""Reads of the staff home: the venues a member of staff serves, their TV screens, and the lists
of fixtures to score there (disputes to decide, tonight, waiting for a result, recent, coming
up)."""

import datetime
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.models import Fixture, Venue
from leagues.permissions import AnyUser, is_league_admin, staff_grants
from scoring.models import ResultVersion
from scoring.results.fixture_results import fixture_result, fixtures_with_results


def staff_venue_names(*, user: AnyUser) -> list[str] | None:
    """Names of the venues `user` serves; None for a league admin, who may act for all."""
    if is_league_admin(user=user):
        return None
    return list(
        staff_grants(user=user).order_by("venue__name").values_list("venue__name", flat=True)
    )


def staff_venue_screens(*, user: AnyUser) -> list[tuple[Venue, str | None]]:
    """The venues `user` serves with their TV screen's secret token (None where no screen
    address has been issued), by name. A league admin's own venues only: the admin lists every
    screen."""
    venues = (
        Venue.objects.filter(pk__in=staff_grants(user=user).values("venue_id"))
        .select_related("screen")
        .order_by("name")
    )
    screens = []
    for venue in venues:
        screen = getattr(venue, "screen", None)  # the reverse one-to-one raises when missing
        screens.append((venue, screen.token if screen is not None else None))
    return screens


@dataclass
class StaffSection:
    """One list of the staff home: `key` names it in the page (ids), `folded` hides it in a
    <details> (the weeks ahead, which take no result yet)."""

    title: str
    key: str
    fixtures: list[Fixture]
    folded: bool = False


def staff_fixture_sections(*, user: AnyUser, limit: int) -> list[StaffSection]:
    """The staff home's lists at the venues `user` serves (all venues for a league admin), the
    fixtures carrying their `.current` result: disputed results to decide (only when there
    are any), tonight's fixtures, those waiting for a result
    (an earlier day, not played), recent results, and the fixtures coming up (folded)."""
    fixtures = Fixture.objects.exclude(status=Fixture.Status.VOID)
    if not is_league_admin(user=user):
        fixtures = fixtures.filter(venue_id__in=staff_grants(user=user).values("venue_id"))
    today, tomorrow = _today_bounds()
    tonight = fixtures.filter(starts_at__gte=today, starts_at__lt=tomorrow)
    waiting = fixtures.filter(starts_at__lt=today).exclude(status=Fixture.Status.PLAYED)
    recent = fixtures.filter(starts_at__lt=today, status=Fixture.Status.PLAYED)
    upcoming = fixtures.filter(starts_at__gte=tomorrow)
    disputed = fixtures.filter(
        result_versions__is_current=True,
        result_versions__confirmation=ResultVersion.Confirmation.DISPUTED,
    )
    # Disputes wait for staff to decide: listed first, when there are any.
    to_decide = _with_results(disputed.order_by("starts_at", "pk"), limit)
    decide = [StaffSection(_("Disputed results to decide"), "disputed", to_decide)]
    return [
        *(decide if to_decide else []),
        StaffSection(
            _("Tonight"), "tonight", _with_results(tonight.order_by("starts_at", "pk"), limit)
        ),
        StaffSection(
            _("Waiting for a result"),
            "waiting",
            _with_results(waiting.order_by("-starts_at", "-pk"), limit),
        ),
        StaffSection(
            _("Recent results"),
            "recent",
            _with_results(recent.order_by("-starts_at", "-pk"), limit),
        ),
        StaffSection(
            _("Coming up"),
            "upcoming",
            _with_results(upcoming.order_by("starts_at", "pk"), limit),
            folded=True,
        ),
    ]


def _with_results(fixtures: QuerySet[Fixture], limit: int) -> list[Fixture]:
    listed: list[Fixture] = list(fixtures_with_results(fixtures)[:limit])
    for fixture in listed:
        fixture.current = fixture_result(fixture)  # type: ignore[attr-defined]  # the pages'
    return listed


def _today_bounds() -> tuple[datetime.datetime, datetime.datetime]:
    """The first moment of today and of tomorrow, local time."""
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    tomorrow = timezone.make_aware(
        datetime.datetime.combine(today.date() + datetime.timedelta(days=1), datetime.time())
    )
    return today, tomorrow
