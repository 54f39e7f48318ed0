"""The staff entry grids, one per game (scoring/results/grids/<game>.py on the shared
SheetGrid of base.py): ENTRY_GRIDS.get(season.game) is the grid class of a season's game."""

from leagues.models import Game
from scoring.kinds.registry import GameRegistry

from .base import SheetGrid
from .conquian import ConquianGrid
from .convoy import ConvoyGrid
from .korova import KorovaGrid

ENTRY_GRIDS: GameRegistry[type[SheetGrid]] = GameRegistry(
    "entry grid", {Game.CONVOY: ConvoyGrid, Game.KOROVA: KorovaGrid, Game.CONQUIAN: ConquianGrid}
)
