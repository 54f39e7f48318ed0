"""Public pages that show results: the home page, a season's table and fixtures, team, player
and venue pages, and a fixture with its result (no login). Reads go through leagues.selectors
(who and what) and scoring's reads (results, standings, records)."""

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from leagues import selectors as leagues_selectors
from leagues.models import Fixture
from leagues.permissions import can_enter_results

from . import fixture_results
from .kind_figures import player_figures_by_game, season_table
from .kinds import get_kind
from .numbers import signed_number
from .print_sheets import venue_seasons
from .records import record_by_game
from .season_rules import season_rules_describe

FORM_WORDS = {"W": "Won", "D": "Drawn", "L": "Lost"}


def _or_404(read, **kwargs):
    try:
        return read(**kwargs)
    except ObjectDoesNotExist:
        raise Http404("Not found")


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


def season_detail(request, league_slug, season_slug):
    season = _or_404(leagues_selectors.season_get, league_slug=league_slug, season_slug=season_slug)
    kind = get_kind(season.game)
    form_words = _form_words(kind)
    standings = season_table(season=season)
    table = [
        (
            line.row,
            [
                (column, _shown(column, value))
                for column, value in zip(standings.columns, line.cells)
            ],
            [(letter, *form_words[letter]) for letter in line.row.form],
        )
        for line in standings.rows
    ]
    return render(
        request,
        "scoring/season_detail.html",
        {
            "season": season,
            "league": season.league,
            "kind": kind,
            "columns": standings.columns,
            "table": table,
            "form_words": list(form_words.values()),
            "progress": leagues_selectors.season_progress(season=season),
            "rules": season_rules_describe(season=season),
            "recent": fixture_results.fixtures_recent_results(limit=5, season=season),
            "upcoming": fixture_results.fixtures_upcoming(limit=5, season=season),
        },
    )


def season_fixtures(request, league_slug, season_slug):
    season = _or_404(leagues_selectors.season_get, league_slug=league_slug, season_slug=season_slug)
    return render(
        request,
        "scoring/season_fixtures.html",
        {
            "season": season,
            "league": season.league,
            "rounds": fixture_results.season_fixtures_by_round(season=season),
        },
    )


def team_detail(request, slug):
    team = _or_404(leagues_selectors.team_get, slug=slug)
    return render(
        request,
        "scoring/team_detail.html",
        {
            "team": team,
            "entries": leagues_selectors.team_entries(team=team),
            "records": record_by_game(team_ids=[team.pk]),
            "seasons": fixture_results.team_fixtures_by_season(team_ids=[team.pk]),
        },
    )


def player_detail(request, slug):
    player = _or_404(leagues_selectors.player_get, slug=slug)
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
        },
    )


def venue_detail(request, slug):
    venue = _or_404(leagues_selectors.venue_get, slug=slug)
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


def fixture_detail(request, pk):
    fixture = _or_404(fixture_results.fixture_get, pk=pk)
    result = fixture.result
    played = result is not None and fixture.status != Fixture.Status.VOID
    may_enter = can_enter_results(user=request.user, venue_id=fixture.venue_id)
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
            "display": fixture_results.fixture_result_display(fixture=fixture, result=result)
            if played
            else None,
            "entry_url": reverse("result-entry", args=[fixture.pk]) if may_enter else None,
            "history_url": reverse("result-history", args=[fixture.pk]) if may_enter else None,
        },
    )


def _shown(column, value) -> str:
    """A table cell: a difference with its sign, so that +3 and −3 read apart."""
    return signed_number(value, plus=column.key == "difference")


def _form_words(kind) -> dict[str, tuple[str, str]]:
    """The form's letters as the game's table names them (Convoy's drawn fixture is a
    stalemate, "S"): letter -> (shown, word)."""
    drawn = next((column for column in kind.standings_columns if column.key == "drawn"), None)
    words = {letter: (letter, word) for letter, word in FORM_WORDS.items()}
    if drawn is not None:
        words["D"] = (drawn.label, drawn.explanation.split(":")[0])
    return words
