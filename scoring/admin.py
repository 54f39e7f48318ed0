"""Admin for result versions: read-only, because a correction is a new version.

Who entered what, when, and what changed from the version before. Superusers see every
version; pub staff with "staff status" see the versions of fixtures at the venues they serve.
Nothing here adds, edits or deletes a version: results are entered through the staff pages or
the API (scoring.results.services.result_submit).
"""

import json
from typing import ClassVar

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from leagues.admin import VenueScopedAdminMixin
from leagues.models import Player
from scoring.cups import admin as cups_admin  # noqa: F401  (registers the Cup admin)
from scoring.models import ResultVersion, VenueScreen
from scoring.publishing.services import venue_screen_issue
from scoring.results.sheets import sheet_changes
from scoring.season_rules import (
    adjustments_admin,  # noqa: F401  (points adjustments, play-offs)
    squads_admin,  # noqa: F401  (registers the Entry admin: reserves, withdrawal)
)
from scoring.season_rules import admin as season_admin  # noqa: F401  (registers the Season admin: its rules are scoring's)


def _shown(value) -> str:
    return "—" if value is None else json.dumps(value, ensure_ascii=False)


@admin.register(ResultVersion)
class ResultVersionAdmin(VenueScopedAdminMixin, admin.ModelAdmin):
    venue_lookup = "fixture__venue"
    list_display = [
        "fixture",
        "league",
        "game",
        "number",
        "is_current",
        "score",
        "winner",
        "source",
        "created_by",
        "created_at",
    ]
    list_filter = [
        "fixture__season__league__game",
        ("fixture__season__league", admin.RelatedOnlyFieldListFilter),
        "is_current",
        "source",
        "winner",
        ("fixture__season", admin.RelatedOnlyFieldListFilter),
        ("fixture__venue", admin.RelatedOnlyFieldListFilter),
        "created_at",
    ]
    search_fields = [
        "fixture__home_team__name",
        "fixture__away_team__name",
        "fixture__venue__name",
        "fixture__season__name",
        "created_by__username",
        "note",
    ]
    list_select_related = [
        "fixture__home_team",
        "fixture__away_team",
        "fixture__season__league",
        "created_by",
    ]
    date_hierarchy = "created_at"
    ordering = ["-created_at", "-pk"]
    # Annotated as a tuple so that `readonly_fields = fields` has a type the stubs take for both.
    fields: ClassVar[tuple[str, ...]] = (
        "fixture",
        "number",
        "is_current",
        "score",
        "winner",
        "walkover",
        "source",
        "created_by",
        "created_at",
        "note",
        "lineup_display",
        "changes",
        "sheet_display",
    )
    readonly_fields = fields

    def venue_id_of(self, version):
        return version.fixture.venue_id

    def lookup_allowed(self, lookup, value, request=None):
        # The fixture page links here with ?fixture__id__exact=<pk>.
        return lookup in {"fixture__id__exact", "fixture__exact"} or super().lookup_allowed(
            lookup, value, request
        )

    @admin.display(description=gettext_lazy("league"), ordering="fixture__season__league__name")
    def league(self, version):
        return f"{version.fixture.season.league.name} · {version.fixture.season.name}"

    @admin.display(description=gettext_lazy("game"), ordering="fixture__season__league__game")
    def game(self, version):
        return version.fixture.season.league.get_game_display()

    @admin.display(description=gettext_lazy("score (home – away)"))
    def score(self, version):
        return f"{version.home_score} – {version.away_score}"

    @admin.display(description=gettext_lazy("players (home; away)"))
    def lineup_display(self, version):
        names = dict(
            Player.objects.filter(
                pk__in=[*version.lineup.get("home", []), *version.lineup.get("away", [])]
            ).values_list("pk", "name")
        )
        substitutes = set(version.lineup.get("substitutes", []))
        return "; ".join(
            ", ".join(
                (_("%(name)s (reserve)") if pk in substitutes else "%(name)s")
                % {"name": names.get(pk) or _("player %(id)d") % {"id": pk}}
                for pk in version.lineup.get(side, [])
            )
            or "—"
            for side in ("home", "away")
        )

    @admin.display(description=gettext_lazy("sheet"))
    def sheet_display(self, version):
        return format_html("<pre>{}</pre>", json.dumps(version.sheet, indent=2, ensure_ascii=False))

    @admin.display(description=gettext_lazy("changed from the version before"))
    def changes(self, version):
        if version.number <= 1:
            return _("First version.")
        previous = (
            ResultVersion.objects.filter(fixture_id=version.fixture_id, number__lt=version.number)
            .order_by("-number")
            .first()
        )
        if previous is None:
            return "—"
        rows = [
            (path or "sheet", _shown(old), _shown(new))
            for path, old, new in sheet_changes(previous.sheet, version.sheet)
        ]
        if not rows:
            return _("Same sheet as version %(number)d.") % {"number": previous.number}
        return format_html(
            '<table><thead><tr><th scope="col">{}</th><th scope="col">{}</th>'
            '<th scope="col">{}</th></tr></thead><tbody>{}</tbody></table>',
            _("Entry"),
            _("Version %(number)d") % {"number": previous.number},
            _("Version %(number)d") % {"number": version.number},
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(VenueScreen)
class VenueScreenAdmin(admin.ModelAdmin):
    """The pub's TV screen address per venue. "Issue a new address" replaces the token (the
    old address then shows nothing), through scoring.publishing.services.venue_screen_issue."""

    list_display = ["venue", "screen_address", "created_at"]
    fields = ["venue", "screen_address"]
    actions = ["issue_new_address"]

    def get_readonly_fields(self, request, obj=None):
        return ["screen_address", "venue"] if obj else ["screen_address"]

    @admin.display(description=gettext_lazy("screen address"))
    def screen_address(self, screen):
        if not screen.pk:
            return _("Saved with a new secret address.")
        url = reverse("tv-screen", args=[screen.venue.slug, screen.token])
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', url, url)

    def save_model(self, request, obj, form, change):
        obj.pk = venue_screen_issue(venue_id=obj.venue_id).pk

    @admin.action(
        description=gettext_lazy("Issue a new screen address (the old one stops working)")
    )
    def issue_new_address(self, request, queryset):
        for screen in queryset:
            venue_screen_issue(venue_id=screen.venue_id)
        count = queryset.count()
        self.message_user(
            request,
            ngettext(
                "%(count)d screen address replaced.", "%(count)d screen addresses replaced.", count
            )
            % {"count": count},
        )
