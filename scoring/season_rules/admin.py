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
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext, npgettext, pgettext
from django.utils.translation import gettext_lazy as _

from config.errors import DomainError, Forbidden, add_refusal_to_form, refusal_sentence
from leagues import services
from leagues.admin import HistoryAdmin
from leagues.models import League, Season
from leagues.permissions import NOT_LEAGUE_ADMIN, is_league_admin
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.season_rules.entries_admin import DivisionInline, EntryInline
from scoring.season_rules.forms import (
    MATCH_NIGHT_FIELDS,
    TIE_BREAKER_FIELDS,
    RolloverForm,
    SeasonForm,
)
from scoring.season_rules.rules import season_rules_set
from scoring.season_rules.selectors import (
    rollover_eligibility_clash,
    season_rollover_plan,
    season_unplayed_count,
)
from scoring.season_rules.services import (
    season_rollover,
)


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
    inlines = [DivisionInline, EntryInline]
    actions = ["generate_fixtures", "roll_over"]
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
        fieldsets = [(None, {"fields": ["league", "name", "slug", "starts_on", "language"]})]
        if game is None:
            fieldsets.append(
                (
                    gettext("Rules"),
                    {
                        "fields": rules,
                        "description": gettext("Save the season to set its game's options."),
                    },
                )
            )
        else:
            kind = get_kind(game)
            fieldsets.append(
                (
                    gettext("%(game)s rules") % {"game": kind.label},
                    {
                        "fields": [f"option_{option.name}" for option in kind.season_options]
                        + [f"format_{option.name}" for option in kind.fixture_format_options],
                        "description": gettext(
                            "Leave an option blank to follow the game's default."
                        ),
                    },
                )
            )
            fieldsets.append((gettext("League points and order"), {"fields": rules}))
        fieldsets.append((gettext("Match night"), {"fields": MATCH_NIGHT_FIELDS}))
        if obj is not None:
            fieldsets.append((gettext("Fixtures"), {"fields": ["fixtures_by_round"]}))
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

    @admin.display(description=_("game"), ordering="league__game")
    def game_name(self, season):
        return season.league.get_game_display()

    @admin.display(description=_("teams"), ordering="team_total")
    def team_count(self, season):
        return season.team_total

    @admin.display(description=_("fixtures"), ordering="fixture_total")
    def fixture_count(self, season):
        return season.fixture_total

    def save_model(self, request, obj, form, change):
        if getattr(request, "_history_revert", False):
            super().save_model(request, obj, form, change)
            return
        rules = form.season_rules
        # A new season's divisions come from the inline; save_related ensures one.
        obj._divisions_follow = not change
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
            self.message_user(
                request, gettext("Not saved: %(refusal)s") % {"refusal": reason}, messages.ERROR
            )

    def save_related(self, request, form, formsets, change):
        if not getattr(request, "_season_change_refused", False):
            super().save_related(request, form, formsets, change)
            services.season_divisions_ensure(season=form.instance, by=request.user)

    def get_urls(self):
        rollover = path(
            "<int:season_id>/rollover/",
            self.admin_site.admin_view(self.rollover_view),
            name="leagues_season_rollover",
        )
        return [rollover, *super().get_urls()]

    @admin.action(description=_("Roll over into the next season (preview first)"))
    def roll_over(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, gettext("Choose one season to roll over."), messages.ERROR)
            return None
        return HttpResponseRedirect(
            reverse("admin:leagues_season_rollover", args=[queryset.get().pk])
        )

    def rollover_view(self, request, season_id: int):
        """The rollover's preview (GET, or POST without confirming) and, once confirmed, the
        new season (scoring.season_rules.services.season_rollover)."""
        if not is_league_admin(user=request.user):
            raise PermissionDenied(NOT_LEAGUE_ADMIN)
        season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
        form = RolloverForm(request.POST or None, initial=RolloverForm.initial_for(season))
        plan, refusal, clash = None, None, None
        if season.next_season_id is None:
            try:
                plan = season_rollover_plan(season=season)
            except DomainError as error:
                refusal = refusal_sentence(error)
            else:
                clash = rollover_eligibility_clash(plan=plan)
        if request.method == "POST" and "_confirm" in request.POST and form.is_valid():
            try:
                successor = season_rollover(
                    season_id=season.pk, by=request.user, **form.cleaned_data
                )
            except DomainError as error:
                add_refusal_to_form(form, error)
            else:
                self.message_user(
                    request,
                    gettext("%(season)s created from %(previous)s.")
                    % {"season": successor, "previous": season},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(
                    reverse("admin:leagues_season_change", args=[successor.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Roll %(season)s over into the next season") % {"season": season},
            "season": season,
            "form": form,
            "plan": plan,
            "refusal": refusal,
            "clash": clash,
            "unplayed": season_unplayed_count(season=season) if plan is not None else 0,
        }
        return TemplateResponse(request, "scoring/admin/season_rollover.html", context)

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
                request,
                gettext("%(season)s added: now set its game's options, then generate its fixtures.")
                % {"season": obj},
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

    @admin.display(description=_("fixtures"))
    def fixtures_by_round(self, season):
        """The season's fixtures, read-only, each linking to its own page. Shown as a table
        rather than a formset so that a 20-team season (380 fixtures) posts no extra fields."""
        if season.pk is None:
            return gettext("Save the season, enter its teams, then run “Generate fixtures”.")
        fixtures = season.fixtures.select_related("home_team", "away_team", "venue").order_by(
            "round", "starts_at", "pk"
        )
        rows = [
            (
                fixture.round,
                reverse("admin:leagues_fixture_change", args=[fixture.pk]),
                gettext("%(home)s v %(away)s")
                % {"home": fixture.home_team, "away": fixture.away_team},
                fixture.venue,
                date_format(
                    timezone.localtime(fixture.starts_at), pgettext("date format", "D j M Y, H:i")
                ),
                fixture.get_status_display(),
            )
            for fixture in fixtures
        ]
        if not rows:
            return gettext(
                "No fixtures yet: select the season in the list and run “Generate fixtures”."
            )
        return format_html(
            '<table><thead><tr><th scope="col">{}</th><th scope="col">{}</th>'
            '<th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th>'
            "</tr></thead><tbody>{}</tbody></table>",
            pgettext("league round", "Round"),
            gettext("Fixture"),
            gettext("Venue"),
            gettext("Starts"),
            gettext("Status"),
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

    @admin.action(description=_("Generate fixtures (double round robin)"), permissions=["generate"])
    def generate_fixtures(self, request, queryset):
        for season in queryset.order_by("pk"):
            self._generate(request, season)

    def _generate(self, request, season) -> None:
        """Generate the season's fixtures (leagues.services) and say how it went."""
        try:
            fixtures = services.fixtures_generate(season=season, by=request.user)
        except DomainError as refusal:
            self.message_user(
                request,
                gettext("%(season)s: %(refusal)s")
                % {"season": season, "refusal": refusal_sentence(refusal)},
                messages.ERROR,
            )
            return
        rounds = len({fixture.round for fixture in fixtures})
        in_rounds = npgettext(
            "fixtures generated in", "in %(count)d round", "in %(count)d rounds", rounds
        ) % {"count": rounds}
        first = date_format(
            timezone.localtime(fixtures[0].starts_at), pgettext("date format", "D j M Y, H:i")
        )
        self.message_user(
            request,
            ngettext(
                "%(season)s: %(count)d fixture %(in_rounds)s, the first on %(first)s.",
                "%(season)s: %(count)d fixtures %(in_rounds)s, the first on %(first)s.",
                len(fixtures),
            )
            % {"season": season, "count": len(fixtures), "in_rounds": in_rounds, "first": first},
            messages.SUCCESS,
        )
