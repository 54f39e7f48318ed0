"""The numbers behind the charts (scoring.publishing.charts): reads that turn results into series.

A Корова game's running heads chart is the game's own: its kind draws it
(`kind.result_charts`); what is here serves every game alike.
"""

from collections import defaultdict

from django.db.models import Q, Subquery
from django.utils import formats

from leagues.models import Division, Fixture, Player, Season, Team
from scoring.models import RatingPoint, ResultVersion
from scoring.publishing.charts import Chart, Series
from scoring.standings.table import ResultRecord, StandingsConfig, build_standings


def season_positions_chart(*, season: Season) -> Chart | None:
    """Each team's league position after each round that has a result, in the season's top
    division (its league fixtures: an empty division is the top one's, leagues.selectors.
    division_q); None before any."""
    top = Subquery(
        Division.objects.filter(season_id=season.pk).order_by("level", "pk").values("pk")[:1]
    )
    rows = (
        ResultVersion.objects.counted()
        .filter(
            Q(fixture__division=top) | Q(fixture__division__isnull=True),
            fixture__season_id=season.pk,
            fixture__stage=Fixture.Stage.LEAGUE,
        )
        .order_by()
        .values_list(
            "fixture__round",
            "fixture_id",
            "fixture__home_team_id",
            "fixture__away_team_id",
            "home_score",
            "away_score",
            "winner",
            "fixture__starts_at",
            "walkover",
        )
    )
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
        title=f"League position by round, {season.name}",
        description=(
            f"Each team's place in the {season.league.name} table after each round, "
            f"1st at the top, over {len(rounds)} rounds."
        ),
        x_labels=[str(number) for number in rounds],
        x_title="Round",
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
        title=f"{player.name}'s {game_label} rating",
        description=(
            f"{player.name}'s {game_label} rating after each of {len(points)} fixtures, "
            f"from {_day(points[0][0])} to {_day(points[-1][0])}; higher is better."
        ),
        x_labels=[_day(played_at) for played_at, _ in points],
        x_title="Fixture date",
        series=[Series("Rating", [round(value, 1) for _, value in points])],
    )


def _day(value) -> str:
    return formats.date_format(value, "j M")
