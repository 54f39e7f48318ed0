"""The "what needs you" page, at the site's root."""

from django.urls import path

from scoring.match_night import views

urlpatterns = [
    path("needs-you/", views.needs_you_page, name="needs-you"),
    path("needs-you/notices/", views.email_notices_set, name="needs-you-notices"),
]
