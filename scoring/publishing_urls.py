"""Public routes beyond the tables: calendar feeds, ratings, printable sheets, the pub's TV."""

from django.urls import path

from . import calendar_views, rating_views

urlpatterns = [
    path("ratings/", rating_views.ratings_index, name="ratings-index"),
    path("ratings/<slug:game>/", rating_views.ratings_table, name="ratings-table"),
    path("calendars/teams/<slug:slug>.ics", calendar_views.team_calendar, name="calendar-team"),
    path("calendars/venues/<slug:slug>.ics", calendar_views.venue_calendar, name="calendar-venue"),
    path(
        "calendars/seasons/<slug:league_slug>/<slug:season_slug>.ics",
        calendar_views.season_calendar,
        name="calendar-season",
    ),
]
