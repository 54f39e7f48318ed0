"""The charts of one result on its fixture's page, per game (scoring/publishing/result_charts/
<game>.py): RESULT_CHARTS.get(game, no_charts)(sheet=..., names=player id -> name)."""

from leagues.models import Game
from scoring.kinds.registry import GameRegistry

from . import korova


def no_charts(*, sheet: dict, names: dict[int, str]) -> list:
    """A game that draws nothing of a result."""
    return []


RESULT_CHARTS = GameRegistry("result chart", {Game.KOROVA: korova.result_charts})
