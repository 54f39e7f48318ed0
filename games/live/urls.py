"""The play pages (docs/play-pages.md): the lobby, a table, its moves and its replay."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="table-lobby"),
    path("new/", views.table_start, name="table-start"),
    path("how-to-play/<slug:game>/", views.how_to_play, name="how-to-play"),
    path("fixtures/<int:fixture_id>/", views.fixture_tables, name="fixture-tables"),
    path("<int:table_id>/", views.table_detail, name="table-detail"),
    path("<int:table_id>/events/", views.table_events, name="table-events"),
    path("<int:table_id>/join/", views.table_join, name="table-join"),
    path("<int:table_id>/cancel/", views.table_cancel, name="table-cancel"),
    path("<int:table_id>/resume/", views.table_resume, name="table-resume"),
    path("<int:table_id>/move/", views.table_move, name="table-move"),
    path("<int:table_id>/pause/", views.table_pause, name="table-pause"),
    path("<int:table_id>/unpause/", views.table_unpause, name="table-unpause"),
    path("<int:table_id>/claim/", views.table_claim, name="table-claim"),
    path("<int:table_id>/replay/", views.table_replay, name="table-replay"),
]
