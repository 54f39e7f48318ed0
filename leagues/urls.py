"""Public league pages (no login). The pages that show results are scoring's
(scoring/publishing/page_urls.py), served beside these at the site's root."""

from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
]
