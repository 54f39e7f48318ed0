"""A cup's public pages: its bracket (under its season's pages) and its calendar feed; no
login. The bracket reads on a phone: the rounds are columns that scroll sideways inside their
own box, never the page."""

from django.shortcuts import render

from config.page_cache import public_page
from leagues import selectors as leagues_selectors
from leagues.models import Cup
from scoring.cups.deciders import drawn_tie_rule
from scoring.cups.selectors import cup_bracket, cup_get, season_cups
from scoring.publishing import calendars
from scoring.publishing.calendar_views import ical_response


def _cup(league_slug: str, season_slug: str, cup_slug: str) -> Cup:
    season = leagues_selectors.season_get(league_slug=league_slug, season_slug=season_slug)
    return cup_get(season=season, slug=cup_slug)


@public_page
def cup_bracket_page(request, league_slug: str, season_slug: str, cup_slug: str):
    cup = _cup(league_slug, season_slug, cup_slug)
    return render(
        request,
        "scoring/cup_bracket.html",
        {
            "cup": cup,
            "season": cup.season,
            "league": cup.season.league,
            "rounds": cup_bracket(cup=cup),
            "cups": season_cups(season=cup.season),
            "drawn_tie_rule": drawn_tie_rule(cup.game).rule,
        },
    )


def cup_calendar(request, league_slug: str, season_slug: str, cup_slug: str):
    cup = _cup(league_slug, season_slug, cup_slug)
    return ical_response(
        request, calendars.cup_feed(cup=cup), f"{league_slug}-{season_slug}-{cup.slug}"
    )
