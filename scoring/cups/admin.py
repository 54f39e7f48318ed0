"""Admin of cups, for league admins only: create a cup, pick its teams, set its rounds' dates
(or a first date and a gap in weeks) and make the draw (scoring.cups.services.cup_draw).

The draw is made with the "Make the draw" button on the cup's page (it saves the page first)
or the list's action, which uses the rounds' dates already set. A refused draw (too few
teams, drawn already, a team not in the season) says why and changes nothing.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AdminSplitDateTime
from django.http import HttpResponseRedirect
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from config.errors import DomainError, refusal_sentence
from leagues.admin import HistoryAdmin, LeagueAdminsOnly
from leagues.models import Cup, CupRound
from leagues.permissions import is_league_admin
from scoring.cups.services import MAX_WEEKS_BETWEEN, cup_draw


class CupAdminsOnly(LeagueAdminsOnly):
    """Cups are run by league admins (leagues.permissions.is_league_admin), nobody else."""

    def has_delete_permission(self, request, obj=None):
        # A drawn cup has fixtures: it stays, as a played league fixture does.
        return is_league_admin(user=request.user) and (obj is None or obj.drawn_at is None)


class CupRoundInline(CupAdminsOnly, admin.TabularInline):
    model = CupRound
    extra = 0
    fields = ["number", "name", "starts_at"]
    verbose_name_plural = gettext_lazy(
        "rounds (optional: set their dates before the draw, or give the first date below)"
    )

    def _open(self, request, obj) -> bool:
        return is_league_admin(user=request.user) and (obj is None or obj.drawn_at is None)

    def has_add_permission(self, request, obj=None):
        return self._open(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._open(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._open(request, obj)


class CupForm(forms.ModelForm):
    first_round_at = forms.SplitDateTimeField(
        required=False,
        widget=AdminSplitDateTime,
        label=gettext_lazy("First round on"),
        help_text=gettext_lazy("For “Make the draw”: the rounds not set above follow weekly."),
    )
    weeks_between = forms.IntegerField(
        min_value=1,
        max_value=MAX_WEEKS_BETWEEN,
        initial=1,
        label=gettext_lazy("Weeks between rounds"),
    )

    class Meta:
        model = Cup
        fields = ["season", "name", "slug", "seeding", "with_plate", "teams"]


@admin.register(Cup)
class CupAdmin(CupAdminsOnly, HistoryAdmin):
    form = CupForm
    change_form_template = "scoring/admin/cup_change_form.html"
    list_display = ["name", "season", "seeding", "with_plate", "team_count", "drawn_at"]
    list_filter = ["season__league", "seeding"]
    list_select_related = ["season__league"]
    search_fields = ["name", "slug", "season__name", "season__league__name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["teams"]
    readonly_fields = ["plate_of", "drawn_at"]
    inlines = [CupRoundInline]
    actions = ["make_the_draw"]

    def get_fieldsets(self, request, obj=None):
        fieldsets = [
            (None, {"fields": ["season", "name", "slug", "seeding", "with_plate", "teams"]}),
        ]
        if obj is not None and obj.drawn_at is None:
            fieldsets.append((_("The draw"), {"fields": ["first_round_at", "weeks_between"]}))
        if obj is not None:
            fieldsets.append((_("Made"), {"fields": ["plate_of", "drawn_at"]}))
        return fieldsets

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.drawn_at is not None:  # the draw is made from these
            return [*self.readonly_fields, "season", "seeding", "with_plate", "teams"]
        return self.readonly_fields

    @admin.display(description=gettext_lazy("teams"))
    def team_count(self, cup):
        return cup.teams.count()

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        request._cup_draw = {
            "first_round_at": form.cleaned_data.get("first_round_at"),
            "weeks_between": form.cleaned_data.get("weeks_between") or 1,
        }

    def response_change(self, request, obj):
        if "_make_draw" in request.POST:
            self._draw(request, obj, **getattr(request, "_cup_draw", {}))
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    @admin.action(description=gettext_lazy("Make the draw (with the rounds' dates set)"))
    def make_the_draw(self, request, queryset):
        for cup in queryset.order_by("pk"):
            self._draw(request, cup)

    def _draw(self, request, cup, *, first_round_at=None, weeks_between=1) -> None:
        try:
            cup = cup_draw(
                cup_id=cup.pk,
                by=request.user,
                first_round_at=first_round_at,
                weeks_between=weeks_between,
            )
        except DomainError as refusal:
            self.message_user(
                request,
                _("%(cup)s: not drawn. %(why)s") % {"cup": cup, "why": refusal_sentence(refusal)},
                messages.ERROR,
            )
            return
        first = cup.rounds.order_by("number").first()
        rounds = cup.rounds.count()
        self.message_user(
            request,
            ngettext(
                "%(cup)s drawn: %(rounds)d round, on %(day)s.",
                "%(cup)s drawn: %(rounds)d rounds, the first on %(day)s.",
                rounds,
            )
            % {
                "cup": cup,
                "rounds": rounds,
                "day": date_format(
                    timezone.localtime(first.starts_at), pgettext("date format", "D j M Y, H:i")
                ),
            },
            messages.SUCCESS,
        )
