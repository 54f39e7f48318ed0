"""Public pages: leagues, tables, fixtures, teams, players, venues (no login)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
    path(
        "leagues/<slug:league_slug>/<slug:season_slug>/",
        views.season_detail,
        name="season-detail",
    ),
    path(
        "leagues/<slug:league_slug>/<slug:season_slug>/fixtures/",
        views.season_fixtures,
        name="season-fixtures",
    ),
    path("teams/<slug:slug>/", views.team_detail, name="team-detail"),
    path("players/<slug:slug>/", views.player_detail, name="player-detail"),
    path("venues/<slug:slug>/", views.venue_detail, name="venue-detail"),
    path("fixtures/<int:pk>/", views.fixture_detail, name="fixture-detail"),
]
