"""The staff home (/staff/): the fixtures to score at the venues the user serves, and their TV
screens' addresses."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.results import staff_selectors

STAFF_LIST_LENGTH = 30


@login_required
def staff_home(request):
    """Fixtures at the venues the user serves: tonight's, those waiting for a result, recent
    results, and (folded away) the ones coming up."""
    venues = staff_selectors.staff_venue_names(user=request.user)
    if venues == []:
        raise PermissionDenied(_("Only staff of a venue can enter results."))
    sections = staff_selectors.staff_fixture_sections(user=request.user, limit=STAFF_LIST_LENGTH)
    screens = [
        (
            venue,
            token and request.build_absolute_uri(reverse("tv-screen", args=[venue.slug, token])),
        )
        for venue, token in staff_selectors.staff_venue_screens(user=request.user)
    ]
    return render(
        request,
        "scoring/staff_home.html",
        {"venues": venues, "sections": sections, "limit": STAFF_LIST_LENGTH, "screens": screens},
    )
