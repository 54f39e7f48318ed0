"""The demo league's games (load_demo), one module per game (scoring/demo/<game>.py):
DEMO_GAMES.get(game) is its league and the sheets its fixtures are played with.

The demo is not a game's rule for scoring, so it is not its kind's: it plays the engine and
hands the finished tables to the kind, as a live table does. Nothing but load_demo (and a
benchmark) imports it.
"""

from scoring.kinds.registry import GameRegistry

from .base import DemoGame, DemoLeague, DemoSheet

DEMO_GAMES: GameRegistry[DemoGame] = GameRegistry.from_modules(
    "demo league",
    __name__,
    lambda game, module: DemoGame(module.LEAGUE, module.demo_sheet, module.SHOWS),
)


def demo_game_showing(feature: str) -> str:
    """The game whose demo league shows `feature` ("cup", "walkover", "reserve", "match
    night", "divisions"), as that game's demo module says (its SHOWS)."""
    return next(game for game, demo in DEMO_GAMES.items() if feature in demo.shows)


__all__ = ["DEMO_GAMES", "DemoGame", "DemoLeague", "DemoSheet", "demo_game_showing"]
