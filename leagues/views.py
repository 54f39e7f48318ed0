"""Public pages: no login. Each view reads through leagues.selectors / scoring.selectors."""

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from scoring.selectors import season_standings

from . import selectors
from .models import Fixture, Game
from .permissions import can_enter_results

# How each game's own units read in tables: (short column label, what it counts, better).
GAME_UNITS = {
    Game.CONVOY: {"unit": "convoys", "for": "Convoys won", "against": "Convoys conceded"},
    Game.KOROVA: {
        "unit": "heads",
        "for": "Penalty heads taken",
        "against": "Heads taken by opponents",
    },
    Game.CONQUIAN: {
        "unit": "deal points",
        "for": "Deal points won",
        "against": "Deal points conceded",
    },
}


def _or_404(read, **kwargs):
    try:
        return read(**kwargs)
    except ObjectDoesNotExist:
        raise Http404("Not found")


def home(request):
    return render(
        request,
        "home.html",
        {
            "leagues": selectors.league_list(),
            "recent": selectors.fixtures_recent_results(limit=6),
            "upcoming": selectors.fixtures_upcoming(limit=6),
        },
    )


def league_detail(request, slug):
    league = _or_404(selectors.league_get, slug=slug)
    return render(request, "leagues/league_detail.html", {"league": league})


def season_detail(request, league_slug, season_slug):
    season = _or_404(selectors.season_get, league_slug=league_slug, season_slug=season_slug)
    return render(
        request,
        "leagues/season_detail.html",
        {
            "season": season,
            "league": season.league,
            "units": GAME_UNITS[season.game],
            "standings": season_standings(season=season),
            "progress": selectors.season_progress(season=season),
            "rules": selectors.season_rules(season=season),
            "recent": selectors.fixtures_recent_results(limit=5, season=season),
            "upcoming": selectors.fixtures_upcoming(limit=5, season=season),
        },
    )


def season_fixtures(request, league_slug, season_slug):
    season = _or_404(selectors.season_get, league_slug=league_slug, season_slug=season_slug)
    return render(
        request,
        "leagues/season_fixtures.html",
        {
            "season": season,
            "league": season.league,
            "units": GAME_UNITS[season.game],
            "rounds": selectors.season_fixtures_by_round(season=season),
        },
    )


def team_detail(request, slug):
    team = _or_404(selectors.team_get, slug=slug)
    return render(
        request,
        "leagues/team_detail.html",
        {
            "team": team,
            "entries": selectors.team_entries(team=team),
            "records": selectors.record_by_game(team_ids=[team.pk]),
            "seasons": selectors.team_fixtures_by_season(team_ids=[team.pk]),
        },
    )


def player_detail(request, slug):
    player = _or_404(selectors.player_get, slug=slug)
    team_ids = [membership.team_id for membership in player.memberships.all()]
    return render(
        request,
        "leagues/player_detail.html",
        {
            "player": player,
            "memberships": player.memberships.all(),
            "records": selectors.record_by_game(team_ids=team_ids),
            "seasons": selectors.team_fixtures_by_season(team_ids=team_ids),
            "team_ids": team_ids,
        },
    )


def venue_detail(request, slug):
    venue = _or_404(selectors.venue_get, slug=slug)
    return render(
        request,
        "leagues/venue_detail.html",
        {
            "venue": venue,
            "teams": venue.home_teams.all(),
            "upcoming": selectors.fixtures_upcoming(limit=20, venue=venue),
            "recent": selectors.venue_recent_results(venue=venue, limit=6),
        },
    )


def fixture_detail(request, pk):
    fixture = _or_404(selectors.fixture_get, pk=pk)
    result = fixture.result
    played = result is not None and fixture.status != Fixture.Status.VOID
    may_enter = can_enter_results(user=request.user, venue_id=fixture.venue_id)
    return render(
        request,
        "leagues/fixture_detail.html",
        {
            "fixture": fixture,
            "season": fixture.season,
            "league": fixture.season.league,
            "units": GAME_UNITS[fixture.season.game],
            "result": result,
            "played": played,
            "summary": (
                selectors.fixture_result_summary(fixture=fixture, result=result) if played else None
            ),
            "entry_url": reverse("result-entry", args=[fixture.pk]) if may_enter else None,
            "history_url": reverse("result-history", args=[fixture.pk]) if may_enter else None,
        },
    )
