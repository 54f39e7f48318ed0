"""Public pages that show results (scoring.publishing.pages), at the site's root: no login."""

from django.urls import path

from scoring.publishing import cup_pages, pages

urlpatterns = [
    path("", pages.home, name="home"),
    path(
        "leagues/<slug:league_slug>/<slug:season_slug>/",
        pages.season_detail,
        name="season-detail",
    ),
    path(
        "leagues/<slug:league_slug>/<slug:season_slug>/fixtures/",
        pages.season_fixtures,
        name="season-fixtures",
    ),
    path(
        "leagues/<slug:league_slug>/<slug:season_slug>/cups/<slug:cup_slug>/",
        cup_pages.cup_bracket_page,
        name="cup-bracket",
    ),
    path("teams/<slug:slug>/", pages.team_detail, name="team-detail"),
    path("players/<slug:slug>/", pages.player_detail, name="player-detail"),
    path("venues/<slug:slug>/", pages.venue_detail, name="venue-detail"),
    path("fixtures/<int:pk>/", pages.fixture_detail, name="fixture-detail"),
]
