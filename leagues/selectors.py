"""Reads for the public pages and the read API.

Every function here costs a fixed number of queries, whatever the number of teams, fixtures or
versions: related rows come with select_related, lists of children with prefetch_related, and
the current result of each fixture with one Prefetch of the current ResultVersion rows.
Functions that look a row up by slug or id raise the model's DoesNotExist; views turn it into 404.
"""

import datetime
from dataclasses import dataclass, field
from importlib import import_module
from itertools import groupby

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from games.engines.options import resolve_options
from scoring.kinds.conquian import single_status as conquian_single_status
from scoring.models import ResultVersion
from scoring.tiebreakers import TIE_BREAKERS

from .models import Entry, Fixture, Game, League, Player, Season, Team, TeamMember, Venue

# ---------------------------------------------------------------------------------------------
# Query building blocks


def _members_prefetch(prefix: str = "") -> Prefetch:
    return Prefetch(f"{prefix}members", queryset=TeamMember.objects.select_related("player"))


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
        "home_team", "away_team", "venue", "season__league"
    ).prefetch_related(_current_result_prefetch())


def fixture_result(fixture: Fixture) -> ResultVersion | None:
    """The current result of a fixture loaded through `fixtures_with_results`."""
    results = getattr(fixture, "current_results", None)
    return results[0] if results else None


def _with_result(fixtures) -> list[Fixture]:
    """Set `fixture.result` (the current result or None) and `fixture.counts` on each fixture.

    A result counts (is shown as the score, and in records) unless the fixture is void: the
    same rule as scoring.selectors.season_standings.
    """
    fixtures = list(fixtures)
    for fixture in fixtures:
        fixture.result = fixture_result(fixture)
        fixture.counts = fixture.result is not None and fixture.status != Fixture.Status.VOID
    return fixtures


# ---------------------------------------------------------------------------------------------
# Records (played, won, drawn, lost) per game


@dataclass
class GameRecord:
    game: str
    label: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0


def record_by_game(*, team_ids: list[int]) -> list[GameRecord]:
    """Played/won/drawn/lost per game for the fixtures of these teams, across all seasons.

    Counts every fixture with a current result that is not void (as the standings do); one query.
    """
    team_ids = set(team_ids)
    rows = (
        ResultVersion.objects.filter(is_current=True)
        .exclude(fixture__status=Fixture.Status.VOID)
        .filter(Q(fixture__home_team_id__in=team_ids) | Q(fixture__away_team_id__in=team_ids))
        .values_list("fixture__season__league__game", "fixture__home_team_id", "winner")
    )
    records = {game: GameRecord(game=game, label=label) for game, label in Game.choices}
    for game, home_team_id, winner in rows:
        record = records[game]
        side = "home" if home_team_id in team_ids else "away"
        record.played += 1
        if winner == ResultVersion.Winner.DRAW:
            record.drawn += 1
        elif winner == side:
            record.won += 1
        else:
            record.lost += 1
    return [record for record in records.values() if record.played]


# ---------------------------------------------------------------------------------------------
# Home and leagues


def league_list() -> list[League]:
    """Every league with its seasons (newest first) and each season's team count."""
    seasons = Season.objects.annotate(team_count=Count("entries")).order_by("-starts_on", "pk")
    return list(League.objects.prefetch_related(Prefetch("seasons", queryset=seasons)))


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


def league_get(*, slug: str) -> League:
    """A league with its seasons, each with its team count and fixtures played and in total."""
    seasons = Season.objects.annotate(
        team_count=Count("entries", distinct=True),
        fixture_count=Count("fixtures", distinct=True),
        played_count=Count(
            "fixtures", filter=Q(fixtures__status=Fixture.Status.PLAYED), distinct=True
        ),
    ).order_by("-starts_on", "pk")
    return League.objects.prefetch_related(Prefetch("seasons", queryset=seasons)).get(slug=slug)


# ---------------------------------------------------------------------------------------------
# Seasons


def season_get(*, league_slug: str, season_slug: str) -> Season:
    return Season.objects.select_related("league").get(league__slug=league_slug, slug=season_slug)


def season_progress(*, season: Season) -> dict:
    """How many fixtures the season has, and how many are played."""
    return Fixture.objects.filter(season=season).aggregate(
        total=Count("pk"),
        played=Count("pk", filter=Q(status=Fixture.Status.PLAYED)),
        postponed=Count("pk", filter=Q(status=Fixture.Status.POSTPONED)),
    )


@dataclass
class FixtureRound:
    number: int
    fixtures: list[Fixture] = field(default_factory=list)

    @property
    def played(self) -> int:
        return sum(1 for fixture in self.fixtures if fixture.counts)


def season_fixtures_by_round(*, season: Season) -> list[FixtureRound]:
    """Every fixture of the season with its current result, grouped by round (two queries)."""
    queryset = Fixture.objects.filter(season=season).order_by("round", "starts_at", "pk")
    fixtures = _with_result(fixtures_with_results(queryset))
    return [
        FixtureRound(number=number, fixtures=list(group))
        for number, group in groupby(fixtures, key=lambda fixture: fixture.round)
    ]


# ---------------------------------------------------------------------------------------------
# Teams, players, venues


def team_get(*, slug: str) -> Team:
    """A team with its home venue and its two players in position order."""
    return (
        Team.objects.select_related("home_venue")
        .prefetch_related(_members_prefetch())
        .get(slug=slug)
    )


def team_entries(*, team: Team) -> list[Entry]:
    return list(
        Entry.objects.filter(team=team)
        .select_related("season__league")
        .order_by("-season__starts_on", "season__pk")
    )


@dataclass
class SeasonFixtures:
    season: Season
    fixtures: list[Fixture]


def team_fixtures_by_season(*, team_ids: list[int]) -> list[SeasonFixtures]:
    """The fixtures of these teams with their results, grouped by season (newest season first)."""
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


def player_get(*, slug: str) -> Player:
    """A player with their teams (and each team's home venue)."""
    memberships = TeamMember.objects.select_related("team__home_venue").order_by("team__name")
    return Player.objects.prefetch_related(Prefetch("memberships", queryset=memberships)).get(
        slug=slug
    )


def venue_get(*, slug: str) -> Venue:
    """A venue with the teams based there, each with its players."""
    teams = Team.objects.prefetch_related(_members_prefetch()).order_by("name")
    return Venue.objects.prefetch_related(Prefetch("home_teams", queryset=teams)).get(slug=slug)


def venue_recent_results(*, venue: Venue, limit: int = 6) -> list[Fixture]:
    queryset = (
        Fixture.objects.filter(venue=venue, result_versions__is_current=True)
        .exclude(status=Fixture.Status.VOID)
        .order_by("-starts_at", "-pk")
    )
    return _with_result(fixtures_with_results(queryset)[:limit])


# ---------------------------------------------------------------------------------------------
# One fixture and its result


def fixture_get(*, pk: int) -> Fixture:
    """A fixture with its season, venue, teams and their players, and its current result.

    The current result (with its sheet) is `fixture.result`, or None; `fixture.version_count`
    says how many versions were saved.
    """
    fixture = (
        Fixture.objects.select_related("season__league", "venue", "home_team", "away_team")
        .prefetch_related(
            _members_prefetch("home_team__"),
            _members_prefetch("away_team__"),
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


@dataclass
class ConvoyGameLine:
    number: int
    winner: str  # "home", "away" or "stalemate"
    home_convoys: int
    away_convoys: int


@dataclass
class KorovaPlayerLine:
    side: str  # "home" or "away"
    player: Player | None
    name: str
    heads: list[int]
    total: int


@dataclass
class ConquianDealLine:
    number: int
    won_by: str  # "home", "away" or "draw"
    value: int


@dataclass
class ConquianSingleLine:
    number: int
    home_player: Player | None
    home_name: str
    away_player: Player | None
    away_name: str
    deals: list[ConquianDealLine]
    home_points: int
    away_points: int
    winner: str  # "home", "away" or "" while neither has reached the target


@dataclass
class ResultSummary:
    """What the public fixture page shows of a result sheet, per game."""

    game: str
    convoy_games: list[ConvoyGameLine] = field(default_factory=list)
    korova_players: list[KorovaPlayerLine] = field(default_factory=list)
    korova_rounds: int = 0
    korova_team_totals: dict = field(default_factory=dict)
    conquian_singles: list[ConquianSingleLine] = field(default_factory=list)


def _players_by_id(ids) -> dict[int, Player]:
    ids = {pk for pk in ids if isinstance(pk, int) and not isinstance(pk, bool)}
    return Player.objects.in_bulk(ids) if ids else {}


def _name(players: dict[int, Player], pk) -> str:
    player = players.get(pk)
    return player.name if player else "Unknown player"


def fixture_result_summary(*, fixture: Fixture, result: ResultVersion) -> ResultSummary:
    """The current result of `fixture` laid out for display (one query for player names).

    The sheet was validated when it was saved; this only reads it.
    """
    game = fixture.season.game
    sheet = result.sheet or {}
    summary = ResultSummary(game=game)
    if game == Game.CONVOY:
        for number, played in enumerate(sheet.get("games", []), 1):
            convoys = played.get("convoys", {})
            summary.convoy_games.append(
                ConvoyGameLine(
                    number=number,
                    winner=played.get("winner", ""),
                    home_convoys=convoys.get("home", 0),
                    away_convoys=convoys.get("away", 0),
                )
            )
    elif game == Game.KOROVA:
        player_ids = list(sheet.get("players", []))
        rounds = sheet.get("rounds", [])
        players = _players_by_id(player_ids)
        totals = {"home": 0, "away": 0}
        for index, pk in enumerate(player_ids):
            side = "home" if index < 2 else "away"
            heads = [row[index] for row in rounds if index < len(row)]
            totals[side] += sum(heads)
            summary.korova_players.append(
                KorovaPlayerLine(
                    side=side,
                    player=players.get(pk),
                    name=_name(players, pk),
                    heads=heads,
                    total=sum(heads),
                )
            )
        summary.korova_rounds = len(rounds)
        summary.korova_team_totals = totals
    elif game == Game.CONQUIAN:
        singles = sheet.get("singles", [])
        players = _players_by_id(
            [single.get(key) for single in singles for key in ("home_player", "away_player")]
        )
        options = _resolved_options(fixture.season)
        for number, single in enumerate(singles, 1):
            deals = list(single.get("deals", []))
            status = conquian_single_status(
                deals, options.get("target", 5), options.get("carry_over", "double")
            )
            values = status.values
            summary.conquian_singles.append(
                ConquianSingleLine(
                    number=number,
                    home_player=players.get(single.get("home_player")),
                    home_name=_name(players, single.get("home_player")),
                    away_player=players.get(single.get("away_player")),
                    away_name=_name(players, single.get("away_player")),
                    deals=[
                        ConquianDealLine(number=n, won_by=won_by, value=value)
                        for n, (won_by, value) in enumerate(zip(deals, values, strict=False), 1)
                    ],
                    home_points=status.home_points,
                    away_points=status.away_points,
                    winner=status.winner or "",
                )
            )
    return summary


# ---------------------------------------------------------------------------------------------
# A season's rules, for display

_RULE_LABELS = {
    Game.CONVOY: (),
    Game.KOROVA: (("edition", "Edition"), ("end_score", "Game ends at")),
    Game.CONQUIAN: (("target", "Single ends at"), ("carry_over", "Drawn deals")),
}
_RULE_VALUES = {
    "edition": {"korova-006": "Корова 006 (55 has 6 heads)", "classic": "Classic (55 has 7 heads)"},
    "carry_over": {
        "double": "double the next deal",
        "add": "add one to the next deal",
        "none": "do not carry over",
    },
}
_RULE_UNITS = {"end_score": " heads", "target": " deal points"}


def _resolved_options(season: Season) -> dict:
    """The season's rule options with the engine's defaults filled in (as stored if invalid)."""
    try:
        declared = import_module(f"games.engines.{season.game}").OPTIONS
        return resolve_options(declared, season.rule_options)
    except (ImportError, ValueError):
        return dict(season.rule_options or {})


def season_rules(*, season: Season) -> list[tuple[str, str]]:
    """The season's format and rule options as (label, plain words) pairs, defaults filled in."""
    rules = []
    if season.game == Game.CONVOY:
        games = (season.fixture_format or {}).get("games", 1)
        rules.append(("Fixture", "one game" if games == 1 else f"best of {games} games"))
    options = _resolved_options(season)
    for name, label in _RULE_LABELS.get(season.game, ()):
        if name in options:
            value = options[name]
            words = _RULE_VALUES.get(name, {}).get(value, f"{value}{_RULE_UNITS.get(name, '')}")
            rules.append((label, words))
    rules.append(
        ("Points", f"win {season.points_win}, draw {season.points_draw}, loss {season.points_loss}")
    )
    if season.tie_breakers:
        names = [
            TIE_BREAKERS[key].name.lower() if key in TIE_BREAKERS else str(key)
            for key in season.tie_breakers
        ]
        rules.append(("Order", ", then ".join(names)))
    return rules


# ---------------------------------------------------------------------------------------------
# Querysets for the read API (lists are paginated and filtered by the API on top of these)


def league_queryset() -> QuerySet[League]:
    return League.objects.prefetch_related(
        Prefetch("seasons", queryset=Season.objects.order_by("-starts_on", "pk"))
    )


def season_queryset() -> QuerySet[Season]:
    return Season.objects.select_related("league").prefetch_related(
        Prefetch("teams", queryset=Team.objects.order_by("name"))
    )


def venue_queryset() -> QuerySet[Venue]:
    return Venue.objects.prefetch_related(
        Prefetch("home_teams", queryset=Team.objects.order_by("name"))
    )


def team_queryset() -> QuerySet[Team]:
    return Team.objects.select_related("home_venue").prefetch_related(_members_prefetch())


def player_queryset() -> QuerySet[Player]:
    memberships = TeamMember.objects.select_related("team").order_by("team__name")
    return Player.objects.prefetch_related(Prefetch("memberships", queryset=memberships))


def fixture_queryset() -> QuerySet[Fixture]:
    """Fixtures in the model's order (season, round, date) with their current results."""
    return fixtures_with_results(Fixture.objects.all())
