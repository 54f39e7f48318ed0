"""The pub's TV screen (scoring.publishing.tv): a full page and the board it polls for, no login.

Both answer 404 unless the address carries the venue's current token. Both speak the venue's
language (Venue.language): the screen hangs above the pub's bar, whoever set it up.
"""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
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
    return _render_in_venue_language(request, "scoring/tv/screen.html", venue, token)


@never_cache
def tv_board(request, venue_slug: str, token: str):
    venue = _venue(venue_slug, token)
    return _render_in_venue_language(request, "scoring/tv/_board.html", venue, token)


def _render_in_venue_language(request, template: str, venue, token: str):
    with translation.override(venue.language):
        response = render(request, template, _context(venue, token))
    response["Content-Language"] = venue.language
    return response
