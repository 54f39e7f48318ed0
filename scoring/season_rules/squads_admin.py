"""Admin of a season's entries: each team's registered reserves
(leagues.squad_services.reserve_register) and the "withdraw" action
(scoring.results.walkovers.entry_withdraw). Registered by scoring because a withdrawal writes
results (walkovers) as the season's rule says. League admins only (leagues.admin.LeagueAdminsOnly),
whatever model permissions anyone else holds: an entry's division places a team in the season.
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.errors import DomainError, add_refusal_to_form, refusal_sentence
from leagues import squad_services
from leagues.admin import LeagueAdminsOnly
from leagues.eligibility import entry_players_check
from leagues.models import Division, Entry, Reserve
from scoring.results.walkovers import entry_withdraw


class ReserveFormSet(forms.BaseInlineFormSet):
    """New reserves are checked by the service's own check, each refusal next to its row."""

    def clean(self):
        super().clean()
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or form.instance.pk or not data.get("player"):
                continue
            try:
                squad_services.reserve_register_check(entry=self.instance, player=data["player"])
            except DomainError as refused:
                form.add_error("player", refusal_sentence(refused))
                raise ValidationError(refusal_sentence(refused)) from None


class ReserveInline(LeagueAdminsOnly, admin.TabularInline):
    model = Reserve
    formset = ReserveFormSet
    extra = 1
    autocomplete_fields = ["player"]
    readonly_fields = ["registered_at"]
    verbose_name = _("reserve")
    verbose_name_plural = _("reserves (who may stand in for the team's two this season)")


class EntryForm(forms.ModelForm):
    """The entry's season, team and division: the division is one of the season's
    (Entry.clean), and the team's two do not already play for another team of the season
    (leagues.eligibility), each refusal next to its field."""

    class Meta:
        model = Entry
        fields = ["season", "team", "division"]

    def clean(self):
        data = super().clean()
        season, team = data.get("season"), data.get("team")
        if self.errors or season is None or team is None:
            return data
        division = data.get("division")
        try:
            entry_players_check(
                season=season,
                team=team,
                division_id=division.pk if division is not None else None,
                entry_id=self.instance.pk,
            )
        except DomainError as refused:
            add_refusal_to_form(self, refused)
        return data


@admin.register(Entry)
class EntryAdmin(LeagueAdminsOnly, admin.ModelAdmin):
    """A team in a season: its reserves, and its withdrawal. Its division is chosen among its
    season's divisions. League admins only, as the season's divisions and entries inlines."""

    form = EntryForm

    list_display = ["team", "season", "division", "withdrawn_on", "reserve_names"]
    list_filter = ["season__league", "season"]
    search_fields = ["team__name", "season__name", "season__league__name"]
    list_select_related = ["team", "season__league", "division"]
    autocomplete_fields = ["team"]
    readonly_fields = ["withdrawn_on"]
    inlines = [ReserveInline]
    actions = ["withdraw"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("reserves__player")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "division":
            kwargs["queryset"] = self._divisions(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @staticmethod
    def _divisions(request):
        """The divisions of the entry's season (on its change page), or of the season posted
        or linked (?season=) on the add page; every division, by season, otherwise."""
        divisions = Division.objects.select_related("season__league").order_by("season", "level")
        object_id = request.resolver_match.kwargs.get("object_id")
        if object_id is not None:
            season_id = (
                Entry.objects.filter(pk=object_id).values_list("season_id", flat=True).first()
                if str(object_id).isascii() and str(object_id).isdigit()
                else None
            )
            return divisions.filter(season_id=season_id)
        season_id = request.POST.get("season") or request.GET.get("season")
        if season_id and str(season_id).isascii() and str(season_id).isdigit():
            return divisions.filter(season_id=int(season_id))
        return divisions

    @admin.display(description=_("reserves"))
    def reserve_names(self, entry):
        return ", ".join(reserve.player.name for reserve in entry.reserves.all()) or "—"

    def save_formset(self, request, form, formset, change):
        if not isinstance(formset, ReserveFormSet):
            return super().save_formset(request, form, formset, change)
        reserves = formset.save(commit=False)  # fills new/deleted_objects for the admin log
        for reserve in formset.deleted_objects:
            reserve._history_user = request.user
            reserve.delete()
        for reserve in reserves:
            if reserve.pk is None:
                squad_services.reserve_register(
                    entry_id=form.instance.pk, player_id=reserve.player_id, by=request.user
                )
        return None

    @admin.action(description=_("Withdraw the selected teams today (as the season's rule says)"))
    def withdraw(self, request, queryset):
        for entry in queryset.select_related("team", "season"):
            try:
                entry_withdraw(entry_id=entry.pk, on=timezone.localdate(), by=request.user)
            except DomainError as refused:
                self.message_user(
                    request, f"{entry.team}: {refusal_sentence(refused)}", messages.ERROR
                )
            else:
                self.message_user(
                    request,
                    _("%(team)s withdrew: %(rule)s")
                    % {"team": entry.team, "rule": entry.season.get_withdrawal_rule_display()},
                    messages.SUCCESS,
                )
