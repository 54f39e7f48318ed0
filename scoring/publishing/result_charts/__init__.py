"""The charts of one result on its fixture's page, per game (scoring/publishing/result_charts/
<game>.py): RESULT_CHARTS.get(game, no_charts)(sheet=..., names=player id -> name)."""

from scoring.kinds.registry import GameRegistry


def no_charts(*, sheet: dict, names: dict[int, str]) -> list:
    """A game that draws nothing of a result."""
    return []


RESULT_CHARTS = GameRegistry.from_modules(
    "result chart", __name__, lambda game, module: module.result_charts
)
