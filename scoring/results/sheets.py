"""Result sheets: check a sheet entered by staff (or sent to the API) against its game.

`validate_sheet` looks the game's kind up (scoring.kinds) and returns the sheet normalised,
or raises `SheetInvalid` with every problem found, each keyed by the path of the field it
concerns and worded for the member of staff holding the score pad. The shapes and rules of
each game's sheet are in its kind module and in docs/scoring.md.

SheetInvalid is a Django ValidationError so that forms and the API (config/api_errors.py)
show each message next to its field without further mapping.
"""

from collections.abc import Mapping, Sequence

from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext as _

from scoring.kinds import SheetInvalid, get_kind
from scoring.results.sheet_merge import field_path


def validate_sheet(
    *,
    game: str,
    sheet,
    rule_options: Mapping | None,
    fixture_format: Mapping | None,
    home_players: Mapping[int, str] | Sequence[int] | None = None,
    away_players: Mapping[int, str] | Sequence[int] | None = None,
    home_team: str | None = None,
    away_team: str | None = None,
    player_names: Mapping[int, str] | None = None,
) -> dict:
    """The normalised sheet; SheetInvalid naming every problem otherwise (GameKind.validate)."""
    try:
        kind = get_kind(game)
    except ValueError:
        raise SheetInvalid(
            {
                NON_FIELD_ERRORS: _("There is no result sheet for the game %(game)s.")
                % {"game": repr(game)}
            }
        )
    return kind.validate(
        sheet=sheet,
        rule_options=rule_options,
        fixture_format=fixture_format,
        home_players=home_players,
        away_players=away_players,
        home_team=home_team,
        away_team=away_team,
        player_names=player_names,
    )


def unstorable_character(text: str) -> str | None:
    """What in `text` no PostgreSQL text or UTF-8 answer can hold ("a null character", "a
    surrogate character (U+D800)"), or None. JSON can carry both ("\\u0000", "\\ud800");
    the API refuses them in a sheet, and the service in a note."""
    if "\x00" in text:
        return _("a null character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:  # only lone surrogates cannot be encoded
        return _("a surrogate character (U+%(code)s)") % {"code": f"{ord(text[error.start]):X}"}
    return None


def sheet_changes(before, after, path: str = "") -> list[tuple[str, object, object]]:
    """What changed from one sheet to the next: (field path, old value, new value) per leaf.

    A field only in one of the two has None on the other side. Used for the result history
    (staff pages, API and admin).
    """
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        changes = []
        for key in list(before) + [key for key in after if key not in before]:
            changes += sheet_changes(before.get(key), after.get(key), field_path(path, key))
        return changes
    if isinstance(before, list) and isinstance(after, list):
        changes = []
        for index in range(max(len(before), len(after))):
            old = before[index] if index < len(before) else None
            new = after[index] if index < len(after) else None
            changes += sheet_changes(old, new, field_path(path, index))
        return changes
    return [] if before == after else [(path, before, after)]


__all__ = ["SheetInvalid", "sheet_changes", "unstorable_character", "validate_sheet"]
