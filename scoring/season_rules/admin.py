"""Admin of seasons: their teams, fixtures and rules (rule options, fixture format, points,
tie-breakers). Registered by scoring because the rules are scoring's (the standings and the
game kinds check them); leagues/admin/ holds the rest of the league's admin.
"""

from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from config.errors import DomainError, Forbidden, refusal_sentence
from leagues import services
from leagues.admin import HistoryAdmin
from leagues.models import Entry, League, Season
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.season_rules.forms import TIE_BREAKER_FIELDS, SeasonForm
from scoring.season_rules.rules import season_rules_set


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["team"]
    verbose_name = "team entered"
    verbose_name_plural = "teams entered (generate fixtures again after changing them)"


@admin.register(Season)
class SeasonAdmin(HistoryAdmin):
    """A season: name and dates, teams entered, its rules (a form built from the game's
    options), its fixtures, and a "Generate fixtures" button on its page."""

    form = SeasonForm
    change_form_template = "scoring/admin/season_change_form.html"
    list_display = ["__str__", "league", "game_name", "starts_on", "team_count", "fixture_count"]
    list_filter = ["league__game", "league", "starts_on"]
    search_fields = ["name", "slug", "league__name", "teams__name"]
    list_select_related = ["league"]
    date_hierarchy = "starts_on"
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EntryInline]
    actions = ["generate_fixtures"]
    readonly_fields = ["fixtures_by_round"]

    def _game(self, request, obj) -> str | None:
        """The season's game, or on the add page the game of the league posted or linked."""
        if obj is not None:
            return obj.game
        league_id = request.POST.get("league") or request.GET.get("league")
        if not league_id or not str(league_id).isdigit() or not str(league_id).isascii():
            return None
        return League.objects.filter(pk=int(league_id)).values_list("game", flat=True).first()

    def get_form(self, request, obj=None, change=False, **kwargs):
        if getattr(request, "_history_revert", False):
            return super().get_form(request, obj, change=change, **kwargs)
        kwargs["fields"] = None  # the form declares its own fields, some built per game
        form = super().get_form(request, obj, change=change, **kwargs)
        form.game = self._game(request, obj)
        form.game_rules_locked = (
            obj is not None and ResultVersion.objects.filter(fixture__season=obj).exists()
        )
        return form

    def get_fieldsets(self, request, obj=None):
        game = self._game(request, obj)
        rules = ["points_win", "points_draw", "points_loss", *TIE_BREAKER_FIELDS]
        fieldsets = [(None, {"fields": ["league", "name", "slug", "starts_on"]})]
        if game is None:
            fieldsets.append(
                (
                    "Rules",
                    {
                        "fields": rules,
                        "description": "Save the season to set its game's options.",
                    },
                )
            )
        else:
            kind = get_kind(game)
            fieldsets.append(
                (
                    f"{kind.label} rules",
                    {
                        "fields": [f"option_{option.name}" for option in kind.season_options]
                        + [f"format_{option.name}" for option in kind.fixture_format_options],
                        "description": "Leave an option blank to follow the game's default.",
                    },
                )
            )
            fieldsets.append(("League points and order", {"fields": rules}))
        if obj is not None:
            fieldsets.append(("Fixtures", {"fields": ["fixtures_by_round"]}))
        return fieldsets

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                team_total=Count("entries", distinct=True),
                fixture_total=Count("fixtures", distinct=True),
            )
        )

    @admin.display(description="game", ordering="league__game")
    def game_name(self, season):
        return season.league.get_game_display()

    @admin.display(description="teams", ordering="team_total")
    def team_count(self, season):
        return season.team_total

    @admin.display(description="fixtures", ordering="fixture_total")
    def fixture_count(self, season):
        return season.fixture_total

    def save_model(self, request, obj, form, change):
        if getattr(request, "_history_revert", False):
            super().save_model(request, obj, form, change)
            return
        rules = form.season_rules
        try:
            with transaction.atomic():
                super().save_model(request, obj, form, change)
                season_rules_set(
                    season_id=obj.pk,
                    rule_options=rules.rule_options,
                    fixture_format=rules.fixture_format,
                    points_win=rules.points_win,
                    points_draw=rules.points_draw,
                    points_loss=rules.points_loss,
                    tie_breakers=rules.tie_breakers,
                    by=request.user,
                )
        except (ValidationError, PermissionDenied) as error:
            # Someone changed the season (a first result) between loading the form and saving.
            request._season_change_refused = True
            reason = " ".join(getattr(error, "messages", [str(error)]))
            self.message_user(request, f"Not saved: {reason}", messages.ERROR)

    def save_related(self, request, form, formsets, change):
        if not getattr(request, "_season_change_refused", False):
            super().save_related(request, form, formsets, change)

    def log_addition(self, request, obj, message):
        if not getattr(request, "_season_change_refused", False):
            return super().log_addition(request, obj, message)

    def log_change(self, request, obj, message):
        if not getattr(request, "_season_change_refused", False):
            return super().log_change(request, obj, message)

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(request, "_season_change_refused", False):
            return HttpResponseRedirect(request.path)
        if not request.POST.keys() & {"_continue", "_addanother", IS_POPUP_VAR}:
            # The game's own options are set on the season's page, once its game is known.
            self.message_user(
                request, f"{obj} added: now set its game's options, then generate its fixtures."
            )
            return HttpResponseRedirect(reverse("admin:leagues_season_change", args=[obj.pk]))
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if getattr(request, "_season_change_refused", False):
            return HttpResponseRedirect(request.path)
        if "_generate_fixtures" in request.POST:
            self._generate(request, obj)
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "may_generate": self.has_generate_permission(request),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description="fixtures")
    def fixtures_by_round(self, season):
        """The season's fixtures, read-only, each linking to its own page. Shown as a table
        rather than a formset so that a 20-team season (380 fixtures) posts no extra fields."""
        if season.pk is None:
            return "Save the season, enter its teams, then run “Generate fixtures”."
        fixtures = season.fixtures.select_related("home_team", "away_team", "venue").order_by(
            "round", "starts_at", "pk"
        )
        rows = [
            (
                fixture.round,
                reverse("admin:leagues_fixture_change", args=[fixture.pk]),
                f"{fixture.home_team} v {fixture.away_team}",
                fixture.venue,
                timezone.localtime(fixture.starts_at).strftime("%a %d %b %Y %H:%M"),
                fixture.get_status_display(),
            )
            for fixture in fixtures
        ]
        if not rows:
            return "No fixtures yet: select the season in the list and run “Generate fixtures”."
        return format_html(
            '<table><thead><tr><th scope="col">Round</th><th scope="col">Fixture</th>'
            '<th scope="col">Venue</th><th scope="col">Starts</th><th scope="col">Status</th>'
            "</tr></thead><tbody>{}</tbody></table>",
            format_html_join(
                "",
                '<tr><td>{}</td><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>',
                rows,
            ),
        )

    def has_generate_permission(self, request):
        try:
            services.ensure_can_manage_fixtures(user=request.user)
        except Forbidden:
            return False
        return True

    @admin.action(description="Generate fixtures (double round robin)", permissions=["generate"])
    def generate_fixtures(self, request, queryset):
        for season in queryset.order_by("pk"):
            self._generate(request, season)

    def _generate(self, request, season) -> None:
        """Generate the season's fixtures (leagues.services) and say how it went."""
        try:
            fixtures = services.fixtures_generate(season=season, by=request.user)
        except DomainError as refusal:
            self.message_user(request, f"{season}: {refusal_sentence(refusal)}", messages.ERROR)
            return
        rounds = len({fixture.round for fixture in fixtures})
        self.message_user(
            request,
            f"{season}: {len(fixtures)} fixtures in {rounds} rounds, the first on "
            f"{timezone.localtime(fixtures[0].starts_at):%a %d %b %Y at %H:%M}.",
            messages.SUCCESS,
        )
