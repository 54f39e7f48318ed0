"""Admin of fixtures: league admins see every fixture, venue staff those at their venues.

A fixture's status, date and venue change only through leagues.services
(`fixture_status_change`, `fixture_relocate`): the form asks the same check the service makes,
to show a refusal next to its field, and the admin's save calls the service.
"""

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.errors import DomainError, Forbidden, add_refusal_to_form, refusal_sentence

from .. import selectors, services
from ..models import Fixture
from ..permissions import is_league_admin
from .access import HistoryAdmin, VenueScopedAdminMixin


class FixtureForm(forms.ModelForm):
    """The fixture's fields; a status the user may not give it is not offered."""

    reason = forms.CharField(
        required=False,
        max_length=services.REASON_MAX_LENGTH,
        widget=forms.TextInput(attrs={"size": 60}),
        label=_("Reason"),
        help_text=_(
            "Needed to postpone (shown with the fixture) or to void (kept in its "
            "history, up to 100 characters)."
        ),
    )
    admin_user = None  # set by FixtureAdmin.get_form

    class Meta:
        model = Fixture
        fields = ["season", "round", "home_team", "away_team", "venue", "starts_at", "status"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and "status" in self.fields:
            open_statuses = services.fixture_statuses_open(
                fixture=self.instance, user=self.admin_user
            )
            self.fields["status"].choices = [
                (value, label) for value, label in Fixture.Status.choices if value in open_statuses
            ]

    def clean(self):
        data = super().clean()
        fixture = self.instance
        if fixture.pk is None or self.errors or "status" not in data:
            return data
        try:
            services.fixture_status_change_check(
                fixture=fixture,
                status=data["status"],
                reason=data.get("reason"),
                starts_at=data.get("starts_at") if "starts_at" in self.changed_data else None,
                user=self.admin_user,
            )
        except Forbidden as refusal:  # who may make a change depends on the status chosen
            self.add_error("status", refusal.detail)
        except DomainError as refusal:
            add_refusal_to_form(self, refusal)
        return data


class OverdueFilter(admin.SimpleListFilter):
    """Postponed fixtures not played by their play-by day (leagues.selectors.fixtures_overdue)."""

    title = _("play-by day")
    parameter_name = "overdue"

    def lookups(self, request, model_admin):
        return [("yes", _("Overdue: not played by its play-by day"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(pk__in=selectors.fixtures_overdue().values("pk"))
        return queryset


@admin.register(Fixture)
class FixtureAdmin(VenueScopedAdminMixin, HistoryAdmin):
    form = FixtureForm
    list_display = ["fixture", "season", "round", "starts_at", "venue", "status"]
    list_filter = [
        ("season", admin.RelatedOnlyFieldListFilter),
        "round",
        "status",
        OverdueFilter,
        ("venue", admin.RelatedOnlyFieldListFilter),
    ]
    search_fields = [
        "home_team__name",
        "away_team__name",
        "venue__name",
        "season__name",
        "season__league__name",
        "postponed_reason",
    ]
    list_select_related = ["home_team", "away_team", "venue", "season__league"]
    date_hierarchy = "starts_at"
    ordering = ["season", "round", "starts_at", "pk"]
    autocomplete_fields = ["season", "home_team", "away_team", "venue"]

    @admin.display(description=_("fixture"), ordering="home_team__name")
    def fixture(self, fixture):
        return gettext("%(home)s v %(away)s") % {
            "home": fixture.home_team,
            "away": fixture.away_team,
        }

    @admin.display(description=_("results"))
    def results(self, fixture):
        count = fixture.result_versions.count()
        try:
            url = reverse("admin:scoring_resultversion_changelist")
        except NoReverseMatch:
            url = ""
        text = ngettext(
            "%(count)d version of the result", "%(count)d versions of the result", count
        ) % {"count": count}
        if not url:
            return text
        return format_html('<a href="{}?fixture__id__exact={}">{}</a>', url, fixture.pk, text)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["season", "round", "home_team", "away_team", "venue", "starts_at"]
        if getattr(request, "_history_revert", False):
            return [*super().get_fields(request, obj)]
        return [
            "season",
            "round",
            "home_team",
            "away_team",
            "venue",
            "starts_at",
            "status",
            "postponed_reason",
            "reason",
            "results",
        ]

    def get_readonly_fields(self, request, obj=None):
        if obj is None or getattr(request, "_history_revert", False):
            return []
        readonly = ["season", "round", "home_team", "away_team", "postponed_reason", "results"]
        if not is_league_admin(user=request.user):  # moving a fixture is theirs
            readonly.append("venue")
        if obj.status in (Fixture.Status.PLAYED, Fixture.Status.VOID):
            readonly.append("starts_at")
        if obj.status == Fixture.Status.VOID:
            readonly += ["status", "reason"]
        return readonly

    def get_form(self, request, obj=None, change=False, **kwargs):
        if getattr(request, "_history_revert", False):
            kwargs["form"] = forms.ModelForm
        form = super().get_form(request, obj, change=change, **kwargs)
        form.admin_user = request.user
        return form

    def save_model(self, request, obj, form, change):
        if not change or getattr(request, "_history_revert", False):
            super().save_model(request, obj, form, change)
            return
        data = form.cleaned_data
        try:
            if "status" in data:
                services.fixture_status_change(
                    fixture_id=obj.pk,
                    status=data["status"],
                    reason=data.get("reason"),
                    starts_at=data.get("starts_at") if "starts_at" in form.changed_data else None,
                    by=request.user,
                )
            if "venue" in form.changed_data:
                services.fixture_relocate(
                    fixture_id=obj.pk, venue_id=data["venue"].pk, by=request.user
                )
        except DomainError as refusal:
            # Someone changed the fixture between loading the form and saving it.
            request._fixture_change_refused = True
            self.message_user(
                request,
                gettext("Not saved: %(refusal)s") % {"refusal": refusal_sentence(refusal)},
                messages.ERROR,
            )

    def log_change(self, request, obj, message):
        if getattr(request, "_fixture_change_refused", False):
            return None
        return super().log_change(request, obj, message)

    def response_change(self, request, obj):
        if getattr(request, "_fixture_change_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)
