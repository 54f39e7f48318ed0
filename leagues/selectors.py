"""Reads of the leagues app: leagues, seasons, teams, players and venues, and the querysets of
the read API. Results are scoring's (scoring.results.fixture_results, scoring.standings.records).

Every function here costs a fixed number of queries, whatever the number of teams or fixtures:
related rows come with select_related, lists of children with prefetch_related. Functions that
look a row up by slug raise the model's DoesNotExist; views turn it into 404.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from .models import (
    Availability,
    Division,
    Entry,
    Fixture,
    League,
    Player,
    RescheduleProposal,
    Reserve,
    Season,
    Team,
    TeamMember,
    Venue,
)
from .permissions import AnyUser, fixture_squad_player, fixture_team_of


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


def team_squads(*, season_id: int, team_ids: Iterable[int]) -> dict[int, dict[int, str]]:
    """Each team's squad in a season, player id → name: its two players in position order,
    then the reserves registered on its entry in the order they were registered (team id →
    squad; {} for a team without players). Who may play a fixture for the team. Two queries."""
    squads: dict[int, dict[int, str]] = {team_id: {} for team_id in team_ids}
    for team_id, player_id, name in (
        TeamMember.objects.filter(team_id__in=squads)
        .order_by("team_id", "position")
        .values_list("team_id", "player_id", "player__name")
    ):
        squads[team_id][player_id] = name
    for team_id, player_id, name in (
        Reserve.objects.filter(entry__season_id=season_id, entry__team_id__in=squads)
        .order_by("entry__team_id", "registered_at", "pk")
        .values_list("entry__team_id", "player_id", "player__name")
    ):
        squads[team_id].setdefault(player_id, name)
    return squads


def season_reserves(*, season_id: int) -> list[Reserve]:
    """The reserves registered in a season, with their players and teams, by team and order."""
    return list(
        Reserve.objects.filter(entry__season_id=season_id)
        .select_related("player", "entry__team")
        .order_by("entry__team__name", "registered_at", "pk")
    )


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


# Match night: new dates and availability (docs/match-night.md)

OPEN_STATUSES = (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED)


def reschedule_open(*, fixture: Fixture) -> RescheduleProposal | None:
    """The fixture's proposal that waits for an answer, with its team, or None."""
    return (
        RescheduleProposal.objects.filter(
            fixture=fixture, status=RescheduleProposal.Status.PROPOSED
        )
        .select_related("team")
        .first()
    )


def season_postponed(*, season: Season) -> list[Fixture]:
    """The season's postponed fixtures, the nearest play-by day first."""
    return list(
        Fixture.objects.filter(season=season, status=Fixture.Status.POSTPONED)
        .select_related("home_team", "away_team")
        .order_by("play_by", "starts_at", "pk")
    )


def fixtures_overdue(*, today: datetime.date | None = None) -> QuerySet[Fixture]:
    """Fixtures not played by the day they had to be played by (a postponed fixture's
    play_by), oldest deadline first."""
    today = today or timezone.localdate()
    return (
        Fixture.objects.filter(play_by__lt=today, status__in=OPEN_STATUSES)
        .select_related("home_team", "away_team", "venue", "season__league")
        .order_by("play_by", "pk")
    )


@dataclass(frozen=True)
class Mark:
    """What one player or reserve said about one fixture: True, False or None (not said)."""

    player: Player
    available: bool | None


@dataclass(frozen=True)
class TeamAvailability:
    """One team's players and reserves for one fixture, with what each said."""

    team: Team
    players: list[Mark]
    reserves: list[Mark]

    @property
    def short(self) -> bool:
        """A player of the team said they cannot play."""
        return any(mark.available is False for mark in self.players)

    @property
    def stand_ins(self) -> list[Mark]:
        """The reserves who said they can play: who could stand in."""
        return [mark for mark in self.reserves if mark.available]


def _availability(
    fixtures: list[Fixture], teams: dict[int, Team], members: dict[int, list[Player]]
) -> dict[tuple[int, int], TeamAvailability]:
    """(fixture id, team id) → the team's marks for the fixture, for the sides of `fixtures`
    played by `teams` (whose players are `members`, in position order). Two queries (the
    reserves and the marks), whatever the number of fixtures."""
    reserves: dict[tuple[int, int], list[Player]] = {}
    seasons = {fixture.season_id for fixture in fixtures}
    for reserve in Reserve.objects.filter(
        entry__team_id__in=teams, entry__season_id__in=seasons
    ).select_related("player", "entry"):
        key = (reserve.entry.season_id, reserve.entry.team_id)
        reserves.setdefault(key, []).append(reserve.player)
    said = {
        (row.fixture_id, row.player_id): row.available
        for row in Availability.objects.filter(fixture__in=[fixture.pk for fixture in fixtures])
    }
    marks = {}
    for fixture in fixtures:
        for team_id in (fixture.home_team_id, fixture.away_team_id):
            if team_id not in teams:
                continue
            marks[fixture.pk, team_id] = TeamAvailability(
                team=teams[team_id],
                players=[Mark(p, said.get((fixture.pk, p.pk))) for p in members[team_id]],
                reserves=[
                    Mark(p, said.get((fixture.pk, p.pk)))
                    for p in reserves.get((fixture.season_id, team_id), [])
                ],
            )
    return marks


def fixture_availability(*, fixture: Fixture) -> list[TeamAvailability]:
    """Both teams' marks for the fixture, home first. Two queries when the teams' members
    come prefetched with their players (scoring's fixture_get does), four otherwise."""
    teams = {team.pk: team for team in (fixture.home_team, fixture.away_team)}
    members = {team.pk: [member.player for member in team.members.all()] for team in teams.values()}
    marks = _availability([fixture], teams, members)
    return [marks[fixture.pk, fixture.home_team_id], marks[fixture.pk, fixture.away_team_id]]


@dataclass(frozen=True)
class UpcomingAvailability:
    fixture: Fixture
    marks: TeamAvailability


def team_availability_upcoming(*, team: Team, limit: int = 8) -> list[UpcomingAvailability]:
    """The team's next fixtures still to play (postponed ones too), each with its players'
    and reserves' marks."""
    start_of_today = timezone.make_aware(
        datetime.datetime.combine(timezone.localdate(), datetime.time())
    )
    fixtures = list(
        Fixture.objects.filter(Q(home_team=team) | Q(away_team=team), status__in=OPEN_STATUSES)
        .filter(Q(starts_at__gte=start_of_today) | Q(status=Fixture.Status.POSTPONED))
        .select_related("home_team", "away_team", "venue", "season__league")
        .order_by("starts_at", "pk")[:limit]
    )
    members = [member.player for member in team.members.all()]  # prefetched by team_get
    marks = _availability(fixtures, {team.pk: team}, {team.pk: members})
    return [UpcomingAvailability(fixture, marks[fixture.pk, team.pk]) for fixture in fixtures]


@dataclass(frozen=True)
class FixtureSchedule:
    """What a fixture's page shows of match night to `user`: the proposal waiting for an
    answer, what they may do about it, and both teams' availability with their own mark."""

    proposal: RescheduleProposal | None
    availability: list[TeamAvailability]
    team_id: int | None = None  # the fixture's team `user` plays for
    squad_player: Player | None = None  # `user` as a player or reserve of either team
    my_mark: bool | None = None
    open: bool = False  # still to be played: proposals and marks are taken
    may: set[str] = field(default_factory=set)  # "propose", "answer", "withdraw", "mark"


def fixture_schedule(*, fixture: Fixture, user: AnyUser) -> FixtureSchedule:
    """Nothing to read for a played or void fixture: its date and its players are settled."""
    still_open = fixture.status in OPEN_STATUSES
    if not still_open:
        return FixtureSchedule(proposal=None, availability=[])
    proposal = reschedule_open(fixture=fixture)
    availability = fixture_availability(fixture=fixture)
    team_id = fixture_team_of(user=user, fixture=fixture)
    squad_player = fixture_squad_player(user=user, fixture=fixture)
    may = set()
    if team_id is not None:
        if proposal is None:
            may.add("propose")
        elif proposal.team_id == team_id:
            may.add("withdraw")
        else:
            may.add("answer")
    if squad_player is not None:
        may.add("mark")
    my_mark = None
    if squad_player is not None:
        my_mark = next(
            (
                mark.available
                for side in availability
                for mark in side.players + side.reserves
                if mark.player.pk == squad_player.pk
            ),
            None,
        )
    return FixtureSchedule(proposal, availability, team_id, squad_player, my_mark, still_open, may)
