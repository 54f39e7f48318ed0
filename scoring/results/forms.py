"""Result-entry forms: the fixed fields of a sheet page, the check every change of the grid
goes through, and a sheet's changes in words.

The grids themselves are each game's (scoring/kinds/<game>_grid.py). `grid_check` runs the
validation that Save runs (scoring.services.result_submit): the same function, given the
same fixture, teams and players (scoring.selectors.fixture_sheet_context), so the preview
shows exactly the messages Save would, each beside its field, once.
"""

from django import forms

from .kinds import SheetInvalid, get_kind
from .outcomes import league_points
from .selectors import fixture_sheet_context
from .sheets import validate_sheet


class EntryForm(forms.Form):
    """What every sheet page carries besides the grid."""

    based_on_version = forms.IntegerField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages={
            "required": "This form lost track of the version it was loaded from: "
            "reload the page (your entries are shown below, copy them if needed).",
            "invalid": "This form's version marker is damaged: reload the page.",
            "min_value": "This form's version marker is damaged: reload the page.",
        },
    )
    note = forms.CharField(
        max_length=250,
        required=False,
        label="Note (optional)",
        help_text="Why a correction was needed, or anything odd about the match.",
        error_messages={"max_length": "Keep the note to %(limit_value)d characters."},
    )
    before_fixture_day = forms.BooleanField(
        required=False,
        label="Record it before the fixture's day (league admin: a match played early)",
    )


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


# --- what changed, in words ----------------------------------------------------------------


def describe_path(game: str, path: str, *, names: dict, sheet, teams=None) -> str:
    """A sheet path in words ("rounds.2.1" → "Round 3, Bob"); the path itself if unknown."""
    sheet = sheet if isinstance(sheet, dict) else {}
    try:
        label = get_kind(game).describe_path(path.split("."), names=names, sheet=sheet, teams=teams)
    except (ValueError, IndexError):
        label = None
    return label or path


def describe_value(game: str, path: str, value, *, names: dict, sheet, teams=None) -> str:
    """A sheet value in words, for the history and the conflict page."""
    if value is None:
        return "—"
    sheet = sheet if isinstance(sheet, dict) else {}
    try:
        words = get_kind(game).describe_value(
            path.split("."), value, names=names, sheet=sheet, teams=teams
        )
    except (ValueError, IndexError, TypeError):
        words = None
    if words is not None:
        return words
    if isinstance(value, list):
        return ", ".join("" if item is None else str(item) for item in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{key} {item}" for key, item in value.items())
    return str(value)


def readable_changes(
    game: str, changes: list, *, before: dict | None, after: dict | None, names: dict, teams
) -> list[dict]:
    """scoring.sheets.sheet_changes in words: label, old value, new value."""
    return [
        {
            "path": path,
            "label": describe_path(game, path, names=names, sheet=after or before, teams=teams),
            "before": describe_value(
                game, path, old, names=names, sheet=before or after, teams=teams
            ),
            "after": describe_value(
                game, path, new, names=names, sheet=after or before, teams=teams
            ),
        }
        for path, old, new in changes
    ]
