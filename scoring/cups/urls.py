"""Staff routes of cups, under /staff/cups/."""

from django.urls import path

from scoring.cups import views

urlpatterns = [
    path("ties/<int:pk>/decider/", views.tie_decider, name="cup-tie-decider"),
]
