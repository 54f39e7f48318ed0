"""The numbers behind the charts (scoring.publishing.charts): reads that turn results into series.

A Корова game's running heads chart is the game's own: its kind draws it
(`kind.result_charts`); what is here serves every game alike.
"""

from collections import defaultdict

from django.db.models import Q, Subquery
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from leagues.models import Division, Player, Season, Team
from scoring.models import RatingPoint
from scoring.publishing.charts import Chart, Series
from scoring.standings.selectors import league_results
from scoring.standings.table import RECORD_FIELDS, ResultRecord, StandingsConfig, build_standings


def season_positions_chart(*, season: Season) -> Chart | None:
    """Each team's league position after each round that has a result, in the season's top
    division (its league fixtures: an empty division is the top one's, leagues.selectors.
    division_q); None before any."""
    top = Subquery(
        Division.objects.filter(season_id=season.pk).order_by("level", "pk").values("pk")[:1]
    )
    rows = league_results(
        season_id=season.pk,
        in_division=Q(fixture__division=top) | Q(fixture__division__isnull=True),
    ).values_list("fixture__round", *RECORD_FIELDS, "walkover")
    by_round: defaultdict[int, list[ResultRecord]] = defaultdict(list)
    for counted in rows:
        # Sliced, not star-unpacked, so that the checker sees each field's type.
        round_number, record, walkover = counted[0], counted[1:8], counted[8]
        by_round[round_number].append(ResultRecord(*record)._replace(walkover=walkover))
    if not by_round:
        return None
    in_top = Q(entries__division=top) | Q(entries__division__isnull=True)
    teams = list(Team.objects.filter(in_top, entries__season_id=season.pk).order_by("name", "pk"))
    config = StandingsConfig.from_season(season)
    rounds = sorted(by_round)
    positions: dict[int, list[int]] = {team.pk: [] for team in teams}
    records: list[ResultRecord] = []
    for round_number in rounds:
        records += by_round[round_number]
        for row in build_standings(records=records, teams=teams, config=config):
            positions[row.team_id].append(row.position)
    return Chart(
        title=_("League position by round, %(season)s") % {"season": season.name},
        description=ngettext(
            "Each team's place in the table of %(league)s after each round, 1st at the top, "
            "over %(count)d round.",
            "Each team's place in the table of %(league)s after each round, 1st at the top, "
            "over %(count)d rounds.",
            len(rounds),
        )
        % {"league": season.league.name, "count": len(rounds)},
        x_labels=[str(number) for number in rounds],
        x_title=pgettext("league round", "Round"),
        series=[Series(team.name, positions[team.pk]) for team in teams],
        lower_is_up=True,
        integer_y=True,
    )


def player_rating_chart(*, player: Player, game: str, game_label: str) -> Chart | None:
    """The player's rating (the ordinal) after each fixture of the game; None before any."""
    points = list(
        RatingPoint.objects.filter(player=player, game=game)
        .order_by("played_at", "pk")
        .values_list("played_at", "ordinal")
    )
    if not points:
        return None
    return Chart(
        title=_("%(player)s's %(game)s rating") % {"game": game_label, "player": player.name},
        description=ngettext(
            "%(player)s's %(game)s rating after %(count)d fixture, on %(first)s; higher is better.",
            "%(player)s's %(game)s rating after each of %(count)d fixtures, from %(first)s to "
            "%(last)s; higher is better.",
            len(points),
        )
        % {
            "game": game_label,
            "player": player.name,
            "count": len(points),
            "first": _day(points[0][0]),
            "last": _day(points[-1][0]),
        },
        x_labels=[_day(played_at) for played_at, _value in points],
        x_title=_("Fixture date"),
        series=[Series(_("Rating"), [round(value, 1) for _day_, value in points])],
    )


def _day(value) -> str:
    return formats.date_format(value, pgettext("date format", "j M"))
