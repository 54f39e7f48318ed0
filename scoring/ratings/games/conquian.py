"""Conquian: a result as OpenSkill matches (sides of player ids and their ranks)."""

from scoring.kinds.base import RANKS_BY_WINNER
from scoring.kinds.conquian import KIND
from scoring.ratings.replay import RatedMatch


def rated_matches(*, sheet, rule_options, home_player_ids, away_player_ids):
    """Each single: one player against the other, the one who reached the target first."""
    outcome = KIND.outcome(sheet=sheet, rule_options=rule_options)
    return [
        RatedMatch(
            sides=((game["home_player"],), (game["away_player"],)),
            ranks=RANKS_BY_WINNER[game["winner"]],
        )
        for game in outcome.games
    ]
