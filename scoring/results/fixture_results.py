"""Reads of fixtures with their current results, for the public pages and the read API.

Every function here costs a fixed number of queries, whatever the number of teams, fixtures or
versions: related rows come with select_related, lists of children with prefetch_related, and
the current result of each fixture with one Prefetch of the current ResultVersion rows.
Functions that look a row up by id raise the model's DoesNotExist; views turn it into 404.
"""

import datetime
from dataclasses import dataclass, field
from itertools import groupby

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from leagues.models import Fixture, Season, Venue
from leagues.selectors import division_fixtures_q, members_prefetch
from scoring.models import ResultVersion

MAX_ID = 2**31  # ids a sheet names are looked up only below this: no query overflows


def _current_result_prefetch() -> Prefetch:
    """The current result of each fixture, without its (possibly large) sheet."""
    return Prefetch(
        "result_versions",
        queryset=ResultVersion.objects.filter(is_current=True).defer("sheet"),
        to_attr="current_results",
    )


def fixtures_with_results(queryset: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """Fixtures with teams, venue, season and league joined, and the current result prefetched.

    Use `fixture_result(fixture)` to read the prefetched result (None when there is none).
    """
    return queryset.select_related(
        "home_team", "away_team", "venue", "season__league", "division"
    ).prefetch_related(_current_result_prefetch())


def fixture_result(fixture: Fixture) -> ResultVersion | None:
    """The current result of a fixture loaded through `fixtures_with_results`."""
    results = getattr(fixture, "current_results", None)
    return results[0] if results else None


def _with_result(fixtures) -> list[Fixture]:
    """Set `fixture.result` (the current result or None), `fixture.counts` and
    `fixture.unconfirmed` on each fixture.

    A result counts (is shown as the score, and in records) once it is confirmed, unless the
    fixture is void: the same rule as ResultVersion.objects.counted(), which the table reads.
    A result awaiting confirmation or disputed is `unconfirmed`: shown as such, not counted.
    """
    fixtures = list(fixtures)
    for fixture in fixtures:
        fixture.result = fixture_result(fixture)
        shown = fixture.result is not None and fixture.status != Fixture.Status.VOID
        confirmed = shown and fixture.result.confirmation == ResultVersion.Confirmation.CONFIRMED
        fixture.counts = confirmed
        fixture.unconfirmed = shown and not confirmed
    return fixtures


def fixtures_recent_results(*, limit: int = 6, season: Season | None = None) -> list[Fixture]:
    """The latest played fixtures with a result, newest first."""
    queryset = (
        Fixture.objects.filter(result_versions__is_current=True)
        .exclude(status=Fixture.Status.VOID)
        .order_by("-starts_at", "-pk")
    )
    if season is not None:
        queryset = queryset.filter(season=season)
    return _with_result(fixtures_with_results(queryset)[:limit])


def fixtures_upcoming(
    *, limit: int = 6, season: Season | None = None, venue: Venue | None = None
) -> list[Fixture]:
    """Scheduled or postponed fixtures from today on, soonest first."""
    today = timezone.localdate()
    start = timezone.make_aware(datetime.datetime.combine(today, datetime.time.min))
    queryset = Fixture.objects.filter(
        status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED], starts_at__gte=start
    ).order_by("starts_at", "pk")
    if season is not None:
        queryset = queryset.filter(season=season)
    if venue is not None:
        queryset = queryset.filter(venue=venue)
    return _with_result(fixtures_with_results(queryset)[:limit])


def venue_recent_results(*, venue: Venue, limit: int = 6) -> list[Fixture]:
    queryset = (
        Fixture.objects.filter(venue=venue, result_versions__is_current=True)
        .exclude(status=Fixture.Status.VOID)
        .order_by("-starts_at", "-pk")
    )
    return _with_result(fixtures_with_results(queryset)[:limit])


@dataclass
class FixtureRound:
    number: int
    fixtures: list[Fixture] = field(default_factory=list)

    @property
    def played(self) -> int:
        return sum(1 for fixture in self.fixtures if fixture.counts)


def season_fixtures_by_round(
    *, season: Season, division_id: int | None = None
) -> list[FixtureRound]:
    """Every fixture of the season (or of one of its divisions: its league fixtures and
    play-offs) with its current result, grouped by round (two queries; three for a
    division). Cup ties are left out: their rounds are the cup's, shown on its bracket page."""
    queryset = (
        Fixture.objects.filter(season=season)
        .exclude(stage=Fixture.Stage.CUP)
        .order_by("round", "starts_at", "pk")
    )
    if division_id is not None:
        queryset = queryset.filter(division_fixtures_q(division_id=division_id))
    fixtures = _with_result(fixtures_with_results(queryset))
    return [
        FixtureRound(number=number, fixtures=list(group))
        for number, group in groupby(fixtures, key=lambda fixture: fixture.round)
    ]


@dataclass
class SeasonFixtures:
    season: Season
    fixtures: list[Fixture]


def team_fixtures_by_season(*, team_ids: list[int]) -> list[SeasonFixtures]:
    """The fixtures of these teams with their results, grouped by season (newest season first).

    Each fixture carries `side` ("home"/"away" for these teams), `opponent`, and `outcome`
    ("W", "D", "L" for won, drawn, lost; "" while it has no result that counts).
    """
    queryset = Fixture.objects.filter(
        Q(home_team_id__in=team_ids) | Q(away_team_id__in=team_ids)
    ).order_by("-season__starts_on", "season_id", "starts_at", "pk")
    fixtures = _with_result(fixtures_with_results(queryset))
    team_ids = set(team_ids)
    for fixture in fixtures:
        fixture.side = "home" if fixture.home_team_id in team_ids else "away"
        fixture.opponent = fixture.away_team if fixture.side == "home" else fixture.home_team
        fixture.outcome = ""
        if fixture.counts:
            winner = fixture.result.winner
            fixture.outcome = "D" if winner == "draw" else ("W" if winner == fixture.side else "L")
    return [
        SeasonFixtures(season=season, fixtures=list(group))
        for season, group in groupby(fixtures, key=lambda fixture: fixture.season)
    ]


def player_substitute_fixtures(*, player_id: int) -> list[Fixture]:
    """The fixtures the player played as a substitute (a registered reserve standing in, as the
    current result's lineup records it), newest first, each with `.result` and `.team` (the
    team they played for). Two queries."""
    candidates = (
        Fixture.objects.filter(
            Q(home_team__entries__reserves__player_id=player_id)
            | Q(away_team__entries__reserves__player_id=player_id),
            result_versions__is_current=True,
        )
        .exclude(status=Fixture.Status.VOID)
        .distinct()
        .order_by("-starts_at", "-pk")
    )
    played = []
    for fixture in _with_result(fixtures_with_results(candidates)):
        lineup = fixture.result.lineup or {}
        if player_id not in lineup.get("substitutes", []):
            continue
        home = player_id in lineup.get("home", [])
        fixture.team = fixture.home_team if home else fixture.away_team
        played.append(fixture)
    return played


def fixture_get(*, pk: int) -> Fixture:
    """A fixture with its season, venue, teams and their players, and its current result.

    The current result (with its sheet) is `fixture.result`, or None; `fixture.version_count`
    says how many versions were saved.
    """
    fixture = (
        Fixture.objects.select_related("season__league", "venue", "home_team", "away_team")
        .prefetch_related(
            members_prefetch("home_team__"),
            members_prefetch("away_team__"),
            Prefetch(
                "result_versions",
                queryset=ResultVersion.objects.filter(is_current=True).select_related("created_by"),
                to_attr="current_results",
            ),
        )
        .annotate(version_count=Count("result_versions"))
        .get(pk=pk)
    )
    fixture.result = fixture_result(fixture)
    return fixture


def fixture_queryset() -> QuerySet[Fixture]:
    """Fixtures in the model's order (season, round, date) with their current results, and a
    cup tie's round and cup (for leagues.competitions.fixture_competition)."""
    return fixtures_with_results(Fixture.objects.all()).select_related("cup_tie__round__cup")
