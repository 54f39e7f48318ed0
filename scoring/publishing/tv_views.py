"""The pub's TV screen (scoring.publishing.tv): a full page and the board it polls for, no login.

Both answer 404 unless the address carries the venue's current token.
"""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from scoring.publishing import tv


def _venue(venue_slug: str, token: str):
    venue = tv.screen_venue(venue_slug=venue_slug, token=token)
    if venue is None:
        raise Http404("No such screen")
    return venue


def _context(venue, token: str) -> dict:
    refresh = settings.TV_REFRESH_SECONDS
    return {
        "board": tv.venue_board(venue=venue),
        "board_url": reverse("tv-board", args=[venue.slug, token]),
        "refresh_seconds": refresh,
        "stale_seconds": refresh * 3,
    }


@never_cache
def tv_screen(request, venue_slug: str, token: str):
    venue = _venue(venue_slug, token)
    return render(request, "scoring/tv/screen.html", _context(venue, token))


@never_cache
def tv_board(request, venue_slug: str, token: str):
    venue = _venue(venue_slug, token)
    return render(request, "scoring/tv/_board.html", _context(venue, token))
