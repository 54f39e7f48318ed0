"""Admin of leagues. Seasons, whose rules are scoring's (points, tie-breakers, the fixture
format), are edited in scoring/season_admin.py."""

from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from ..models import League


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "season_count"]
    list_filter = ["game"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(season_total=Count("seasons"))

    @admin.display(description=_("seasons"), ordering="season_total")
    def season_count(self, league):
        return league.season_total
