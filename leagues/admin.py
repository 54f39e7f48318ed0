"""Django admin for the league: venues and their staff, players, teams, leagues, seasons, fixtures.

Who sees what:
- superusers (league admins) see and change everything, and run "Generate fixtures";
- a member of pub staff with "staff status" sees Fixtures (and their results, scoring/admin.py)
  at the venues they serve, and nothing else unless given Django permissions. Their
  StaffMembership is the grant: no model permission is needed for their venue's fixtures.

Every write with a rule goes through leagues.services; the forms here only show its refusals
next to the field.
"""

from importlib import import_module

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from simple_history.admin import SimpleHistoryAdmin

from games.engines.options import resolve_options
from scoring.kinds.convoy import games_in_fixture as convoy_games_in_fixture
from scoring.tiebreakers import TIE_BREAKERS, tie_breaker_chain

from . import services
from .models import (
    Entry,
    Fixture,
    Game,
    League,
    Player,
    Season,
    StaffMembership,
    Team,
    TeamMember,
    Venue,
)


def engine_options(game: str) -> tuple:
    """The OPTIONS declared by the game's engine module (games.engines.<game>)."""
    return import_module(f"games.engines.{game}").OPTIONS


def _sentence(error: Exception) -> str:
    """An engine's or a scoring module's message ("option 'x' must be…") as a sentence."""
    text = str(error).rstrip(".")
    return f"{text[:1].upper()}{text[1:]}."


def _add_errors(form, error: ValidationError) -> None:
    """Put a service's ValidationError next to its field, or above the form."""
    if hasattr(error, "error_dict"):
        for field, field_errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, field_errors)
    else:
        form.add_error(None, error)


# Venue-scoped access (shared with scoring/admin.py)


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
                raise PermissionDenied("This belongs to a venue you do not serve.")
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


class HistoryAdmin(SimpleHistoryAdmin):
    """History pages for whoever may view the record; reverting to an old version rewrites
    the record wholesale, so only superusers may do it."""

    def revert_disabled(self, request, obj=None):
        return not request.user.is_superuser or super().revert_disabled(request, obj)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST" and not request.user.is_superuser:
            raise PermissionDenied("Only league admins can revert a record to an old version.")
        request._history_revert = True
        return super().history_form_view(request, object_id, version_id, extra_context)


# Venues and their staff


class StaffMembershipInline(admin.TabularInline):
    model = StaffMembership
    extra = 1
    autocomplete_fields = ["user"]
    readonly_fields = ["granted_at"]
    verbose_name = "staff member"
    verbose_name_plural = "staff (may enter results and manage fixtures at this venue)"


@admin.register(Venue)
class VenueAdmin(HistoryAdmin):
    list_display = ["name", "address", "staff_count", "team_count"]
    search_fields = ["name", "address", "staff__username"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [StaffMembershipInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                staff_total=Count("staffmembership", distinct=True),
                team_total=Count("home_teams", distinct=True),
            )
        )

    @admin.display(description="staff", ordering="staff_total")
    def staff_count(self, venue):
        return venue.staff_total

    @admin.display(description="home teams", ordering="team_total")
    def team_count(self, venue):
        return venue.team_total


# Players and teams


@admin.register(Player)
class PlayerAdmin(HistoryAdmin):
    list_display = ["name", "slug", "user", "team_names"]
    search_fields = ["name", "slug", "user__username", "teams__name"]
    prepopulated_fields = {"slug": ["name"]}
    autocomplete_fields = ["user"]
    list_select_related = ["user"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("teams")

    @admin.display(description="teams")
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
                f"A team has exactly two players; this one would have {len(members)}."
            )
        if sorted(member["position"] for member in members) != [1, 2]:
            raise ValidationError("Put one player at position 1 and the other at position 2.")
        if members[0]["player"] == members[1]["player"]:
            raise ValidationError("A team's two players must be different people.")

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
    verbose_name = "player"
    verbose_name_plural = "players (exactly two: Conquian singles are 1 v 1 and 2 v 2)"


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

    @admin.display(description="players")
    def player_names(self, team):
        return " & ".join(member.player.name for member in team.members.all())

    def save_formset(self, request, form, formset, change):
        if isinstance(formset, TeamMemberFormSet):
            formset.save(commit=False)  # fills new/changed/deleted_objects for the admin log
            services.team_players_set(team=form.instance, players=formset.ordered_players())
            return
        super().save_formset(request, form, formset, change)


# Leagues and seasons


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "season_count"]
    list_filter = ["game"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(season_total=Count("seasons"))

    @admin.display(description="seasons", ordering="season_total")
    def season_count(self, league):
        return league.season_total


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
        if game != Game.CONVOY:
            if value:
                self.add_error("fixture_format", f"{Game(game).label} has no format options: {{}}.")
            return
        unknown = sorted(set(value) - {"games"})
        if unknown:
            self.add_error("fixture_format", f'Unknown key {unknown[0]!r}; only "games".')
            return
        try:
            convoy_games_in_fixture(value)
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


# Fixtures


class FixtureForm(forms.ModelForm):
    """Status and date changes become service calls (`operations`), checked here first."""

    reason = forms.CharField(
        required=False,
        max_length=services.REASON_MAX_LENGTH,
        widget=forms.TextInput(attrs={"size": 60}),
        help_text="Needed to postpone (shown with the fixture) or to void (kept in its "
        "history, up to 100 characters).",
    )
    admin_user = None  # set by FixtureAdmin.get_form

    class Meta:
        model = Fixture
        fields = ["season", "round", "home_team", "away_team", "venue", "starts_at", "status"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.operations = []
        if self.instance.pk and "status" in self.fields:
            self.fields["status"].choices = [
                (value, label)
                for value, label in Fixture.Status.choices
                if value in self._reachable_statuses()
            ]

    def _may_void(self) -> bool:
        try:
            services.ensure_can_manage_fixtures(user=self.admin_user)
        except PermissionDenied:
            return False
        return True

    def _reachable_statuses(self) -> set:
        current = self.instance.status
        reachable = {current}
        if current in (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED):
            reachable |= {Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED}
        if current != Fixture.Status.VOID and self._may_void():
            reachable.add(Fixture.Status.VOID)
        return reachable

    def clean(self):
        data = super().clean()
        fixture = self.instance
        if fixture.pk is None or self.errors:
            return data
        old, new = fixture.status, data.get("status", fixture.status)
        moved = "starts_at" in self.changed_data
        Status = Fixture.Status
        try:
            if new == old:
                if moved:
                    services.ensure_fixture_can_be_rescheduled(fixture)
                    self.operations.append(("reschedule", data["starts_at"]))
            elif new == Status.POSTPONED:
                if moved:
                    raise ValidationError(
                        {"starts_at": "Postponing keeps the date: postpone now, reschedule later."}
                    )
                reason = services.clean_reason(data.get("reason"))
                services.ensure_fixture_can_be_postponed(fixture)
                self.operations.append(("postpone", reason))
            elif new == Status.SCHEDULED:
                services.ensure_fixture_can_be_rescheduled(fixture)
                self.operations.append(("reschedule", data["starts_at"]))
            elif new == Status.VOID:
                if not self._may_void():
                    raise ValidationError({"status": "Only league admins can void a fixture."})
                if moved:
                    raise ValidationError({"starts_at": "Void the fixture without moving it."})
                reason = services.clean_reason(
                    data.get("reason"), max_length=services.VOID_REASON_MAX_LENGTH
                )
                services.ensure_fixture_can_be_voided(fixture)
                self.operations.append(("void", reason))
            else:
                raise ValidationError(
                    {"status": "A fixture becomes played when its result is entered."}
                )
        except ValidationError as error:
            _add_errors(self, error)
        if "venue" in self.changed_data and not self.errors:
            self.operations.append(("relocate", data["venue"].pk))
        return data


@admin.register(Fixture)
class FixtureAdmin(VenueScopedAdminMixin, HistoryAdmin):
    form = FixtureForm
    list_display = ["fixture", "season", "round", "starts_at", "venue", "status"]
    list_filter = [
        ("season", admin.RelatedOnlyFieldListFilter),
        "round",
        "status",
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

    @admin.display(description="fixture", ordering="home_team__name")
    def fixture(self, fixture):
        return f"{fixture.home_team} v {fixture.away_team}"

    @admin.display(description="results")
    def results(self, fixture):
        count = fixture.result_versions.count()
        try:
            url = reverse("admin:scoring_resultversion_changelist")
        except NoReverseMatch:
            return f"{count} version(s)"
        return format_html(
            '<a href="{}?fixture__id__exact={}">{} version{} of the result</a>',
            url,
            fixture.pk,
            count,
            "" if count == 1 else "s",
        )

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
        if not request.user.is_superuser:
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
        calls = {
            "reschedule": lambda value: services.fixture_reschedule(
                fixture_id=obj.pk, starts_at=value, by=request.user
            ),
            "postpone": lambda value: services.fixture_postpone(
                fixture_id=obj.pk, reason=value, by=request.user
            ),
            "void": lambda value: services.fixture_void(
                fixture_id=obj.pk, reason=value, by=request.user
            ),
            "relocate": lambda value: services.fixture_relocate(
                fixture_id=obj.pk, venue_id=value, by=request.user
            ),
        }
        try:
            for operation, value in form.operations:
                calls[operation](value)
        except (ValidationError, PermissionDenied) as error:
            # Someone changed the fixture between loading the form and saving it.
            request._fixture_change_refused = True
            reason = " ".join(getattr(error, "messages", [str(error)]))
            self.message_user(request, f"Not saved: {reason}", messages.ERROR)

    def log_change(self, request, obj, message):
        if getattr(request, "_fixture_change_refused", False):
            return None
        return super().log_change(request, obj, message)

    def response_change(self, request, obj):
        if getattr(request, "_fixture_change_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)
