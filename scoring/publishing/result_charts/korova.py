"""Корова 006: the charts of one result on its fixture's page."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.kinds.korova import running_totals
from scoring.publishing.charts import Chart, Series


def result_charts(*, sheet: dict, names: dict[int, str]) -> list[Chart]:
    """Each player's running heads, round by round: who was heading for the end score."""
    rounds = len(sheet["rounds"])
    by_round = running_totals(sheet["rounds"])
    return [
        Chart(
            title=_("Running heads by round"),
            description=ngettext(
                "Each player's total penalty heads after %(rounds)d round; fewer is better, "
                "and the game ends when someone reaches the end score.",
                "Each player's total penalty heads after each of %(rounds)d rounds; fewer is "
                "better, and the game ends when someone reaches the end score.",
                rounds,
            )
            % {"rounds": rounds},
            x_labels=[str(number) for number in range(1, rounds + 1)],
            x_title=pgettext("game round", "Round"),
            series=[
                Series(
                    names.get(pk) or _("Player %(seat)d") % {"seat": seat},
                    [row[seat - 1] for row in by_round],
                )
                for seat, pk in enumerate(sheet["players"], 1)
            ],
            integer_y=True,
        )
    ]
