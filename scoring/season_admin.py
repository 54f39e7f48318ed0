"""Admin of seasons: their teams, fixtures and rules (rule options, fixture format, points,
tie-breakers). Registered by scoring because the rules are scoring's (the standings and the
game kinds check them); leagues/admin/ holds the rest of the league's admin.
"""

from importlib import import_module

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from games.engines.options import resolve_options
from leagues import services
from leagues.admin import HistoryAdmin
from leagues.models import Entry, Game, Season

from .kinds import get_kind
from .tiebreakers import TIE_BREAKERS, tie_breaker_chain


def engine_options(game: str) -> tuple:
    """The OPTIONS declared by the game's engine module (games.engines.<game>)."""
    return import_module(f"games.engines.{game}").OPTIONS


def _sentence(error: Exception) -> str:
    """An engine's or a scoring module's message ("option 'x' must be…") as a sentence."""
    text = str(error).rstrip(".")
    return f"{text[:1].upper()}{text[1:]}."


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            "league",
            "name",
            "slug",
            "starts_on",
            "rule_options",
            "fixture_format",
            "points_win",
            "points_draw",
            "points_loss",
            "tie_breakers",
        ]
        help_texts = {
            "rule_options": 'The game\'s rule options by name, e.g. {"end_score": 66}; '
            "leave {} for the defaults (listed below).",
            "fixture_format": 'Convoy: {"games": N} for best of N (default 1). '
            "Корова and Conquian: {}.",
            "tie_breakers": "Keys that order the table, in turn: "
            + ", ".join(f'"{key}" ({cls.name})' for key, cls in TIE_BREAKERS.items())
            + ".",
        }

    def clean_rule_options(self):
        value = self.cleaned_data.get("rule_options")
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ValidationError('Give the options as an object, e.g. {"end_score": 66}.')
        return value

    def clean_fixture_format(self):
        value = self.cleaned_data.get("fixture_format")
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ValidationError('Give the format as an object, e.g. {"games": 3}.')
        return value

    def clean_tie_breakers(self):
        value = self.cleaned_data.get("tie_breakers")
        try:
            tie_breaker_chain(value)
        except ValueError as error:
            raise ValidationError(_sentence(error))
        return value

    def clean(self):
        data = super().clean()
        league = data.get("league")
        if league is not None and "rule_options" in data:
            try:
                resolve_options(engine_options(league.game), data["rule_options"])
            except ValueError as error:
                self.add_error("rule_options", _sentence(error))
        if league is not None and "fixture_format" in data:
            self._check_fixture_format(league.game, data["fixture_format"])
        points = [data.get(name) for name in ("points_win", "points_draw", "points_loss")]
        if None not in points and not points[0] >= points[1] >= points[2]:
            self.add_error("points_draw", "Points must go win ≥ draw ≥ loss.")
        return data

    def _check_fixture_format(self, game: str, value: dict) -> None:
        try:
            get_kind(game).check_fixture_format(value)
        except ValueError as error:
            self.add_error("fixture_format", _sentence(error))


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["team"]
    verbose_name = "team entered"
    verbose_name_plural = "teams entered (generate fixtures again after changing them)"


@admin.register(Season)
class SeasonAdmin(HistoryAdmin):
    form = SeasonForm
    list_display = ["__str__", "league", "game_name", "starts_on", "team_count", "fixture_count"]
    list_filter = ["league__game", "league", "starts_on"]
    search_fields = ["name", "slug", "league__name", "teams__name"]
    list_select_related = ["league"]
    date_hierarchy = "starts_on"
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EntryInline]
    actions = ["generate_fixtures"]
    readonly_fields = ["effective_rule_options", "options_per_game", "fixtures_by_round"]
    fieldsets = [
        (None, {"fields": ["league", "name", "slug", "starts_on"]}),
        (
            "Rules",
            {
                "fields": [
                    "rule_options",
                    "effective_rule_options",
                    "options_per_game",
                    "fixture_format",
                    ("points_win", "points_draw", "points_loss"),
                    "tie_breakers",
                ]
            },
        ),
        ("Fixtures", {"fields": ["fixtures_by_round"]}),
    ]

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
        return Game(season.league.game).label

    @admin.display(description="teams", ordering="team_total")
    def team_count(self, season):
        return season.team_total

    @admin.display(description="fixtures", ordering="fixture_total")
    def fixture_count(self, season):
        return season.fixture_total

    @admin.display(description="effective rule options")
    def effective_rule_options(self, season):
        if season.pk is None:
            return "—"
        try:
            resolved = resolve_options(engine_options(season.game), season.rule_options)
        except ValueError as error:
            return f"Invalid: {error}"
        return ", ".join(f"{name} = {value!r}" for name, value in resolved.items())

    @admin.display(description="options per game")
    def options_per_game(self, season):
        rows = []
        for game in Game:
            for option in engine_options(game.value):
                allowed = (
                    ", ".join(map(str, option.choices))
                    if option.choices
                    else f"{option.minimum if option.minimum is not None else '…'}–"
                    f"{option.maximum if option.maximum is not None else '…'}"
                    if option.kind is int
                    else "true or false"
                    if option.kind is bool
                    else "text"
                )
                rows.append((game.label, option.name, repr(option.default), allowed))
        return format_html(
            '<table><thead><tr><th scope="col">Game</th><th scope="col">Option</th>'
            '<th scope="col">Default</th><th scope="col">Allowed</th></tr></thead>'
            "<tbody>{}</tbody></table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

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
        except PermissionDenied:
            return False
        return True

    @admin.action(description="Generate fixtures (double round robin)", permissions=["generate"])
    def generate_fixtures(self, request, queryset):
        for season in queryset.order_by("pk"):
            try:
                fixtures = services.fixtures_generate(season=season, by=request.user)
            except (ValidationError, PermissionDenied) as error:
                reason = " ".join(getattr(error, "messages", [str(error)]))
                self.message_user(request, f"{season}: {reason}", messages.ERROR)
                continue
            rounds = len({fixture.round for fixture in fixtures})
            self.message_user(
                request,
                f"{season}: {len(fixtures)} fixtures in {rounds} rounds, the first on "
                f"{timezone.localtime(fixtures[0].starts_at):%a %d %b %Y at %H:%M}.",
                messages.SUCCESS,
            )
