"""Convoy: a result as OpenSkill matches (sides of player ids and their ranks)."""

from scoring.kinds.base import RANKS_BY_WINNER
from scoring.kinds.convoy import KIND
from scoring.ratings.replay import RatedMatch


def rated_matches(*, sheet, rule_options, home_player_ids, away_player_ids):
    """Each game of the fixture: the home pair against the away pair; a stalemate is a
    tie. Not rated while a team lacks its two players."""
    sides = (tuple(home_player_ids), tuple(away_player_ids))
    if not all(sides):
        return []
    outcome = KIND.outcome(sheet=sheet, rule_options=rule_options)
    return [
        RatedMatch(sides=sides, ranks=RANKS_BY_WINNER[game["winner"]]) for game in outcome.games
    ]
