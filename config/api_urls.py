"""The REST API's routes, mounted at /api/ (schema at /api/schema/, docs at /api/docs/)."""

from django.urls import path, re_path

from config import api_auth
from config.api_errors import not_found
from games.live import api as games_api
from leagues import api as leagues_api
from leagues import schedule_api
from scoring.cups import api as cups_api
from scoring.results import api as scoring_api
from scoring.results import confirmation_api, fixture_api, history_api, walkover_api
from scoring.standings import api as standings_api

urlpatterns = [
    path("auth/token/", api_auth.TokenApi.as_view(), name="api-token"),
    path("auth/logout/", api_auth.LogoutApi.as_view(), name="api-logout"),
    path("auth/logout-all/", api_auth.LogoutAllApi.as_view(), name="api-logout-all"),
    path("leagues/", leagues_api.LeagueListApi.as_view(), name="api-league-list"),
    path("leagues/<int:pk>/", leagues_api.LeagueDetailApi.as_view(), name="api-league-detail"),
    path("seasons/", leagues_api.SeasonListApi.as_view(), name="api-season-list"),
    path("seasons/<int:pk>/", leagues_api.SeasonDetailApi.as_view(), name="api-season-detail"),
    path(
        "seasons/<int:pk>/standings/",
        standings_api.SeasonStandingsApi.as_view(),
        name="api-season-standings",
    ),
    path("teams/", leagues_api.TeamListApi.as_view(), name="api-team-list"),
    path("teams/<int:pk>/", leagues_api.TeamDetailApi.as_view(), name="api-team-detail"),
    path("players/", leagues_api.PlayerListApi.as_view(), name="api-player-list"),
    path("players/<int:pk>/", leagues_api.PlayerDetailApi.as_view(), name="api-player-detail"),
    path("venues/", leagues_api.VenueListApi.as_view(), name="api-venue-list"),
    path("venues/<int:pk>/", leagues_api.VenueDetailApi.as_view(), name="api-venue-detail"),
    path("cups/", cups_api.CupListApi.as_view(), name="api-cup-list"),
    path("cups/<int:pk>/", cups_api.CupDetailApi.as_view(), name="api-cup-detail"),
    path("fixtures/", fixture_api.FixtureListApi.as_view(), name="api-fixture-list"),
    path("fixtures/<int:pk>/", fixture_api.FixtureDetailApi.as_view(), name="api-fixture-detail"),
    path(
        "fixtures/<int:pk>/result/",
        scoring_api.FixtureResultApi.as_view(),
        name="api-fixture-result",
    ),
    path(
        "fixtures/<int:pk>/walkover/",
        walkover_api.FixtureWalkoverApi.as_view(),
        name="api-fixture-walkover",
    ),
    path(
        "fixtures/<int:pk>/result/confirm/",
        confirmation_api.FixtureResultConfirmApi.as_view(),
        name="api-fixture-result-confirm",
    ),
    path(
        "fixtures/<int:pk>/result/dispute/",
        confirmation_api.FixtureResultDisputeApi.as_view(),
        name="api-fixture-result-dispute",
    ),
    path(
        "fixtures/<int:pk>/results/",
        history_api.FixtureResultHistoryApi.as_view(),
        name="api-fixture-result-history",
    ),
    path(
        "fixtures/<int:pk>/reschedule/",
        schedule_api.FixtureRescheduleApi.as_view(),
        name="api-fixture-reschedule",
    ),
    path(
        "fixtures/<int:pk>/availability/",
        schedule_api.FixtureAvailabilityApi.as_view(),
        name="api-fixture-availability",
    ),
    path(
        "reschedules/<int:pk>/accept/",
        schedule_api.RescheduleAcceptApi.as_view(),
        name="api-reschedule-accept",
    ),
    path(
        "reschedules/<int:pk>/decline/",
        schedule_api.RescheduleDeclineApi.as_view(),
        name="api-reschedule-decline",
    ),
    path(
        "fixtures/<int:pk>/tables/",
        games_api.FixtureTablesApi.as_view(),
        name="api-fixture-tables",
    ),
    path("tables/", games_api.TableCreateApi.as_view(), name="api-table-create"),
    path("tables/<int:pk>/", games_api.TableDetailApi.as_view(), name="api-table-detail"),
    path("tables/<int:pk>/join/", games_api.TableJoinApi.as_view(), name="api-table-join"),
    path("tables/<int:pk>/cancel/", games_api.TableCancelApi.as_view(), name="api-table-cancel"),
    path("tables/<int:pk>/resume/", games_api.TableResumeApi.as_view(), name="api-table-resume"),
    path("tables/<int:pk>/pause/", games_api.TablePauseApi.as_view(), name="api-table-pause"),
    path("tables/<int:pk>/unpause/", games_api.TableUnpauseApi.as_view(), name="api-table-unpause"),
    path("tables/<int:pk>/claim/", games_api.TableClaimApi.as_view(), name="api-table-claim"),
    path("tables/<int:pk>/moves/", games_api.TableMoveApi.as_view(), name="api-table-moves"),
    path("tables/<int:pk>/log/", games_api.TableLogApi.as_view(), name="api-table-log"),
    # Anything else under /api/ is a JSON 404, not the site's HTML page. An address without
    # its slash is matched here too, so APPEND_SLASH never redirects it (it would lose a POST's
    # body): the 404 names the address with the slash.
    re_path(r"^[\s\S]*$", not_found, name="api-not-found"),
]
