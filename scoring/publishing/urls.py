"""Public routes beyond the tables: calendar feeds, ratings, printable sheets, the pub's TV."""

from django.urls import path

from scoring.publishing import calendar_views, cup_pages, print_views, tv_views
from scoring.ratings import views as rating_views

urlpatterns = [
    path("tv/<slug:venue_slug>/<str:token>/", tv_views.tv_screen, name="tv-screen"),
    path("tv/<slug:venue_slug>/<str:token>/board/", tv_views.tv_board, name="tv-board"),
    path("print/fixtures/<int:pk>/", print_views.fixture_sheet, name="print-fixture-sheet"),
    path(
        "print/seasons/<slug:league_slug>/<slug:season_slug>/",
        print_views.season_print_index,
        name="season-print",
    ),
    path(
        "print/seasons/<slug:league_slug>/<slug:season_slug>/table/",
        print_views.season_table,
        name="season-print-table",
    ),
    path(
        "print/seasons/<slug:league_slug>/<slug:season_slug>/venues/<slug:venue_slug>/",
        print_views.venue_fixture_list,
        name="season-print-venue",
    ),
    path("ratings/", rating_views.ratings_index, name="ratings-index"),
    path("ratings/<slug:game>/", rating_views.ratings_table, name="ratings-table"),
    path("calendars/teams/<slug:slug>.ics", calendar_views.team_calendar, name="calendar-team"),
    path("calendars/venues/<slug:slug>.ics", calendar_views.venue_calendar, name="calendar-venue"),
    path(
        "calendars/seasons/<slug:league_slug>/<slug:season_slug>.ics",
        calendar_views.season_calendar,
        name="calendar-season",
    ),
    path(
        "calendars/cups/<slug:league_slug>/<slug:season_slug>/<slug:cup_slug>.ics",
        cup_pages.cup_calendar,
        name="calendar-cup",
    ),
]
