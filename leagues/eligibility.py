"""The season's eligibility rule for a team's two players (Season.eligibility,
docs/seasons-walkovers-squads.md "Squads: the two and the reserves"): reserves are checked by
leagues.squad_services.reserve_register_check; this checks the two, wherever a team is put in a
season or its two change:

- entering teams in a season (the season admin's teams inline, the Entry admin, the rollover):
  `placing_clash` over the season's teams as they will be;
- changing an entered team's two (the team admin, `team_players_set`): `team_players_check`
  over each season the team is entered in and still playing.

The rule, for one of a team's two:

- one_team: nobody else in the season has them, as one of its two or a reserve;
- one_per_div: no other team of the same division has them;
- limited: no other team has them as one of its two (a reserve elsewhere may stand in up to
  the appearance limit; being one of two teams' two would be every fixture of both).

Nothing here writes; the callers refuse with the clash's sentence and change nothing.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from config.errors import Invalid

from .models import Division, Eligibility, Entry, Fixture, Player, Reserve, Season, Team
from .selectors import team_player_ids


@dataclass(frozen=True)
class Placing:
    """A team as entered in a season: its division (None: the top one), its two and the
    reserves registered on its entry (those count against another team's two)."""

    team: Team
    division_id: int | None
    players: frozenset[int]
    reserves: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Clash:
    player: Player
    other: Team
    message: str


def _top_division_id(season: Season) -> int | None:
    if season.pk is None:  # a season on its admin's add page: no divisions yet
        return None
    return (
        Division.objects.filter(season=season)
        .order_by("level", "pk")
        .values_list("pk", flat=True)
        .first()
    )


def placing_clash(*, season: Season, placing: Placing, others: Iterable[Placing]) -> Clash | None:
    """The first of the placing's two whom the season's rule refuses beside `others` (the
    season's other teams), or None when the rule holds."""
    top = _top_division_id(season)
    division = placing.division_id or top
    for other in others:
        if other.team.pk == placing.team.pk:
            continue
        if season.eligibility == Eligibility.ONE_PER_DIVISION and (
            (other.division_id or top) != division
        ):
            continue
        taken = other.players
        if season.eligibility != Eligibility.LIMITED:
            taken = taken | other.reserves
        shared = sorted(placing.players & taken)
        if shared:
            player = Player.objects.get(pk=shared[0])
            return Clash(player, other.team, _clash_message(season, player, other.team))
    return None


def _clash_message(season: Season, player: Player, other: Team) -> str:
    if season.eligibility == Eligibility.ONE_PER_DIVISION:
        message = _(
            "%(player)s already plays for %(team)s in this division: a player plays for "
            "one team in each division."
        )
    elif season.eligibility == Eligibility.LIMITED:
        message = _(
            "%(player)s is already one of %(team)s's two this season: a player is one of the "
            "two of one team a season (another team may register them as a reserve)."
        )
    else:
        message = _(
            "%(player)s already plays for %(team)s this season: a player plays for one "
            "team a season."
        )
    return message % {"player": player, "team": other}


def season_placings(*, season: Season, exclude_entry_ids: Iterable[int] = ()) -> list[Placing]:
    """The season's entered teams as they are in the database (but those excluded), each with
    its division, its two and its reserves. Three queries."""
    entries = list(
        Entry.objects.filter(season=season)
        .exclude(pk__in=list(exclude_entry_ids))
        .select_related("team")
        .order_by("team__name", "pk")
    )
    players = team_player_ids(team_ids=[entry.team_id for entry in entries])
    reserves: dict[int, set[int]] = {}
    for entry_id, player_id in Reserve.objects.filter(entry__in=entries).values_list(
        "entry_id", "player_id"
    ):
        reserves.setdefault(entry_id, set()).add(player_id)
    return [
        Placing(
            entry.team,
            entry.division_id,
            frozenset(players[entry.team_id]),
            frozenset(reserves.get(entry.pk, ())),
        )
        for entry in entries
    ]


def entry_players_check(
    *,
    season: Season,
    team: Team,
    division_id: int | None,
    entry_id: int | None = None,
    field: str = "team",
) -> None:
    """Raise Invalid (on `field`) when entering `team` in `season` (in `division_id`; for the
    entry `entry_id` when it exists already) would break the season's rule for its two."""
    placing = Placing(team, division_id, frozenset(team_player_ids(team_ids=[team.pk])[team.pk]))
    others = season_placings(season=season, exclude_entry_ids=[entry_id] if entry_id else [])
    clash = placing_clash(season=season, placing=placing, others=others)
    if clash is not None:
        raise Invalid(errors={field: clash.message})


def team_open_entries(*, team: Team) -> list[Entry]:
    """The team's entries in seasons still being played: not rolled over, and with a league
    fixture still to play or no fixtures yet. Their seasons are where a change of the team's
    two is checked (a finished season's teams are history)."""
    league = Fixture.objects.filter(season=OuterRef("season"), stage=Fixture.Stage.LEAGUE)
    to_play = league.filter(status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED])
    return list(
        Entry.objects.filter(team=team, season__next_season__isnull=True)
        .filter(Q(Exists(to_play)) | ~Q(Exists(league)))
        .select_related("season")
        .order_by("season_id")
    )


def team_players_check(*, team: Team, player_ids: list[int], lock: bool = False) -> Clash | None:
    """The first clash that `player_ids` joining the team's two would make in a season it is
    entered in and still playing (team_open_entries), or None. With `lock`, each of those
    seasons' rows is locked first (as reserve_register locks it), in the order of their ids."""
    if not player_ids:
        return None
    entries = team_open_entries(team=team)
    if lock and entries:
        list(
            Season.objects.select_for_update()
            .filter(pk__in=[entry.season_id for entry in entries])
            .order_by("pk")
        )
    for entry in entries:
        placing = Placing(team, entry.division_id, frozenset(player_ids))
        others = season_placings(season=entry.season, exclude_entry_ids=[entry.pk])
        clash = placing_clash(season=entry.season, placing=placing, others=others)
        if clash is not None:
            return clash
    return None


def team_players_ensure_eligible(*, team: Team, player_ids: list[int]) -> None:
    """Raise Invalid (on "players") when `player_ids` may not join the team's two, as
    team_players_check finds with the seasons locked."""
    clash = team_players_check(team=team, player_ids=player_ids, lock=True)
    if clash is not None:
        raise Invalid(errors={"players": clash.message})
