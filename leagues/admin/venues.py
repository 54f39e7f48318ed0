"""Admin of venues and the staff who serve them."""

from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from ..models import StaffMembership, Venue
from .access import HistoryAdmin


class StaffMembershipInline(admin.TabularInline):
    model = StaffMembership
    extra = 1
    autocomplete_fields = ["user"]
    readonly_fields = ["granted_at"]
    verbose_name = _("staff member")
    verbose_name_plural = _("staff (may enter results and manage fixtures at this venue)")


@admin.register(Venue)
class VenueAdmin(HistoryAdmin):
    list_display = ["name", "address", "staff_count", "team_count"]
    search_fields = ["name", "address", "staff__username"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [StaffMembershipInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                staff_total=Count("staffmembership", distinct=True),
                team_total=Count("home_teams", distinct=True),
            )
        )

    @admin.display(description=_("staff"), ordering="staff_total")
    def staff_count(self, venue):
        return venue.staff_total

    @admin.display(description=_("home teams"), ordering="team_total")
    def team_count(self, venue):
        return venue.team_total
