"""Calendar feeds (scoring.publishing.calendars) over HTTP: public, no login, one per team/venue/season."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse

from leagues.models import Season, Team, Venue
from scoring.publishing import calendars

_ID_MARK = 987654321


def ical_response(request, feed: calendars.Feed, filename: str) -> HttpResponse:
    # One reverse() for the whole feed: the page address with the id's place kept as "{}".
    page = request.build_absolute_uri(reverse("fixture-detail", args=[_ID_MARK]))
    body = calendars.feed_ical(feed, fixture_url=page.replace(str(_ID_MARK), "{}"))
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}.ics"'
    return response


def team_calendar(request, slug: str):
    team = get_object_or_404(Team, slug=slug)
    return ical_response(request, calendars.team_feed(team=team), team.slug)


def venue_calendar(request, slug: str):
    venue = get_object_or_404(Venue, slug=slug)
    return ical_response(request, calendars.venue_feed(venue=venue), venue.slug)


def season_calendar(request, league_slug: str, season_slug: str):
    season = get_object_or_404(
        Season.objects.select_related("league"), league__slug=league_slug, slug=season_slug
    )
    return ical_response(
        request, calendars.season_feed(season=season), f"{league_slug}-{season_slug}"
    )
