"""The staff page's preview: a grid's sheet checked as Save checks it, and its outcome in words.

`grid_check` runs the validation that Save runs (scoring.results.services.result_submit): the
same function, given the same fixture, teams and players
(scoring.results.selectors.fixture_sheet_context), so the preview shows exactly the messages Save
would, each beside its field, once. Nothing here writes; the views call it, the forms do not.
"""

from scoring.kinds import SheetInvalid, get_kind
from scoring.results.outcomes import league_points
from scoring.results.selectors import fixture_sheet_context
from scoring.results.sheets import validate_sheet


def grid_validate(grid) -> dict:
    """The grid's sheet validated exactly as Save validates it; SheetInvalid otherwise."""
    kind = get_kind(grid.game)
    sheet = grid.sheet()
    context = fixture_sheet_context(fixture=grid.fixture, kind=kind, sheet=sheet)
    return validate_sheet(game=grid.game, sheet=sheet, **context)


def grid_check(grid) -> dict | None:
    """Validate the grid as Save would: the outcome in words and league points if the sheet
    is valid, else None with every message put beside its field (grid.add_errors)."""
    try:
        clean = grid_validate(grid)
    except SheetInvalid as invalid:
        grid.add_errors(invalid.errors)
        return None
    return grid_outcome(grid, clean)


def grid_outcome(grid, clean: dict) -> dict:
    """The outcome of a valid sheet, for the page and the conflict view."""
    kind = get_kind(grid.game)
    outcome = kind.outcome(sheet=clean, rule_options=grid.season.rule_options)
    return describe_outcome(kind, outcome, fixture=grid.fixture, season=grid.season)


def grid_outcome_if_valid(grid) -> dict | None:
    """The outcome if the sheet is valid, without putting messages on the page (the page as
    first loaded, and the conflict view)."""
    try:
        return grid_outcome(grid, grid_validate(grid))
    except SheetInvalid:
        return None


def describe_outcome(kind, outcome, *, fixture, season) -> dict:
    """The outcome in words and league points."""
    teams = {"home": fixture.home_team, "away": fixture.away_team}
    return {
        "winner": outcome.winner,
        "winner_team": teams.get(outcome.winner),
        "summary": kind.summary(
            outcome, home_team=fixture.home_team.name, away_team=fixture.away_team.name
        ),
        "home_score": outcome.home_score,
        "away_score": outcome.away_score,
        "home_games": outcome.home_games,
        "away_games": outcome.away_games,
        "home_points": league_points(winner=outcome.winner, side="home", season=season),
        "away_points": league_points(winner=outcome.winner, side="away", season=season),
    }
