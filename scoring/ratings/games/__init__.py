"""How a result of each game becomes rated matches (scoring/ratings/games/<game>.py):
RATED_MATCHES.get(game, not_rated)(sheet=..., rule_options=..., home_player_ids=...,
away_player_ids=...) gives the games of a validated sheet as OpenSkill matches, in the order
they were played (docs/ratings.md)."""

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from scoring.kinds.registry import GameRegistry
from scoring.ratings.replay import RatedMatch


class RatedMatches(Protocol):
    def __call__(
        self,
        *,
        sheet: Mapping[str, Any],
        rule_options: Mapping[str, Any],
        home_player_ids: Sequence[int],
        away_player_ids: Sequence[int],
    ) -> Sequence[RatedMatch]: ...


def not_rated(
    *,
    sheet: Mapping[str, Any],
    rule_options: Mapping[str, Any],
    home_player_ids: Sequence[int],
    away_player_ids: Sequence[int],
) -> list[RatedMatch]:
    """A game whose results are not rated."""
    return []


RATED_MATCHES: GameRegistry[RatedMatches] = GameRegistry.from_modules(
    "rated matches", __name__, lambda game, module: module.rated_matches
)
