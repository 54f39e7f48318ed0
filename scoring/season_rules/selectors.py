"""Reads of a season's end (docs/seasons.md): who goes up and down between its divisions, who
meets in a play-off, and the next season a rollover would create (`season_rollover_plan`).

A division's `promoted` top teams go up one level and its `relegated` bottom teams go down one;
the top division sends nobody up and the bottom one nobody down. A team that withdrew
(Entry.withdrawn_on) is left out of the next season and out of the counting: the places go to
the teams below (or above) it. With `playoff` on, the last place on each side of a line is
decided by one fixture (stage "playoff") between the team just inside the line and the team
just outside it, at the inside team's venue: the winner is inside (goes up, or stays up); a
drawn play-off keeps the table's order.
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from config.errors import Conflict
from leagues.eligibility import Placing, placing_clash
from leagues.models import Division, Entry, Fixture, Season, Team
from leagues.selectors import season_divisions, team_player_ids
from scoring.models import ResultVersion
from scoring.standings.selectors import season_standings


@dataclass(frozen=True)
class PlayoffPairing:
    """One play-off: `inside` is the team just inside the line (promotion or safety), `outside`
    the one just outside it; `line` is "promotion" or "relegation"."""

    division: Division
    line: str
    inside: Team
    outside: Team


@dataclass
class NextDivision:
    name: str
    level: int
    promoted: int
    relegated: int
    playoff: bool
    teams: list[Team] = field(default_factory=list)
    arriving: list[tuple[Team, str]] = field(default_factory=list)  # (team, "up" / "down")


@dataclass
class RolloverPlan:
    season: Season
    divisions: list[NextDivision]
    promoted: list[tuple[Team, Division, Division]]  # (team, from, to)
    relegated: list[tuple[Team, Division, Division]]
    withdrawn: list[Team]


def division_playoffs(*, season: Season) -> list[PlayoffPairing]:
    """The play-offs the season's divisions call for (those with `playoff` on), from the
    tables as they stand. Withdrawn teams are skipped."""
    divisions = season_divisions(season=season)
    withdrawn = _withdrawn_ids(season)
    pairings = []
    for index, division in enumerate(divisions):
        if not division.playoff:
            continue
        teams = _ranked(season, division, withdrawn)
        up = division.promoted if index > 0 else 0
        down = division.relegated if index < len(divisions) - 1 else 0
        if 0 < up < len(teams):
            pairings.append(PlayoffPairing(division, "promotion", teams[up - 1], teams[up]))
        if 0 < down < len(teams):
            pairings.append(PlayoffPairing(division, "relegation", teams[-down - 1], teams[-down]))
    return pairings


def season_rollover_plan(*, season: Season) -> RolloverPlan:
    """What the next season would hold: its divisions (same names, levels and rules), each
    with its teams, after promotion, relegation and withdrawals. Writes nothing.

    Raises Conflict (field "season") when a play-off the divisions call for has no result.
    """
    divisions = season_divisions(season=season)
    withdrawn_ids = _withdrawn_ids(season)
    playoff_winners = _playoff_winners(season)
    next_divisions = [
        NextDivision(d.name, d.level, d.promoted, d.relegated, d.playoff) for d in divisions
    ]
    promoted, relegated = [], []
    for index, division in enumerate(divisions):
        teams = _ranked(season, division, withdrawn_ids)
        up = division.promoted if index > 0 else 0
        down = division.relegated if index < len(divisions) - 1 else 0
        if division.playoff:
            teams = _after_playoffs(division, teams, up, down, playoff_winners)
        going_up = teams[:up]
        going_down = teams[len(teams) - down :] if down else []
        going_down = [team for team in going_down if team not in going_up]
        for team in teams:
            if team in going_up:
                target = index - 1
                promoted.append((team, division, divisions[target]))
                next_divisions[target].arriving.append((team, "up"))
            elif team in going_down:
                target = index + 1
                relegated.append((team, division, divisions[target]))
                next_divisions[target].arriving.append((team, "down"))
            else:
                target = index
            next_divisions[target].teams.append(team)
    withdrawn = list(Team.objects.filter(pk__in=withdrawn_ids).order_by("name"))
    for next_division in next_divisions:
        next_division.teams.sort(key=lambda team: team.name)
    return RolloverPlan(season, next_divisions, promoted, relegated, withdrawn)


def rollover_eligibility_clash(*, plan: RolloverPlan) -> str | None:
    """Why the next season could not take its teams as they are now, or None: one of a
    team's two has since joined another team of the plan, against the season's eligibility
    rule (copied to the next season). The sentence names the team left out."""
    teams = [(division.level, team) for division in plan.divisions for team in division.teams]
    players = team_player_ids(team_ids=[team.pk for _level, team in teams])
    placings = [Placing(team, level, frozenset(players[team.pk])) for level, team in teams]
    for index, placing in enumerate(placings):
        clash = placing_clash(season=plan.season, placing=placing, others=placings[:index])
        if clash is not None:
            return _("The next season cannot take %(team)s as it is: %(refusal)s") % {
                "team": placing.team.name,
                "refusal": clash.message,
            }
    return None


def season_unplayed_count(*, season: Season) -> int:
    """How many league fixtures of the season are still to play (scheduled or postponed):
    the rollover's preview warns of them (the table as it stands decides)."""
    return Fixture.objects.filter(
        season=season,
        stage=Fixture.Stage.LEAGUE,
        status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED],
    ).count()


def _withdrawn_ids(season: Season) -> set[int]:
    return set(
        Entry.objects.filter(season=season, withdrawn_on__isnull=False).values_list(
            "team_id", flat=True
        )
    )


def _ranked(season: Season, division: Division, withdrawn: set[int]) -> list[Team]:
    rows = season_standings(season=season, division=division)
    return [row.team for row in rows if row.team_id not in withdrawn]


def _playoff_winners(season: Season) -> dict[frozenset[int], tuple[str, int]]:
    """Each play-off's pairing → (the winner's side: "home", "away" or "draw"; the home
    team's id), from the fixtures' counted results."""
    return {
        frozenset((home, away)): (winner, home)
        for home, away, winner in ResultVersion.objects.counted()
        .filter(fixture__season=season, fixture__stage=Fixture.Stage.PLAYOFF)
        .values_list("fixture__home_team_id", "fixture__away_team_id", "winner")
    }


def _after_playoffs(
    division: Division,
    teams: list[Team],
    up: int,
    down: int,
    winners: dict[frozenset[int], tuple[str, int]],
) -> list[Team]:
    """The table's order with each play-off's winner put inside its line."""
    teams = list(teams)
    lines = []
    if 0 < up < len(teams):
        lines.append(up - 1)  # inside index; outside is the next one
    if 0 < down < len(teams):
        lines.append(len(teams) - down - 1)
    for inside in lines:
        pair = frozenset((teams[inside].pk, teams[inside + 1].pk))
        if pair not in winners:
            raise Conflict(
                errors={
                    "season": _(
                        "The play-off between %(inside)s and %(outside)s in %(division)s has "
                        "no result yet: enter it before the rollover."
                    )
                    % {
                        "inside": teams[inside].name,
                        "outside": teams[inside + 1].name,
                        "division": division.name,
                    }
                }
            )
        winner, home_id = winners[pair]
        if winner == "draw":
            continue
        winner_id = home_id if winner == "home" else next(iter(pair - {home_id}))
        if teams[inside + 1].pk == winner_id:
            teams[inside], teams[inside + 1] = teams[inside + 1], teams[inside]
    return teams
