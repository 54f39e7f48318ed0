"""How a result of each game becomes rated matches (scoring/ratings/games/<game>.py):
RATED_MATCHES.get(game, not_rated)(sheet=..., rule_options=..., home_player_ids=...,
away_player_ids=...) gives the games of a validated sheet as OpenSkill matches, in the order
they were played (docs/ratings.md)."""

from leagues.models import Game
from scoring.kinds.registry import GameRegistry

from . import conquian, convoy, korova


def not_rated(*, sheet, rule_options, home_player_ids, away_player_ids) -> list:
    """A game whose results are not rated."""
    return []


RATED_MATCHES = GameRegistry(
    "rating shape",
    {
        Game.CONVOY: convoy.rated_matches,
        Game.KOROVA: korova.rated_matches,
        Game.CONQUIAN: conquian.rated_matches,
    },
)
