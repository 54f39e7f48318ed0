"""The season admin's inlines (scoring/season_rules/admin.py): its divisions, and its teams
entered, each in a division. Entering a team is refused next to its row when the team is
entered twice, or when one of its two already plays for another team of the season as the
season's eligibility rule says (leagues.eligibility). Both inlines are for league admins only
(leagues.admin.LeagueAdminsOnly): whoever else may change seasons sets the season's rules, but
neither sees nor changes its divisions and entries.
"""

from django.contrib import admin
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.admin import LeagueAdminsOnly
from leagues.eligibility import Placing, placing_clash
from leagues.models import Division, Entry, Reserve
from leagues.selectors import team_player_ids

EMPTY: frozenset[int] = frozenset()


class DivisionInline(LeagueAdminsOnly, admin.TabularInline):
    """The season's divisions: level 1 is the top; how many go up and down at the end, and
    whether the places either side of each line meet in a play-off (docs/seasons.md)."""

    model = Division
    extra = 0
    fields = ["name", "level", "promoted", "relegated", "playoff"]
    verbose_name_plural = _("divisions (a season without any gets “Division 1” when saved)")


class EntryFormSet(BaseInlineFormSet):
    """A team plays in one division of a season: entering it twice says so by name. A row
    new or changed is refused when one of its team's two already plays for another team of
    the season as the season's eligibility rule says (the teams as the form would leave them)."""

    def clean(self):
        super().clean()
        seen: dict[int, str] = {}
        rows = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            team = data.get("team")
            if team is None or data.get("DELETE"):
                continue
            if team.pk in seen:
                form.add_error(
                    "team",
                    gettext(
                        "%(team)s is already entered in this season (in %(division)s): a team "
                        "plays in one division of a season. Change its division on the first "
                        "row instead."
                    )
                    % {"team": team, "division": seen[team.pk]},
                )
                continue
            seen[team.pk] = str(data.get("division") or gettext("the top division"))
            rows.append((form, team, data.get("division")))
        self._check_eligibility(rows)

    def _check_eligibility(self, rows) -> None:
        if not rows:
            return
        players = team_player_ids(team_ids=[team.pk for _form, team, _division in rows])
        reserves: dict[int, set[int]] = {}
        entry_ids = [form.instance.pk for form, _team, _division in rows if form.instance.pk]
        for entry_id, player_id in Reserve.objects.filter(entry_id__in=entry_ids).values_list(
            "entry_id", "player_id"
        ):
            reserves.setdefault(entry_id, set()).add(player_id)
        placings = [
            Placing(
                team,
                division.pk if division is not None else None,
                frozenset(players[team.pk]),
                frozenset(reserves.get(form.instance.pk, EMPTY)),
            )
            for form, team, division in rows
        ]
        for (form, _team, _division), placing in zip(rows, placings, strict=True):
            if form.instance.pk and not form.has_changed():
                continue
            clash = placing_clash(season=self.instance, placing=placing, others=placings)
            if clash is not None:
                form.add_error("team", clash.message)

    def validate_unique(self):
        # The rows' duplicates are said by clean() in the league's words.
        pass


class EntryInline(LeagueAdminsOnly, admin.TabularInline):
    model = Entry
    formset = EntryFormSet
    extra = 0
    fields = ["team", "division"]
    autocomplete_fields = ["team"]
    verbose_name = _("team entered")
    verbose_name_plural = _(
        "teams entered, each in a division (generate fixtures again after changing them)"
    )

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "division":
            season_id = request.resolver_match.kwargs.get("object_id")
            kwargs["queryset"] = Division.objects.filter(
                season_id=season_id if str(season_id or "").isdigit() else None
            )
            kwargs["help_text"] = _("Left blank: the top division.")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
