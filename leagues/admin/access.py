"""Who sees what in the admin, shared by every admin module (scoring's too).

- superusers (league admins) see and change everything;
- a member of pub staff with "staff status" sees Fixtures (and their results, scoring/admin.py)
  at the venues they serve, and nothing else unless given Django permissions. Their
  StaffMembership is the grant: no model permission is needed for their venue's fixtures;
- what runs the league (cups, divisions, teams' entries) is for league admins
  (leagues.permissions.is_league_admin) whatever model permissions anyone else holds:
  LeagueAdminsOnly.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _
from simple_history.admin import SimpleHistoryAdmin

from ..models import StaffMembership
from ..permissions import is_league_admin


def served_venue_ids(request) -> frozenset:
    """Ids of the venues the request's user serves (cached on the request)."""
    cached = getattr(request, "_served_venue_ids", None)
    if cached is None:
        user = request.user
        cached = frozenset()
        if user.is_authenticated and user.is_active:
            cached = frozenset(
                StaffMembership.objects.filter(user=user).values_list("venue_id", flat=True)
            )
        request._served_venue_ids = cached
    return cached


class VenueScopedAdminMixin:
    """Superusers see every row; anyone else only rows at the venues they serve.

    `venue_lookup` is the path from the model to its venue. A row at another venue answers
    403 (it exists, but is not yours) rather than the admin's usual redirect.
    """

    venue_lookup = "venue"

    def venue_id_of(self, obj) -> int:
        return obj.venue_id

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.venue_lookup}__in": served_venue_ids(request)})

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is None and not request.user.is_superuser:
            field = (
                self.model._meta.pk
                if from_field is None
                else self.model._meta.get_field(from_field)
            )
            try:
                exists = self.model._default_manager.filter(
                    **{field.name: field.to_python(object_id)}
                ).exists()
            except (ValidationError, ValueError):
                exists = False
            if exists:
                raise PermissionDenied(_("This belongs to a venue you do not serve."))
        return obj

    def _serves(self, request, obj=None) -> bool:
        if request.user.is_superuser:
            return True
        served = served_venue_ids(request)
        if obj is None:
            return bool(served)
        return self.venue_id_of(obj) in served

    def has_module_permission(self, request):
        return super().has_module_permission(request) or self._serves(request)

    def has_view_permission(self, request, obj=None):
        return self._serves(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._serves(request, obj)

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


class LeagueAdminsOnly:
    """An admin (or inline) that only league admins see and use: Django's model permissions
    on it grant nothing to anyone else, so a member of pub staff given "change entry" cannot
    move a team between divisions."""

    def has_module_permission(self, request):
        return is_league_admin(user=request.user)

    def has_view_permission(self, request, obj=None):
        return is_league_admin(user=request.user)

    def has_add_permission(self, request, *args):
        return is_league_admin(user=request.user)

    def has_change_permission(self, request, obj=None):
        return is_league_admin(user=request.user)

    def has_delete_permission(self, request, obj=None):
        return is_league_admin(user=request.user)


class HistoryAdmin(SimpleHistoryAdmin):
    """History pages for whoever may view the record; reverting to an old version rewrites
    the record wholesale, so only superusers may do it."""

    def revert_disabled(self, request, obj=None):
        return not request.user.is_superuser or super().revert_disabled(request, obj)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST" and not request.user.is_superuser:
            raise PermissionDenied(_("Only superusers can revert a record to an old version."))
        request._history_revert = True
        return super().history_form_view(request, object_id, version_id, extra_context)
