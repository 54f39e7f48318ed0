"""Admin of what changes a season's table besides its results: points adjustments added or
deducted by league admins, and a division's play-off fixtures (docs/seasons.md). Registered
by scoring, beside the season's own admin (scoring.season_rules.admin)."""

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.errors import DomainError, add_refusal_to_form, refusal_sentence
from leagues.admin import HistoryAdmin, LeagueAdminsOnly
from leagues.models import Division
from scoring.models import PointsAdjustment
from scoring.season_rules.services import playoff_fixtures_create, points_adjustment_add


class PointsAdjustmentForm(forms.ModelForm):
    """The adjustment is written by scoring.season_rules.services.points_adjustment_add, called
    from clean() so that its refusals stand next to their fields."""

    class Meta:
        model = PointsAdjustment
        fields = ["season", "team", "points", "reason", "on"]
        help_texts = {"points": _("Positive to add points, negative to deduct them (e.g. -3).")}

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            self.created = points_adjustment_add(
                season_id=data["season"].pk,
                team_id=data["team"].pk,
                points=data["points"],
                reason=data["reason"],
                on=data["on"],
                by=self.user,
            )
        except DomainError as refusal:
            add_refusal_to_form(self, refusal)
        return data


@admin.register(PointsAdjustment)
class PointsAdjustmentAdmin(LeagueAdminsOnly, HistoryAdmin):
    """Points added to or deducted from a team: league admins only. An adjustment is not
    edited: one made in error is deleted (its history stays) or answered by another."""

    form = PointsAdjustmentForm
    list_display = ["team", "season", "points", "reason", "on", "created_by"]
    list_filter = ["season__league", "season"]
    search_fields = ["team__name", "reason"]
    list_select_related = ["team", "season__league", "created_by"]
    autocomplete_fields = ["season", "team"]

    def has_change_permission(self, request, obj=None):
        return False

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.user = request.user
        return form

    def save_form(self, request, form, change):
        return form.created

    def save_model(self, request, obj, form, change):
        """Saved already, by the service, in the form's clean()."""

    def save_related(self, request, form, formsets, change):
        """An adjustment has no related rows to save."""


@admin.register(Division)
class DivisionAdmin(LeagueAdminsOnly, HistoryAdmin):
    """Divisions are edited on their season's page; here a league admin creates a division's
    play-off fixtures once its table is final (docs/seasons.md). League admins only, as the
    season's divisions inline."""

    list_display = ["name", "season", "level", "promoted", "relegated", "playoff"]
    list_filter = ["season__league", "playoff"]
    search_fields = ["name", "season__name"]
    list_select_related = ["season__league"]
    actions = ["create_playoffs"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Create the play-off fixtures"))
    def create_playoffs(self, request, queryset):
        for division in queryset.order_by("pk"):
            try:
                fixtures = playoff_fixtures_create(division_id=division.pk, by=request.user)
            except DomainError as refusal:
                self.message_user(
                    request,
                    gettext("%(division)s: %(refusal)s")
                    % {"division": division, "refusal": refusal_sentence(refusal)},
                    messages.ERROR,
                )
                continue
            self.message_user(
                request,
                gettext("%(division)s: %(fixtures)s.")
                % {"division": division, "fixtures": "; ".join(str(f) for f in fixtures)},
                messages.SUCCESS,
            )
