"""The fixture a results page is about: 404 when there is none; for staff's pages, 403 when the
user does not serve its venue."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from leagues.models import Fixture
from leagues.permissions import can_enter_results


def fixture_or_404(pk: int) -> Fixture:
    return get_object_or_404(
        Fixture.objects.select_related(
            "season__league", "home_team", "away_team", "venue", "season"
        ),
        pk=pk,
    )


def staff_fixture(request, pk: int) -> Fixture:
    """The fixture, if the user serves its venue (403 otherwise, 404 if there is none)."""
    fixture = fixture_or_404(pk)
    if not can_enter_results(user=request.user, venue_id=fixture.venue_id):
        raise PermissionDenied(_("You can only enter results for fixtures at a venue you serve."))
    return fixture
