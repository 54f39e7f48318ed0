"""The staff entry grids, one per game (scoring/results/grids/<game>.py on the shared
SheetGrid of base.py): ENTRY_GRIDS.get(season.game) is the grid class of a season's game."""

from scoring.kinds.registry import GameRegistry

from .base import SheetGrid

ENTRY_GRIDS: GameRegistry[type[SheetGrid]] = GameRegistry.from_modules(
    "entry grid", __name__, lambda game, module: module.GRID
)
