"""Public league pages (no login), and match night's schedule forms for the players of a
fixture. The pages that show results are scoring's (scoring/publishing/page_urls.py), served
beside these at the site's root."""

from django.urls import path

from . import languages, schedule_views, views

urlpatterns = [
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
    path("language/", languages.language_choose, name="language-choose"),
    path(
        "fixtures/<int:pk>/reschedule/",
        schedule_views.reschedule_propose_page,
        name="reschedule-propose",
    ),
    path(
        "fixtures/<int:pk>/availability/",
        schedule_views.availability_mark,
        name="availability-mark",
    ),
    path(
        "reschedules/<int:pk>/<slug:answer>/",
        schedule_views.reschedule_answer,
        name="reschedule-answer",
    ),
]
