"""From a result sheet to the fixture's outcome, and from the outcome to league points.

Pure Python: no database. `match_outcome` expects a sheet that passed validation and asks
the game's kind (scoring.kinds) for the outcome; scores are in each game's own units
(docs/scoring.md): convoys, penalty heads, deal points.
"""

from scoring.kinds import MatchOutcome, get_kind


def match_outcome(*, game: str, sheet: dict, rule_options: dict | None) -> MatchOutcome:
    """The outcome of a validated sheet under the season's rule options."""
    return get_kind(game).outcome(sheet=sheet, rule_options=rule_options)


def saved_outcome(*, game: str, sheet: dict, rule_options: dict | None) -> MatchOutcome:
    """The outcome of a saved sheet under the season's rule options as they are now, or under
    the defaults where the options changed since and no longer read: a table, a record or a
    figure is never refused for an old sheet."""
    kind = get_kind(game)
    try:
        return kind.outcome(sheet=sheet, rule_options=rule_options)
    except ValueError:
        return kind.outcome(sheet=sheet, rule_options={})


def league_points(*, winner: str, side: str, season) -> int:
    """League points for `side` ("home" or "away") of a fixture that `winner` took.

    season: anything with points_win, points_draw and points_loss (a Season).
    """
    if winner == "draw":
        return season.points_draw
    return season.points_win if winner == side else season.points_loss
