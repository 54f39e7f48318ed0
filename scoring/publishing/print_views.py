"""Printable pages (scoring.publishing.print_sheets): public, no login, no script; A4 by print.css.

A sheet is printed for the pub, not for whoever prints it: every page here reads in its season's
language (Season.language), whatever the browser asks for.
"""

from collections.abc import Callable

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation

from leagues.models import Season, Venue
from scoring.publishing import print_sheets
from scoring.publishing.season_table import season_tables_shown


def _render_in(season: Season, request, template: str, context: dict | Callable[[], dict]):
    """The page rendered in the season's language (its <html lang> too). A `context` that says
    words of its own (a table's legend) is given as a function, called in that language."""
    with translation.override(season.language):
        response = render(request, template, context() if callable(context) else context)
    response["Content-Language"] = season.language
    return response


def _season(league_slug: str, season_slug: str) -> Season:
    return get_object_or_404(
        Season.objects.select_related("league"), league__slug=league_slug, slug=season_slug
    )


def fixture_sheet(request, pk: int):
    sheet = print_sheets.fixture_sheet(fixture_id=pk)
    entry_url = request.build_absolute_uri(reverse("result-entry", args=[pk]))
    return _render_in(
        sheet.fixture.season,
        request,
        "scoring/print/fixture_sheet.html",
        {
            "sheet": sheet,
            "fixture": sheet.fixture,
            "entry_url": entry_url,
            "qr": print_sheets.qr_svg(entry_url),
            "back_url": reverse("fixture-detail", args=[pk]),
        },
    )


def season_print_index(request, league_slug: str, season_slug: str):
    season = _season(league_slug, season_slug)
    return _render_in(
        season,
        request,
        "scoring/print/season_index.html",
        {
            "season": season,
            "venues": print_sheets.season_venues(season=season),
            "fixtures": season.fixtures.select_related("home_team", "away_team", "venue"),
            "back_url": reverse("season-detail", args=[league_slug, season_slug]),
        },
    )


def venue_fixture_list(request, league_slug: str, season_slug: str, venue_slug: str):
    season = _season(league_slug, season_slug)
    venue = get_object_or_404(Venue, slug=venue_slug)
    return _render_in(
        season,
        request,
        "scoring/print/venue_fixtures.html",
        {
            "season": season,
            "venue": venue,
            "fixtures": print_sheets.venue_season_fixtures(season=season, venue=venue),
            "back_url": reverse("season-print", args=[league_slug, season_slug]),
        },
    )


def season_table(request, league_slug: str, season_slug: str):
    season = _season(league_slug, season_slug)
    return _render_in(
        season,
        request,
        "scoring/print/season_table.html",
        lambda: {
            "season": season,
            "tables": season_tables_shown(season=season),
            "today": timezone.localdate(),
            "back_url": reverse("season-print", args=[league_slug, season_slug]),
        },
    )
