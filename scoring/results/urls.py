"""Result entry routes, under /staff/: staff's, and the players' of a fixture (the printed
sheet's QR code leads to its entry page; docs/match-night.md)."""

from django.urls import path

from scoring.results import confirmation_views, history_views, staff_home_views, views

urlpatterns = [
    path("", staff_home_views.staff_home, name="staff-home"),
    path("entry-sw.js", views.entry_service_worker, name="entry-service-worker"),
    path("fixtures/<int:pk>/result/", views.result_entry, name="result-entry"),
    path("fixtures/<int:pk>/history/", history_views.result_history, name="result-history"),
    path("fixtures/<int:pk>/walkover/", views.result_walkover, name="result-walkover"),
    path("fixtures/<int:pk>/answer/", confirmation_views.result_answer, name="result-answer"),
    path("fixtures/<int:pk>/decide/", confirmation_views.result_decide, name="result-decide"),
]
