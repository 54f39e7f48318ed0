"""Reads of the leagues app: leagues, seasons, teams, players and venues, and the querysets of
the read API. Results are scoring's (scoring.results.fixture_results, scoring.standings.records).

Every function here costs a fixed number of queries, whatever the number of teams or fixtures:
related rows come with select_related, lists of children with prefetch_related. Functions that
look a row up by slug raise the model's DoesNotExist; views turn it into 404.
"""

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from .models import Division, Entry, Fixture, League, Player, Season, Team, TeamMember, Venue


def members_prefetch(prefix: str = "") -> "Prefetch[str, QuerySet[Any], str]":
    """A team's members with their players, in position order (`prefix` e.g. "home_team__")."""
    return Prefetch(f"{prefix}members", queryset=TeamMember.objects.select_related("player"))


def team_player_ids(*, team_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each team's Player ids in position order (team id → ids; [] for a team without
    players): the one read of who plays for a team, as the rosters are now. One query."""
    players: dict[int, list[int]] = {team_id: [] for team_id in team_ids}
    for team_id, player_id in (
        TeamMember.objects.filter(team_id__in=players)
        .order_by("team_id", "position")
        .values_list("team_id", "player_id")
    ):
        players[team_id].append(player_id)
    return players


# Leagues


def league_list() -> list[League]:
    """Every league with its seasons (newest first) and each season's team count."""
    seasons = Season.objects.annotate(team_count=Count("entries")).order_by("-starts_on", "pk")
    return list(League.objects.prefetch_related(Prefetch("seasons", queryset=seasons)))


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


# Seasons


def season_get(*, league_slug: str, season_slug: str) -> Season:
    return Season.objects.select_related("league").get(league__slug=league_slug, slug=season_slug)


def season_progress(*, season: Season) -> dict[str, int]:
    """How many fixtures the season has, and how many are played."""
    return Fixture.objects.filter(season=season).aggregate(
        total=Count("pk"),
        played=Count("pk", filter=Q(status=Fixture.Status.PLAYED)),
        postponed=Count("pk", filter=Q(status=Fixture.Status.POSTPONED)),
    )


# Divisions: a season's tables. An entry or a league fixture with no division (one written
# before divisions, or straight into the database) belongs to the season's top division.


def season_divisions(*, season: Season | int) -> list[Division]:
    """The season's divisions, top (lowest level) first. One query."""
    season_id = season.pk if isinstance(season, Season) else int(season)
    return list(Division.objects.filter(season_id=season_id).order_by("level", "pk"))


def division_q(*, division: Division | None, top: bool, field: str = "division") -> Q:
    """Rows (entries, fixtures, or through `field` their relations) in `division`; `top`: it
    is the season's top division, which also holds the rows with no division. `division`
    None: a season without any division, whose rows all have none."""
    no_division = Q(**{f"{field}__isnull": True})
    if division is None:
        return no_division
    mine = Q(**{field: division})
    return mine | no_division if top else mine


def division_fixtures_q(*, division_id: int) -> Q:
    """The league fixtures and play-offs of a division (by id; none for an unknown id),
    including, in a top division, its season's league fixtures that have no division. Two
    queries."""
    division = Division.objects.filter(pk=division_id).first()
    if division is None:
        return Q(pk__in=[])
    top = not Division.objects.filter(
        season_id=division.season_id, level__lt=division.level
    ).exists()
    unassigned = Q(division__isnull=True, stage=Fixture.Stage.LEAGUE)
    return Q(season_id=division.season_id) & (
        Q(division=division) | (unassigned if top else Q(pk__in=[]))
    )


def division_matches(division_id: int | None, division: Division | None, *, top: bool) -> bool:
    """division_q's rule for a row already read: is a row with `division_id` in `division`?"""
    if division_id is None:
        return top or division is None
    return division is not None and division_id == division.pk


def division_team_ids(*, season: Season) -> list[tuple[Division, list[int]]]:
    """Each division of the season (top first) with the ids of its teams, by team name.
    Uses the season's prefetched `divisions` and `entries` when season_queryset gave them."""
    divisions = sorted(season.divisions.all(), key=lambda division: (division.level, division.pk))
    teams: dict[int, list[int]] = {division.pk: [] for division in divisions}
    entries = sorted(season.entries.all(), key=lambda entry: (entry.team.name, entry.team_id))
    for entry in entries:
        division_id = entry.division_id if entry.division_id in teams else None
        if division_id is None and divisions:
            division_id = divisions[0].pk  # no division: the top one's
        if division_id is not None:
            teams[division_id].append(entry.team_id)
    return [(division, teams[division.pk]) for division in divisions]


# Teams, players, venues


def team_get(*, slug: str) -> Team:
    """A team with its home venue and its two players in position order."""
    return (
        Team.objects.select_related("home_venue")
        .prefetch_related(members_prefetch())
        .get(slug=slug)
    )


def team_entries(*, team: Team) -> list[Entry]:
    return list(
        Entry.objects.filter(team=team)
        .select_related("season__league")
        .order_by("-season__starts_on", "season__pk")
    )


def player_get(*, slug: str) -> Player:
    """A player with their teams (and each team's home venue)."""
    memberships = TeamMember.objects.select_related("team__home_venue").order_by("team__name")
    return Player.objects.prefetch_related(Prefetch("memberships", queryset=memberships)).get(
        slug=slug
    )


def venue_get(*, slug: str) -> Venue:
    """A venue with the teams based there, each with its players."""
    teams = Team.objects.prefetch_related(members_prefetch()).order_by("name")
    return Venue.objects.prefetch_related(Prefetch("home_teams", queryset=teams)).get(slug=slug)


# Querysets for the read API (lists are paginated and filtered by the API on top of these)


def league_queryset() -> QuerySet[League]:
    return League.objects.prefetch_related(
        Prefetch("seasons", queryset=Season.objects.order_by("-starts_on", "pk"))
    )


def season_queryset() -> QuerySet[Season]:
    """Seasons with their league, divisions and entries (each with its team): the read API's
    `teams` and `divisions` both come from these (season_teams, division_team_ids)."""
    return Season.objects.select_related("league").prefetch_related(
        Prefetch("divisions", queryset=Division.objects.order_by("level", "pk")),
        Prefetch("entries", queryset=Entry.objects.select_related("team")),
    )


def season_teams(*, season: Season) -> list[Team]:
    """The season's teams by name, from the entries season_queryset prefetched."""
    return sorted((entry.team for entry in season.entries.all()), key=lambda t: (t.name, t.pk))


def venue_queryset() -> QuerySet[Venue]:
    return Venue.objects.prefetch_related(
        Prefetch("home_teams", queryset=Team.objects.order_by("name"))
    )


def team_queryset() -> QuerySet[Team]:
    return Team.objects.select_related("home_venue").prefetch_related(members_prefetch())


def player_queryset() -> QuerySet[Player]:
    memberships = TeamMember.objects.select_related("team").order_by("team__name")
    return Player.objects.prefetch_related(Prefetch("memberships", queryset=memberships))
