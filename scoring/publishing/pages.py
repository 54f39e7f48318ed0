"""Public pages that show results: the home page, a season's table and fixtures, team, player
and venue pages, and a fixture with its result (no login). Reads go through leagues.selectors
(who and what) and scoring's reads (results, standings, records); an address that names
nothing is the 404 page (config.page_errors)."""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.page_cache import public_page
from leagues import selectors as leagues_selectors
from leagues.models import Fixture
from leagues.permissions import can_enter_results
from scoring.kinds import get_kind
from scoring.publishing.print_sheets import venue_seasons
from scoring.publishing.season_table import season_tables_shown
from scoring.publishing.selectors import fixture_result_display
from scoring.results import fixture_results
from scoring.results.lineup_selectors import result_lineup_players
from scoring.results.selectors import fixture_result_actions, season_unconfirmed_results
from scoring.season_rules.rules import season_rules_describe
from scoring.standings.figures import player_figures_by_game
from scoring.standings.records import record_by_game


@public_page
def home(request):
    return render(
        request,
        "scoring/home.html",
        {
            "leagues": leagues_selectors.league_list(),
            "recent": fixture_results.fixtures_recent_results(limit=6),
            "upcoming": fixture_results.fixtures_upcoming(limit=6),
        },
    )


@public_page
def season_detail(request, league_slug, season_slug):
    season = leagues_selectors.season_get(league_slug=league_slug, season_slug=season_slug)
    tables = season_tables_shown(season=season)
    return render(
        request,
        "scoring/season_detail.html",
        {
            "season": season,
            "league": season.league,
            "tables": tables,
            # Each table with the results it does not count yet (its division's league fixtures)
            "tables_uncounted": [
                (
                    table,
                    season_unconfirmed_results(
                        season_id=season.pk, division=table.division, top=index == 0
                    ),
                )
                for index, table in enumerate(tables)
            ],
            "progress_words": _progress_words(leagues_selectors.season_progress(season=season)),
            "rules": season_rules_describe(season=season),
            "recent": fixture_results.fixtures_recent_results(limit=5, season=season),
            "upcoming": fixture_results.fixtures_upcoming(limit=5, season=season),
            "postponed": leagues_selectors.season_postponed(season=season),
        },
    )


def _progress_words(progress: dict[str, int]) -> str:
    """ "4 of 6 fixtures played · 1 postponed" """
    words = ngettext(
        "%(played)d of %(total)d fixture played",
        "%(played)d of %(total)d fixtures played",
        progress["total"],
    ) % {"played": progress["played"], "total": progress["total"]}
    if progress["postponed"]:
        words += " · " + _("%(count)d postponed") % {"count": progress["postponed"]}
    return words


@public_page(query=("division",))
def season_fixtures(request, league_slug, season_slug):
    """The season's fixtures and results by round; ?division=<id> shows one division's."""
    season = leagues_selectors.season_get(league_slug=league_slug, season_slug=season_slug)
    divisions = leagues_selectors.season_divisions(season=season)
    asked = request.GET.get("division", "")
    division = next((d for d in divisions if str(d.pk) == asked), None)
    if asked and division is None:
        raise Http404("No such division")
    return render(
        request,
        "scoring/season_fixtures.html",
        {
            "season": season,
            "league": season.league,
            "divisions": divisions if len(divisions) > 1 else [],
            "division": division,
            "rounds": fixture_results.season_fixtures_by_round(
                season=season, division_id=division.pk if division else None
            ),
        },
    )


@public_page
def team_detail(request, slug):
    team = leagues_selectors.team_get(slug=slug)
    return render(
        request,
        "scoring/team_detail.html",
        {
            "team": team,
            "entries": leagues_selectors.team_entries(team=team),
            "records": record_by_game(team_ids=[team.pk]),
            "seasons": fixture_results.team_fixtures_by_season(team_ids=[team.pk]),
            "upcoming_availability": leagues_selectors.team_availability_upcoming(team=team),
        },
    )


@public_page
def player_detail(request, slug):
    player = leagues_selectors.player_get(slug=slug)
    team_ids = [membership.team_id for membership in player.memberships.all()]
    return render(
        request,
        "scoring/player_detail.html",
        {
            "player": player,
            "memberships": player.memberships.all(),
            "own_figures": player_figures_by_game(player=player),
            "records": record_by_game(team_ids=team_ids),
            "seasons": fixture_results.team_fixtures_by_season(team_ids=team_ids),
            "as_substitute": fixture_results.player_substitute_fixtures(player_id=player.pk),
        },
    )


@public_page
def venue_detail(request, slug):
    venue = leagues_selectors.venue_get(slug=slug)
    return render(
        request,
        "scoring/venue_detail.html",
        {
            "venue": venue,
            "teams": venue.home_teams.all(),
            "upcoming": fixture_results.fixtures_upcoming(limit=20, venue=venue),
            "recent": fixture_results.venue_recent_results(venue=venue, limit=6),
            "seasons": venue_seasons(venue=venue),
        },
    )


@public_page
def fixture_detail(request, pk):
    fixture = fixture_results.fixture_get(pk=pk)
    result = fixture_results.fixture_result(fixture)
    played = result is not None and fixture.status != Fixture.Status.VOID
    may_enter = can_enter_results(user=request.user, venue_id=fixture.venue_id)
    actions = fixture_result_actions(fixture=fixture, result=result, user=request.user)
    return render(
        request,
        "scoring/fixture_detail.html",
        {
            "fixture": fixture,
            "season": fixture.season,
            "league": fixture.season.league,
            "kind": get_kind(fixture.season.game),
            "result": result,
            "played": played,
            "layout": fixture_result_display(fixture=fixture, result=result) if played else None,
            "lineup": result_lineup_players(version=result) if played else None,
            "entry_url": reverse("result-entry", args=[fixture.pk]) if may_enter else None,
            "history_url": reverse("result-history", args=[fixture.pk]) if may_enter else None,
            "schedule": leagues_selectors.fixture_schedule(fixture=fixture, user=request.user),
            "actions": actions,
            "player_entry_url": (
                reverse("result-entry", args=[fixture.pk]) if actions.may_enter else None
            ),
        },
    )
