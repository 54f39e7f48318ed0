"""Admin of players and teams of two."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from .. import squad_services
from ..eligibility import team_players_check
from ..models import Player, Team, TeamMember
from .access import HistoryAdmin


@admin.register(Player)
class PlayerAdmin(HistoryAdmin):
    list_display = ["name", "slug", "user", "team_names"]
    search_fields = ["name", "slug", "user__username", "teams__name"]
    prepopulated_fields = {"slug": ["name"]}
    autocomplete_fields = ["user"]
    list_select_related = ["user"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("teams")

    @admin.display(description=_("teams"))
    def team_names(self, player):
        return ", ".join(team.name for team in player.teams.all())


class TeamMemberFormSet(forms.BaseInlineFormSet):
    """Exactly two players, one at position 1 and one at position 2."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", [{"position": 1}, {"position": 2}])
        super().__init__(*args, **kwargs)

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        members = [
            form.cleaned_data
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        if len(members) != 2:
            raise ValidationError(
                ngettext(
                    "A team has exactly two players; this one would have %(count)d player.",
                    "A team has exactly two players; this one would have %(count)d players.",
                    len(members),
                )
                % {"count": len(members)}
            )
        if sorted(member["position"] for member in members) != [1, 2]:
            raise ValidationError(
                gettext("Put one player at position 1 and the other at position 2.")
            )
        if members[0]["player"] == members[1]["player"]:
            raise ValidationError(gettext("A team's two players must be different people."))
        self._check_eligibility(members)

    def _check_eligibility(self, members: list[dict]) -> None:
        """A player joining the team must not already play for another team of a season it
        is entered in (the season's eligibility rule): said next to the player's row."""
        if self.instance.pk is None:
            return
        current = set(self.instance.members.values_list("player_id", flat=True))
        joining = [member["player"].pk for member in members if member["player"].pk not in current]
        clash = team_players_check(team=self.instance, player_ids=joining)
        if clash is None:
            return
        rows = [form for form in self.forms if form.cleaned_data.get("player") == clash.player]
        for form in rows:
            form.add_error("player", clash.message)
        if not rows:
            raise ValidationError(clash.message)

    def ordered_players(self) -> list:
        members = [
            form.cleaned_data
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        return [member["player"] for member in sorted(members, key=lambda m: m["position"])]


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    formset = TeamMemberFormSet
    extra = 0
    min_num = 2
    max_num = 2
    validate_min = True
    validate_max = True
    autocomplete_fields = ["player"]
    verbose_name = _("player")
    verbose_name_plural = _(
        "players (exactly two, in order: a fixture's singles pair them by position)"
    )


@admin.register(Team)
class TeamAdmin(HistoryAdmin):
    list_display = ["name", "home_venue", "player_names"]
    list_filter = [("home_venue", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name", "slug", "players__name", "home_venue__name"]
    prepopulated_fields = {"slug": ["name"]}
    list_select_related = ["home_venue"]
    inlines = [TeamMemberInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("members__player")

    @admin.display(description=_("players"))
    def player_names(self, team):
        return " & ".join(member.player.name for member in team.members.all())

    def save_formset(self, request, form, formset, change):
        if isinstance(formset, TeamMemberFormSet):
            formset.save(commit=False)  # fills new/changed/deleted_objects for the admin log
            squad_services.team_players_set(team=form.instance, players=formset.ordered_players())
            return
        super().save_formset(request, form, formset, change)
