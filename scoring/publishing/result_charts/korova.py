"""Корова 006: the charts of one result on its fixture's page."""

from scoring.kinds.korova import running_totals
from scoring.publishing.charts import Chart, Series


def result_charts(*, sheet: dict, names: dict[int, str]) -> list[Chart]:
    """Each player's running heads, round by round: who was heading for the end score."""
    rounds = len(sheet["rounds"])
    by_round = running_totals(sheet["rounds"])
    return [
        Chart(
            title="Running heads by round",
            description=(
                f"Each player's total penalty heads after each of {rounds} rounds; fewer "
                "is better, and the game ends when someone reaches the end score."
            ),
            x_labels=[str(number) for number in range(1, rounds + 1)],
            x_title="Round",
            series=[
                Series(names.get(pk) or f"Player {seat}", [row[seat - 1] for row in by_round])
                for seat, pk in enumerate(sheet["players"], 1)
            ],
            integer_y=True,
        )
    ]
