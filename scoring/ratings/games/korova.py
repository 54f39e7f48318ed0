"""Корова 006: a result as OpenSkill matches (sides of player ids and their ranks)."""

from scoring.kinds.korova import running_totals
from scoring.ratings.replay import RatedMatch, shared_ranks


def rated_matches(*, sheet, rule_options, home_player_ids, away_player_ids):
    """One free-for-all of the four players, ranked by their heads: fewer is better, and
    players level on heads share a place."""
    totals = running_totals(sheet["rounds"])[-1]
    return [
        RatedMatch(
            sides=tuple((pk,) for pk in sheet["players"]),
            ranks=shared_ranks(totals, lower_is_better=True),
        )
    ]
