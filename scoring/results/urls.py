"""Staff result entry routes, under /staff/."""

from django.urls import path

from scoring.results import views

urlpatterns = [
    path("", views.staff_home, name="staff-home"),
    path("entry-sw.js", views.entry_service_worker, name="entry-service-worker"),
    path("fixtures/<int:pk>/result/", views.result_entry, name="result-entry"),
    path("fixtures/<int:pk>/history/", views.result_history, name="result-history"),
    path("fixtures/<int:pk>/walkover/", views.result_walkover, name="result-walkover"),
]
