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

from leagues.models import Fixture, Season, Team, Venue
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


@dataclass(frozen=True)
class ListedFixture:
    """A fixture as a page lists it (templates/scoring/_fixture_list.html): the fixture, its
    current result (None when there is none) and how the page shows that result.

    A result `counts` (is shown as the score, and in records) once it is confirmed, unless the
    fixture is void: the same rule as ResultVersion.objects.counted(), which the table reads.
    A result awaiting confirmation or disputed is `unconfirmed`: shown as such, not counted.
    """

    fixture: Fixture
    result: ResultVersion | None
    counts: bool
    unconfirmed: bool


@dataclass(frozen=True)
class TeamFixture(ListedFixture):
    """A fixture from one team's side (templates/scoring/_team_fixtures.html): `side` ("home"
    or "away"), the `opponent`, and the `outcome` ("W", "D", "L" for won, drawn, lost; "" while
    it has no result that counts)."""

    side: str
    opponent: Team
    outcome: str


@dataclass(frozen=True)
class SubstituteFixture(ListedFixture):
    """A fixture a player played as a substitute, with the `team` they played for."""

    team: Team


def _listed(fixture: Fixture) -> ListedFixture:
    result = fixture_result(fixture)
    shown = result is not None and fixture.status != Fixture.Status.VOID
    confirmed = (
        shown and result is not None and result.confirmation == ResultVersion.Confirmation.CONFIRMED
    )
    return ListedFixture(
        fixture=fixture, result=result, counts=confirmed, unconfirmed=shown and not confirmed
    )


def _with_result(fixtures: QuerySet[Fixture]) -> list[ListedFixture]:
    """Each fixture as a page lists it (`ListedFixture`), in the queryset's order."""
    return [_listed(fixture) for fixture in fixtures]


def _fixtures_with_standing_result() -> QuerySet[Fixture]:
    """Fixtures whose current result stands (the fixture is not void): what
    ResultVersion.objects.standing() selects, read from the fixtures' side."""
    return Fixture.objects.filter(result_versions__is_current=True).exclude(
        status=Fixture.Status.VOID
    )


def fixtures_recent_results(*, limit: int = 6, season: Season | None = None) -> list[ListedFixture]:
    """The latest played fixtures with a result, newest first."""
    queryset = _fixtures_with_standing_result().order_by("-starts_at", "-pk")
    if season is not None:
        queryset = queryset.filter(season=season)
    return _with_result(fixtures_with_results(queryset)[:limit])


def fixtures_upcoming(
    *, limit: int = 6, season: Season | None = None, venue: Venue | None = None
) -> list[ListedFixture]:
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


def venue_recent_results(*, venue: Venue, limit: int = 6) -> list[ListedFixture]:
    queryset = _fixtures_with_standing_result().filter(venue=venue).order_by("-starts_at", "-pk")
    return _with_result(fixtures_with_results(queryset)[:limit])


@dataclass
class FixtureRound:
    number: int
    fixtures: list[ListedFixture] = field(default_factory=list)

    @property
    def played(self) -> int:
        return sum(1 for listed in self.fixtures if listed.counts)


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
        for number, group in groupby(fixtures, key=lambda listed: listed.fixture.round)
    ]


@dataclass
class SeasonFixtures:
    season: Season
    fixtures: list[TeamFixture]


def team_fixtures_by_season(*, team_ids: list[int]) -> list[SeasonFixtures]:
    """The fixtures of these teams with their results, grouped by season (newest season first),
    each from these teams' side (`TeamFixture`)."""
    queryset = Fixture.objects.filter(
        Q(home_team_id__in=team_ids) | Q(away_team_id__in=team_ids)
    ).order_by("-season__starts_on", "season_id", "starts_at", "pk")
    ours = set(team_ids)
    fixtures = [
        _from_side(listed, "home" if listed.fixture.home_team_id in ours else "away")
        for listed in _with_result(fixtures_with_results(queryset))
    ]
    return [
        SeasonFixtures(season=season, fixtures=list(group))
        for season, group in groupby(fixtures, key=lambda listed: listed.fixture.season)
    ]


def _from_side(listed: ListedFixture, side: str) -> TeamFixture:
    fixture, outcome = listed.fixture, ""
    if listed.counts and listed.result is not None:
        winner = listed.result.winner
        outcome = "D" if winner == "draw" else ("W" if winner == side else "L")
    return TeamFixture(
        fixture=fixture,
        result=listed.result,
        counts=listed.counts,
        unconfirmed=listed.unconfirmed,
        side=side,
        opponent=fixture.away_team if side == "home" else fixture.home_team,
        outcome=outcome,
    )


def player_substitute_fixtures(*, player_id: int) -> list[SubstituteFixture]:
    """The fixtures the player played as a substitute (a registered reserve standing in, as the
    current result's lineup records it), newest first, each with the team they played for.
    Two queries."""
    candidates = (
        _fixtures_with_standing_result()
        .filter(
            Q(home_team__entries__reserves__player_id=player_id)
            | Q(away_team__entries__reserves__player_id=player_id)
        )
        .distinct()
        .order_by("-starts_at", "-pk")
    )
    played = []
    for listed in _with_result(fixtures_with_results(candidates)):
        lineup = (listed.result.lineup if listed.result is not None else None) or {}
        if player_id not in lineup.get("substitutes", []):
            continue
        fixture = listed.fixture
        home = player_id in lineup.get("home", [])
        played.append(
            SubstituteFixture(
                fixture=fixture,
                result=listed.result,
                counts=listed.counts,
                unconfirmed=listed.unconfirmed,
                team=fixture.home_team if home else fixture.away_team,
            )
        )
    return played


def fixture_get(*, pk: int) -> Fixture:
    """A fixture with its season, venue, teams and their players, and its current result
    (with its sheet: `fixture_result(fixture)`, or None); `fixture.version_count` says how
    many versions were saved.
    """
    return (
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


def fixture_queryset() -> QuerySet[Fixture]:
    """Fixtures in the model's order (season, round, date) with their current results, and a
    cup tie's round and cup (for leagues.competitions.fixture_competition)."""
    return fixtures_with_results(Fixture.objects.all()).select_related("cup_tie__round__cup")
